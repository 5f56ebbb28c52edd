/**
 * The pages of the authorization endpoint: the "continue in the app" page (part 1, step 4: the
 * user is handed to the mobile identity app) and the error page shown when an error cannot go to
 * a redirect URI (RFC 6749 §4.1.2.1).
 *
 * The page offers, in order of how real users meet it: a QR code that opens the app on a phone
 * (with the form that confirms that phone by the code it shows,
 * identity-app/phone-confirmation.ts), a button that opens it on this device, and a secondary
 * "quick test" form that decides in one step. The QR code's link is printed only on request ("Show
 * the link"), so a shared screen shows the QR code alone. Everything works without JavaScript; one
 * external script (endpoints/hand-off.ts) only keeps the status line current and saves the user a
 * click when the phone finishes. Every interpolated value is escaped by `html`; the words are in
 * the page's language (authorization-messages.ts, views/language.ts).
 * @see spec part 1, 4.2
 */
import type { EvidenceRequest } from '../checks/claims-request';
import type { RegisteredClient } from '../clients';
import { ENDPOINT_PATHS } from '../config';
import { endpointUrl, type EmulatorContext } from '../context';
import { OAuthError } from '../errors';
import { authorizationPageLink, continueLink, appLink, qrCodeLink, relyingPartyHome, statusLink } from '../identity-app/links';
import { APP_STEPS, deviceStatus, type DeviceStatus } from '../identity-app/steps';
import { personas, type Persona } from '../personas/personas';
import type { Interaction, UsedFlow } from '../state';

import { APP_MESSAGES } from './app-messages';
import { stylesheet } from './assets';
import { AUTHORIZATION_MESSAGES, type AuthorizationMessages } from './authorization-messages';
import { SafeHtml, html } from './html';
import { documentExpired, documentSummary, personaDescription } from './labels';
import { clientDisplayName, clientLogo, logoImageSources, suggestedPersonaId } from './client';
import { languageSwitch, pageLanguage, pathOf, type LanguageHints, type PageLanguage } from './language';
import { EMULATOR_MESSAGES, type PageError } from './messages';
import { pageResponse } from './page-shell';
import { qrCodeSvg } from './qr';
import type { FlowAnswer } from '../qa/flow-answers';
import { flowAnswerChooser, progressLine } from './flow-answer-chooser';

/** The app's mark: a shield with a check, drawn inline (the pages load nothing but portraits). */
const MARK = new SafeHtml(
  '<span class="mark" aria-hidden="true"><svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="#fff" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"><path d="M12 2.5 4.5 5.5v6c0 4.6 3.2 8.6 7.5 10 4.3-1.4 7.5-5.4 7.5-10v-6z"/><path d="m8.5 12 2.5 2.5 4.5-5"/></svg></span>',
);

/**
 * A desktop page of the emulator (the authorization page, the error pages): the top bar with the
 * language switch, the body, the footer.
 * @param options.forms origins the page's forms may post to besides its own (CSP `form-action`)
 */
export function desktopPage(
  context: EmulatorContext,
  language: PageLanguage,
  options: {
    status: number;
    title: string;
    body: SafeHtml;
    scripts?: { script: string; connect: string };
    forms?: readonly string[];
    /** image sources besides the issuer's (the client's logo: views/client.ts) */
    images?: readonly string[];
  },
): Response {
  const t = AUTHORIZATION_MESSAGES[language.locale];
  const body = html`
<header class="topbar">${MARK}<span class="brand">${t.brand}</span><span class="env">${t.environment}</span>${languageSwitch(language)}</header>
<main>${options.body}</main>
<footer>${t.footer}</footer>`;
  return pageResponse({
    status: options.status,
    locale: language.locale,
    theme: language.theme,
    title: options.title,
    styles: stylesheet('authorization-page'),
    body,
    layout: 'desk',
    sources: {
      images: [new URL(context.issuer).origin, ...(options.images ?? [])],
      scripts: options.scripts ? [options.scripts.script] : undefined,
      connect: options.scripts ? [options.scripts.connect] : undefined,
      forms: options.forms,
    },
  });
}

function requestedEvidence(language: PageLanguage, evidence: EvidenceRequest): SafeHtml {
  const t = AUTHORIZATION_MESSAGES[language.locale];
  if (evidence.type === 'document') {
    const labels = EMULATOR_MESSAGES[language.locale].detailLabels;
    return html`<li>${t.documentEvidence}${evidence.details.length > 0 ? html`: ${evidence.details.map((detail) => labels[detail]).join(', ')}` : ''}</li>`;
  }
  return html`<li>${t.registerEvidence(evidence.sourceName)}${evidence.personalNumber ? t.lookedUpBy(html`<code>${evidence.personalNumber}</code>`) : ''}</li>`;
}

/** Who asks for what: the part of the page that the app's consent step repeats in detail. */
function requestedCard(language: PageLanguage, interaction: Interaction): SafeHtml {
  const t = AUTHORIZATION_MESSAGES[language.locale];
  const labels = EMULATOR_MESSAGES[language.locale].claimLabels;
  const { claims } = interaction.request;
  return html`
<section class="card requested" aria-labelledby="requested-heading">
<h2 id="requested-heading">${t.requested}</h2>
<p>${t.trustFramework(html`<code>${claims.trustFramework}</code>`)}</p>
<h3>${t.identity}</h3>
${
  claims.claims.length > 0
    ? html`<ul class="list">${claims.claims.map(
        (claim) => html`<li>${labels[claim.name]}${claim.essential ? html`<span class="tag">${t.essential}</span>` : ''}</li>`,
      )}</ul>`
    : html`<p class="muted">${t.noClaims}</p>`
}
${claims.evidence.length > 0 ? html`<h3>${t.evidence}</h3><ul class="list">${claims.evidence.map((evidence) => requestedEvidence(language, evidence))}</ul>` : ''}
</section>`;
}

/**
 * A persona of the quick test, a radio button; `suggestedBy` names the client when it suggested
 * this persona (login_hint).
 */
function personaOption(persona: Persona, checked: boolean, context: EmulatorContext, language: PageLanguage, suggestedBy?: string): SafeHtml {
  const { locale } = language;
  const portrait = `${context.issuer}${ENDPOINT_PATHS.portraits}/${persona.id}.jpg`;
  const words = EMULATOR_MESSAGES[locale].personaTags;
  const tags: SafeHtml[] = [
    suggestedBy === undefined ? undefined : html`<span class="tag suggested" data-testid="suggested-persona">${words.suggestedBy(suggestedBy)}</span>`,
    persona.faceCheck === 'fail' ? html`<span class="tag warn">${words.faceCheckFails}</span>` : undefined,
    documentExpired(persona, context.now()) ? html`<span class="tag warn">${words.documentExpired}</span>` : undefined,
    persona.populationRegister ? html`<span class="tag">${words.inPopulationRegister}</span>` : undefined,
  ].filter((tag) => tag !== undefined);
  return html`
<label class="persona">
<input type="radio" name="persona" value="${persona.id}"${checked ? new SafeHtml(' checked') : ''}>
<img src="${portrait}" alt="" width="48" height="60">
<span><strong>${persona.label}</strong>
<span class="muted">${documentSummary(persona, locale)}</span>
<span class="muted">${personaDescription(persona, locale)}</span></span>
${tags.length > 0 ? html`<span class="tags">${tags}</span>` : ''}
</label>`;
}

/**
 * The status line's words in the page's language, for the page's script: it builds its messages
 * from these rather than from the status endpoint's, which are protocol text (English).
 */
function statusTexts(t: AuthorizationMessages, language: PageLanguage): SafeHtml {
  const titles = APP_MESSAGES[language.locale].steps;
  return html` data-text-waiting="${t.status.waiting}" data-text-confirming="${t.status.confirming}" data-text-locked="${t.status.locked}" data-text-decided="${t.status.continuing}" data-text-failed="${t.status.failed}" data-text-unknown-reason="${t.status.unknownReason}" data-text-completed="${t.status.completed}" data-text-gone="${t.status.gone}"${APP_STEPS.map(
    (step, index) => html` data-text-step-${index + 1}="${t.status.inProgress(index + 1, APP_STEPS.length, titles[step.id])}"`,
  )}`;
}

/** The status line as the page first shows it (the script keeps it current). */
function statusLine(t: AuthorizationMessages, language: PageLanguage, status: DeviceStatus): string {
  const titles = APP_MESSAGES[language.locale].steps;
  switch (status.status) {
    case 'decided':
      return t.status.decided;
    case 'in_progress':
      return status.step === undefined ? t.status.waiting : t.status.inProgress(status.step, status.steps, titles[APP_STEPS[status.step - 1]!.id]);
    default:
      return t.status[status.status];
  }
}

/**
 * The form that confirms a phone: the code it shows, typed here, posted with the browser secret
 * to the app (endpoints/identity-app.ts, `action=confirm-phone`). A refused code is said next to the
 * field, which is marked invalid and focused.
 */
function confirmPhoneForm(context: EmulatorContext, t: AuthorizationMessages, interactionId: string, secret: string, codeError: string | undefined): SafeHtml {
  // The app's own address on the issuer, without the browser secret in the URL: it is in the body.
  const action = `${endpointUrl(context, 'app')}/${encodeURIComponent(interactionId)}`;
  const describedBy = codeError ? 'phone-code-hint phone-code-error' : 'phone-code-hint';
  return html`<form class="confirm-phone" method="post" action="${action}" data-testid="confirm-phone-form">
<input type="hidden" name="browser" value="${secret}">
<input type="hidden" name="action" value="confirm-phone">
<label for="phone-code">${t.codeLabel}</label>
<p id="phone-code-hint" class="hint">${t.codeHint}</p>
${codeError ? html`<p id="phone-code-error" class="field-error" role="alert" data-testid="phone-code-error">${codeError}</p>` : ''}
<div class="code-row">
<input id="phone-code" name="code" type="text" required maxlength="16" autocomplete="off" autocapitalize="characters" spellcheck="false" aria-describedby="${describedBy}"${
    codeError ? new SafeHtml(' aria-invalid="true" autofocus') : ''
  } data-testid="phone-code-input">
<button class="button primary" type="submit" data-testid="confirm-phone">${t.confirmPhone}</button>
</div>
</form>`;
}

/**
 * The QR code's link, which the page prints only on request: a shared screen (a presenter's, a
 * recording) then shows the QR code alone. Works without JavaScript: "Show the link" is the page
 * again with `link=shown` (GET /auth/page).
 */
function deviceLink(context: EmulatorContext, t: AuthorizationMessages, interactionId: string, secret: string, phoneUrl: string, shown: boolean): SafeHtml {
  const phoneOrigin = new URL(context.deviceBaseUrl).origin;
  const reach = html`${t.phoneReach(html`<code>${phoneOrigin}</code>`)}`;
  if (!shown) {
    return html`<div class="device-url">
<a href="${authorizationPageLink(context, interactionId, secret, { showLink: true })}" data-testid="show-device-link">${t.showLink}</a>
<p>${t.linkHidden} ${reach}</p>
</div>`;
  }
  return html`<div class="device-url">
<p>${t.phoneLink} <code data-testid="device-url">${phoneUrl}</code></p>
<p>${reach}</p>
<a href="${authorizationPageLink(context, interactionId, secret)}" data-testid="hide-device-link">${t.hideLink}</a>
</div>`;
}

/**
 * The authorization page: who asks for what, a QR code that opens the identity app on a phone
 * (at `deviceBaseUrl`) with the form that confirms that phone, a link that opens it on this
 * device, the waiting state with its continuation, and the quick test form (`interaction`,
 * `browser`, `persona`, `outcome`, posted to the authorization endpoint). The browser secret is
 * in this page only: in the same-device link, the status and continue links, the confirmation and
 * quick test forms and the language switch's way back (GET /auth/page), never in the QR code.
 * Once a phone is confirmed the QR code is gone; once the hand-off is locked (too many wrong
 * codes) the page says so instead. The code a phone shows is never on this page.
 * @param options.message a problem to show (with `status`, 400 unless given)
 * @param options.codeError a refused confirmation code, said at its field (with `status`)
 * @param options.showLink print the QR code's link as text (GET /auth/page?…&link=shown)
 * @see spec part 1 (steps 4–5), 4.2
 */
export async function interactionPage(
  context: EmulatorContext,
  language: PageLanguage,
  options: {
    client: RegisteredClient;
    interactionId: string;
    interaction: Interaction;
    selectedPersonaId?: string;
    message?: (t: AuthorizationMessages) => string;
    codeError?: (t: AuthorizationMessages) => string;
    showLink?: boolean;
    status?: number;
    /** the answer QA chose for this flow, when this browser may choose one; absent: no chooser */
    qa?: FlowAnswer;
  },
): Promise<Response> {
  const { client, interactionId, interaction } = options;
  const t = AUTHORIZATION_MESSAGES[language.locale];
  const message = options.message?.(t);
  const codeError = options.codeError?.(t);
  const secret = interaction.browserSecret;
  const clientName = clientDisplayName(client);
  // The persona chosen in a refused post, else the one the client suggested (login_hint), else the first.
  const suggested = suggestedPersonaId(interaction.request.loginHint);
  const selected = personas.some((persona) => persona.id === options.selectedPersonaId) ? options.selectedPersonaId : (suggested ?? personas[0]?.id);
  const returnTo = new URL(interaction.request.redirectUri).host;
  const phoneUrl = qrCodeLink(context, interactionId);
  const status = deviceStatus(interaction, context.now());
  const showLink = options.showLink === true;
  // The switch comes back to this page by GET /auth/page: GET /auth's request_uri is used up.
  const switchTo: PageLanguage = { ...language, returnTo: pathOf(authorizationPageLink(context, interactionId, secret, { showLink })) };

  const statusParagraph = html`<p class="status" role="status" data-device-status data-state="${status.status}" data-testid="device-status">${statusLine(t, language, status)}</p>`;
  const continueButton = html`<a class="button secondary" data-continue data-testid="continue-after-phone" href="${continueLink(context, interactionId, secret)}">${t.finishedOnPhone}</a>`;
  let byPhone: SafeHtml;
  if (status.status === 'in_progress' || status.status === 'decided') {
    // A phone is confirmed: the QR code has done its work, and no other phone may use it.
    byPhone = html`<div class="by-phone confirmed">
<div>
<p class="confirmed-note" data-testid="phone-confirmed">${t.phoneConfirmed}</p>
${statusParagraph}
${continueButton}
${progressLine(language.locale, clientName)}
</div>
</div>`;
  } else if (status.status === 'locked') {
    byPhone = html`<div class="by-phone locked">
<div>
<p class="alert" role="alert" data-testid="hand-off-locked">${t.handOffLockedFor(clientName)}</p>
${statusParagraph}
</div>
</div>`;
  } else {
    const qr = await qrCodeSvg(phoneUrl, t.qrLabel);
    byPhone = html`<div class="by-phone">
<figure class="qr">${qr}<figcaption>${t.qrCaption}</figcaption></figure>
<div>
<ol class="how">
${t.how.map((line) => html`<li>${line}</li>`)}
</ol>
${confirmPhoneForm(context, t, interactionId, secret, codeError)}
${statusParagraph}
${continueButton}
${progressLine(language.locale, clientName)}
</div>
</div>
${deviceLink(context, t, interactionId, secret, phoneUrl, showLink)}`;
  }

  const body = html`
<p class="eyebrow" data-returns-to-client>${t.eyebrow}</p>
<div class="client-heading">${clientLogo(client, 56)}<h1>${t.heading(clientName)}</h1></div>
<p class="muted">${t.clientLine(html`<code>${client.clientId}</code>`, returnTo)}</p>
${message ? html`<p class="alert" role="alert">${message}</p>` : ''}
<div class="grid">
<section class="card handoff" aria-labelledby="handoff-heading" data-status-url="${statusLink(context, interactionId, secret)}"${statusTexts(t, language)}>
<h2 id="handoff-heading">${t.handoffHeading}</h2>
${byPhone}
<div class="divider" aria-hidden="true">${t.or}</div>
<div class="here">
<p class="muted">${t.noPhone}</p>
<a class="button primary" data-testid="use-app-on-this-device" href="${appLink(context, interactionId, { sameDevice: true, browserSecret: secret })}">${t.useHere}</a>
</div>
</section>
${requestedCard(language, interaction)}
</div>
<section class="card quick" aria-labelledby="quick-heading">
<h2 id="quick-heading">${t.quickHeading}</h2>
<p class="muted">${t.quickLead}</p>
<form method="post" action="${endpointUrl(context, 'authorization')}">
<input type="hidden" name="interaction" value="${interactionId}">
<input type="hidden" name="browser" value="${secret}">
<fieldset>
<legend>${t.quickLegend}</legend>
<div class="personas">
${personas.map((persona) => personaOption(persona, persona.id === selected, context, language, persona.id === suggested ? clientName : undefined))}
</div>
</fieldset>
<div class="actions">
<button class="approve" type="submit" name="outcome" value="approve">${t.approve}</button>
<button class="cancel" type="submit" name="outcome" value="cancel">${t.cancel}</button>
</div>
${progressLine(language.locale, clientName)}
</form>
</section>
${
  options.qa
    ? html`<section class="qa" aria-label="QA">${flowAnswerChooser(language.locale, {
        action: `${endpointUrl(context, 'app')}/${encodeURIComponent(interactionId)}`,
        fields: { browser: secret, from: 'page' },
        current: options.qa,
      })}</section>`
    : ''
}`;
  return desktopPage(context, switchTo, {
    status: options.status ?? (message || codeError ? 400 : 200),
    title: t.title(clientName),
    body,
    scripts: {
      script: endpointUrl(context, 'authorizationPageScript'),
      connect: endpointUrl(context, 'authorizationStatus'),
    },
    // The quick test posts to the issuer (the page may be on the flow URL), and is answered by
    // the redirect to the client.
    forms: [new URL(context.issuer).origin, new URL(interaction.request.redirectUri).origin],
    images: logoImageSources(client),
  });
}

/**
 * The error page for errors that must not be redirected (unknown client, bad request_uri,
 * expired interaction, a wrong browser secret): the OAuth error code, visible and marked for
 * tests, and what to do. The code and its description are protocol text and stay as they are;
 * in another language than English the page explains the situation in it and shows the
 * description apart.
 * @see RFC 6749 §4.1.2.1; RFC 9126 §4
 */
export function errorPage(context: EmulatorContext, language: PageLanguage, error: PageError & { usedFlow?: UsedFlow }): Response {
  const t = AUTHORIZATION_MESSAGES[language.locale];
  const shared = EMULATOR_MESSAGES[language.locale];
  const client = error.usedFlow ? context.clients.get(error.usedFlow.clientId) : undefined;
  if (error.usedFlow && client) return usedFlowPage(context, language, error, error.usedFlow, client.name ?? client.clientId);
  const body = html`
<section class="card error-card">
<p class="eyebrow">${t.eyebrow}</p>
<h1>${t.errorHeading}</h1>
<p>${t.errorCode} <code data-testid="error-code">${error.error}</code></p>
<p role="alert">${shared.errorExplanation(error)}</p>
${shared.technicalDescription ? html`<p class="muted">${shared.technicalDescription} <span lang="en" data-testid="error-description">${error.description}</span></p>` : ''}
<p class="muted">${t.errorAdvice}</p>
</section>`;
  return desktopPage(context, language, { status: error.status, title: t.errorTitle, body });
}

/**
 * The page for a request that was used up, reached again (the browser's Back button after the
 * relying party showed its result): what happened, and a link back to the relying party's site;
 * the protocol's code stays on the page, as on every error page.
 */
function usedFlowPage(context: EmulatorContext, language: PageLanguage, error: PageError, flow: UsedFlow, clientName: string): Response {
  const t = AUTHORIZATION_MESSAGES[language.locale];
  const shared = EMULATOR_MESSAGES[language.locale];
  const body = html`
<section class="card error-card used-flow" data-testid="used-flow">
<p class="eyebrow">${t.eyebrow}</p>
<h1>${t.usedHeading}</h1>
<p>${t.usedLead(clientName)}</p>
<a class="button primary" href="${relyingPartyHome(flow)}" data-testid="back-to-client">${t.backToClient(clientName)}</a>
<p class="muted">${t.errorCode} <code data-testid="error-code">${error.error}</code>${
    shared.technicalDescription ? '' : html` <span data-testid="error-description">${error.description}</span>`
  }</p>
${shared.technicalDescription ? html`<p class="muted">${shared.technicalDescription} <span lang="en" data-testid="error-description">${error.description}</span></p>` : ''}
</section>`;
  return desktopPage(context, language, { status: error.status, title: t.usedHeading, body });
}

/**
 * Turns an error into the error page, in the language of the request (and of the interaction,
 * once the handler has found it and put its `ui_locales` into the hints); the router handles
 * anything that is not an OAuthError (and 5xx errors, which are not the user's to fix).
 */
export async function withErrorPage(request: Request, context: EmulatorContext, handler: (hints: LanguageHints) => Promise<Response>): Promise<Response> {
  const hints: LanguageHints = {};
  try {
    return await handler(hints);
  } catch (error) {
    if (error instanceof OAuthError && !error.redirectable && error.status < 500) {
      const page = errorPage(context, pageLanguage(request, context, hints), error);
      // What the error says beside its status (Retry-After, Allow) holds for its page too.
      for (const [name, value] of Object.entries(error.headers)) page.headers.set(name, value);
      return page;
    }
    throw error;
  }
}
