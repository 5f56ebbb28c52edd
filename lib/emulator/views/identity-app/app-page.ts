/**
 * The screens of the simulated mobile identity app ("ID Check"): a phone-sized, server-rendered UI
 * with an app bar, "Step n of 5" progress and large touch targets. Buttons are form posts to
 * {base}/app/<id> (endpoints/identity-app.ts); nothing needs JavaScript. On a wide screen the app
 * is drawn inside a phone frame. Every interpolated value is escaped by `html`; the words are in
 * the page's language (app-messages.ts, views/language.ts).
 * @see spec part 1 (the mobile identity app), 2.3 (what it reads from the document)
 */
import { formatDate } from '../../../i18n/format';
import type { ClaimName, DocumentDetail, EvidenceRequest } from '../../checks/claims-request';
import type { RegisteredClient } from '../../clients';
import { ENDPOINT_PATHS } from '../../config';
import type { EmulatorContext } from '../../context';
import { appLink, continueLink, type AppMode } from '../../identity-app/links';
import { APP_STEPS, stepNumber, type AppStepId } from '../../identity-app/steps';
import { personaMachineReadableZone } from '../../personas/mrz';
import { findPersona, personalNumberText, personas, populationRegisterMatch, type Persona } from '../../personas/personas';
import type { Interaction } from '../../state';
import { APP_MESSAGES, type AppMessages } from '../app-messages';
import { stylesheet } from '../assets';
import { SafeHtml, html } from '../html';
import { capitalize, countryName, documentExpired, documentName } from '../labels';
import { languageSwitch, pathOf, type PageLanguage } from '../language';
import { EMULATOR_MESSAGES, type EmulatorMessages } from '../messages';
import { pageResponse } from '../page-shell';

const MARK = new SafeHtml(
  '<span class="mark" aria-hidden="true"><svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="#fff" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"><path d="M12 2.5 4.5 5.5v6c0 4.6 3.2 8.6 7.5 10 4.3-1.4 7.5-5.4 7.5-10v-6z"/><path d="m8.5 12 2.5 2.5 4.5-5"/></svg></span>',
);
const BACK_ICON = new SafeHtml(
  '<svg width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="m15 5-7 7 7 7"/></svg>',
);
const CLOSE_ICON = new SafeHtml(
  '<svg width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round" aria-hidden="true"><path d="M6 6l12 12M18 6 6 18"/></svg>',
);
const CHEVRON = new SafeHtml(
  '<svg class="chevron" width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="m9 5 7 7-7 7"/></svg>',
);
const CHECK = (color: string, size = 18) =>
  new SafeHtml(
    `<svg width="${size}" height="${size}" viewBox="0 0 24 24" fill="none" stroke="${color}" stroke-width="3" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="m5 12.5 4.5 4.5L19 7.5"/></svg>`,
  );
const CROSS = (color: string, size = 18) =>
  new SafeHtml(
    `<svg width="${size}" height="${size}" viewBox="0 0 24 24" fill="none" stroke="${color}" stroke-width="3" stroke-linecap="round" aria-hidden="true"><path d="M6.5 6.5l11 11M17.5 6.5l-11 11"/></svg>`,
  );

/** Neither passed nor failed: a check that cannot be made for this document. */
const NEUTRAL = new SafeHtml(
  '<svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="#4a5565" stroke-width="3" stroke-linecap="round" aria-hidden="true"><path d="M6.5 12h11"/></svg>',
);

/** A phone held against a document: the chip illustration, drawn inline. */
const NFC_ILLUSTRATION = new SafeHtml(`<svg viewBox="0 0 240 170" aria-hidden="true">
<rect x="18" y="88" width="204" height="72" rx="10" fill="#eef3fd" stroke="#1849a9" stroke-width="2"/>
<rect x="36" y="106" width="36" height="28" rx="5" fill="#f2c14e" stroke="#8a5a00" stroke-width="1.5"/>
<path d="M36 120h36M54 106v28M46 106v8M62 126v8" stroke="#8a5a00" stroke-width="1.2" fill="none"/>
<rect x="86" y="110" width="90" height="6" rx="3" fill="#b9c6e4"/><rect x="86" y="124" width="64" height="6" rx="3" fill="#b9c6e4"/>
<g transform="rotate(-12 150 60)"><rect x="116" y="8" width="70" height="118" rx="13" fill="#fff" stroke="#17202c" stroke-width="3"/><rect x="124" y="22" width="54" height="88" rx="4" fill="#eef3fd"/><path d="m139 66 8 8 16-17" stroke="#1849a9" stroke-width="4" fill="none" stroke-linecap="round" stroke-linejoin="round"/></g>
<path class="wave" d="M92 70a22 22 0 0 1 0 30" stroke="#1849a9" stroke-width="3.5" fill="none" stroke-linecap="round"/>
<path class="wave w2" d="M80 60a36 36 0 0 1 0 50" stroke="#1849a9" stroke-width="3.5" fill="none" stroke-linecap="round"/>
<path class="wave w3" d="M68 50a50 50 0 0 1 0 70" stroke="#1849a9" stroke-width="3.5" fill="none" stroke-linecap="round"/>
</svg>`);

interface ScreenOptions {
  interactionId: string;
  interaction: Interaction;
  client: RegisteredClient;
  mode: AppMode;
  /** the page's language; its switch comes back to the screen shown (appPage sets the way back) */
  language: PageLanguage;
}

/** The words of the app and the shared ones, in the screen's language. */
function words(options: { language: PageLanguage }): { t: AppMessages; shared: EmulatorMessages } {
  return { t: APP_MESSAGES[options.language.locale], shared: EMULATOR_MESSAGES[options.language.locale] };
}

/** Where links and images of the app point: the base URL this device reached the app by. */
function baseUrl(context: EmulatorContext, mode: AppMode): string {
  return mode.sameDevice ? context.issuer : context.deviceBaseUrl;
}

function portraitUrl(context: EmulatorContext, mode: AppMode, persona: Persona): string {
  return `${baseUrl(context, mode)}${ENDPOINT_PATHS.portraits}/${persona.id}.jpg`;
}

/** A form posting to the app, carrying the browser secret only on this device. */
function appForm(context: EmulatorContext, options: ScreenOptions, content: SafeHtml): SafeHtml {
  const action = `${baseUrl(context, options.mode)}${ENDPOINT_PATHS.app}/${encodeURIComponent(options.interactionId)}`;
  const secret = options.mode.sameDevice
    ? html`<input type="hidden" name="browser" value="${options.mode.browserSecret}">`
    : options.mode.deviceSecret
      ? html`<input type="hidden" name="device" value="${options.mode.deviceSecret}">`
      : '';
  return html`<form method="post" action="${action}">${secret}${content}</form>`;
}

function clientName(client: RegisteredClient): string {
  return client.name ?? client.clientId;
}

/**
 * The origins the app's forms may post to (CSP `form-action`): the app's own base URL, and on
 * this device the client's, since Share and Cancel are answered there by the redirect to it.
 */
function appFormOrigins(context: EmulatorContext, options: ScreenOptions): string[] {
  const origins = [new URL(baseUrl(context, options.mode)).origin];
  if (options.mode.sameDevice) origins.push(new URL(options.interaction.request.redirectUri).origin);
  return origins;
}

/** The app's page around a screen: app bar (back, name, cancel), progress, content, the language switch below. */
function appPage(
  context: EmulatorContext,
  options: ScreenOptions & { status: number; title: string; step?: AppStepId; content: SafeHtml; cancellable: boolean },
): Response {
  const { step } = options;
  const { t } = words(options);
  const number = step ? stepNumber(step) : 0;
  const previous = number > 1 ? APP_STEPS[number - 2]!.id : undefined;
  const back = previous
    ? html`<a class="icon" href="${appLink(context, options.interactionId, options.mode, previous)}" aria-label="${t.backTo(t.steps[previous])}">${BACK_ICON}</a>`
    : html`<span></span>`;
  const cancel = options.cancellable
    ? appForm(
        context,
        options,
        html`<button class="icon" type="submit" name="outcome" value="cancel" aria-label="${t.cancelVerification}" data-testid="cancel-verification">${CLOSE_ICON}</button>`,
      )
    : html`<span></span>`;
  const progress = step
    ? html`<div class="progress">
<p class="progress-label" data-testid="app-step">${t.stepOf(number, APP_STEPS.length)}</p>
<ol class="progress-bar" aria-hidden="true">${APP_STEPS.map(
        (_, index) => html`<li class="${index < number ? 'done' : ''}"></li>`,
      )}</ol>
</div>`
    : '';
  // The switch comes back to this screen by GET (a screen shown after a refused post too).
  const language = { ...options.language, returnTo: pathOf(appLink(context, options.interactionId, options.mode, step)) };
  const body = html`
<div class="device">
<header class="appbar">${back}<p class="app-name">${MARK}${t.appName}</p>${cancel}</header>
<main class="screen">${progress}${options.content}</main>
${languageSwitch(language)}
</div>
<footer class="below">${t.footer(clientName(options.client))}</footer>`;
  const origins = [new URL(context.issuer).origin, new URL(context.deviceBaseUrl).origin];
  return pageResponse({
    status: options.status,
    locale: language.locale,
    title: t.pageTitle(options.title),
    styles: stylesheet('app'),
    body,
    layout: 'phone',
    sources: { images: origins, forms: appFormOrigins(context, options) },
  });
}

function alert(message: string | undefined): SafeHtml | string {
  return message ? html`<p class="alert" role="alert">${message}</p>` : '';
}

function chosenPersona(interaction: Interaction): Persona {
  const persona = interaction.app.personaId === undefined ? undefined : findPersona(interaction.app.personaId);
  // Unreachable: endpoints/identity-app.ts shows a step after "document" only once a persona is chosen.
  if (!persona) throw new Error('a step after choosing the document was shown without a persona');
  return persona;
}

/**
 * One step of the app, as allowed by endpoints/identity-app.ts (which checked the step is reachable).
 * @param options.message a problem to show (with `status`)
 */
export function appScreenPage(
  context: EmulatorContext,
  options: ScreenOptions & { step: AppStepId; message?: (t: AppMessages) => string; status?: number },
): Response {
  const { t } = words(options);
  const content = SCREENS[options.step](context, { ...options, message: options.message?.(t) });
  return appPage(context, {
    ...options,
    status: options.status ?? 200,
    title: t.steps[options.step],
    content,
    cancellable: true,
  });
}

type Screen = (context: EmulatorContext, options: ScreenOptions & { message?: string }) => SafeHtml;

const SCREENS: Record<AppStepId, Screen> = {
  document: documentScreen,
  scan: scanScreen,
  chip: chipScreen,
  face: faceScreen,
  consent: consentScreen,
};

/** Step 1: whose document to verify (the test personas). */
function documentScreen(context: EmulatorContext, options: ScreenOptions & { message?: string }): SafeHtml {
  const current = options.interaction.app.personaId;
  const { t, shared } = words(options);
  const { locale } = options.language;
  const choices = personas.map((persona) => {
    const tags = [
      persona.faceCheck === 'fail' ? html`<span class="tag warn">${shared.personaTags.faceCheckFails}</span>` : '',
      documentExpired(persona, context.now()) ? html`<span class="tag warn">${shared.personaTags.documentExpired}</span>` : '',
    ];
    return html`<li><button class="choice" type="submit" name="persona" value="${persona.id}" data-testid="persona-${persona.id}"${
      persona.id === current ? new SafeHtml(' aria-current="true"') : ''
    }>
<img src="${portraitUrl(context, options.mode, persona)}" alt="" width="48" height="60">
<span class="text"><strong>${persona.label}</strong><span class="sub">${capitalize(documentName(persona, locale))}</span>${
      tags.some((tag) => tag !== '') ? html`<span class="tags">${tags}</span>` : ''
    }</span>${CHEVRON}</button></li>`;
  });
  return html`
<h1>${t.steps.document}</h1>
<p class="lead">${t.chooseLead(clientName(options.client))}</p>
${alert(options.message)}
${appForm(context, options, html`<input type="hidden" name="action" value="choose-document"><ul class="choices">${choices}</ul>`)}`;
}

/** The data page of a persona's document, drawn: printed fields, photo and MRZ. */
function drawnDocument(context: EmulatorContext, options: ScreenOptions, persona: Persona): SafeHtml {
  const { mode } = options;
  const { t } = words(options);
  const printed = t.printed;
  const { claims, document } = persona;
  // As a document prints it (ICAO 9303): DD.MM.YYYY, and codes for nationality and sex.
  const date = (iso: string) => `${iso.slice(8, 10)}.${iso.slice(5, 7)}.${iso.slice(0, 4)}`;
  const personalNumber = personalNumberText(persona);
  const fields: Array<[string, string, boolean?]> = [
    [printed.surname, claims.family_name.toUpperCase(), true],
    [printed.givenNames, claims.given_name.toUpperCase(), true],
    [printed.nationality, claims.nationalities.join(' / ')],
    [printed.sex, claims.gender === 'male' ? 'M' : claims.gender === 'female' ? 'F' : 'X'],
    [printed.dateOfBirth, date(claims.birthdate)],
    [printed.documentNumber, document.document_number],
    [printed.dateOfIssue, document.date_of_issuance ? date(document.date_of_issuance) : '—'],
    [printed.dateOfExpiry, date(document.date_of_expiry)],
    [printed.authority, document.issuer.name, !personalNumber],
  ];
  if (personalNumber) fields.push([printed.personalNumber, personalNumber]);
  return html`<div class="doc-frame"><figure class="doc ${document.type}">
<figcaption class="doc-head"><span>${countryName(document.issuer.country_code, options.language.locale)}</span><span>${printed[document.type]}</span></figcaption>
<div class="doc-body">
<img class="doc-photo" src="${portraitUrl(context, mode, persona)}" alt="${t.documentPhoto(persona.label)}">
<dl class="doc-fields">${fields.map(
    ([label, value, wide]) => html`<div${wide ? new SafeHtml(' class="wide"') : ''}><dt>${label}</dt><dd>${value}</dd></div>`,
  )}</dl>
</div>
<div class="doc-mrz" aria-hidden="true">${personaMachineReadableZone(persona).map((line) => html`<span>${line}</span>`)}</div>
</figure></div>`;
}

/** Step 2: the camera sees the document; "Scan document". */
function scanScreen(context: EmulatorContext, options: ScreenOptions & { message?: string }): SafeHtml {
  const persona = chosenPersona(options.interaction);
  const { t } = words(options);
  return html`
<h1>${t.steps.scan}</h1>
<p class="lead">${t.scanLead(persona.document.type === 'passport')}</p>
${alert(options.message)}
<div class="viewfinder">
<span class="corner tl"></span><span class="corner tr"></span><span class="corner bl"></span><span class="corner br"></span>
<span class="scanline" aria-hidden="true"></span>
${drawnDocument(context, options, persona)}
<p class="viewfinder-hint">${t.cameraView}</p>
</div>
<div class="actions">${appForm(
    context,
    options,
    html`<button class="btn primary" type="submit" name="action" value="scan-document" data-testid="scan-document">${t.scanDocument}</button>`,
  )}</div>`;
}

/** A row of a result list: a check mark, a cross, or a dash for a check that cannot be made. */
function checkRow(result: 'passed' | 'failed' | 'not available', text: SafeHtml | string): SafeHtml {
  const icon = result === 'passed' ? CHECK('#146c43') : result === 'failed' ? CROSS('#a4161a') : NEUTRAL;
  return html`<li>${icon}<span>${text}</span></li>`;
}

/** Step 3: read the chip over NFC; then the result of active authentication. */
function chipScreen(context: EmulatorContext, options: ScreenOptions & { message?: string }): SafeHtml {
  const persona = chosenPersona(options.interaction);
  const { t, shared } = words(options);
  const { document } = persona;
  const passport = document.type === 'passport';
  if (!options.interaction.app.chipRead) {
    return html`
<p class="toast" role="status">${CHECK('#146c43')}${t.scanned(documentName(persona, options.language.locale))}</p>
<h1>${t.steps.chip}</h1>
<p class="lead">${t.chipLead(passport)}</p>
${alert(options.message)}
<div class="stage">${NFC_ILLUSTRATION}</div>
<div class="actions">${appForm(
      context,
      options,
      html`<button class="btn primary" type="submit" name="action" value="read-chip" data-testid="read-chip">${t.readChip}</button>`,
    )}</div>`;
  }
  const activeAuthentication = document.active_authentication_result;
  const issuerCheck = document.issuer_check?.valid;
  return html`
<h1>${t.chipRead}</h1>
<p class="lead">${t.chipReadLead(passport)}</p>
${alert(options.message)}
<ul class="checks" data-testid="chip-result">
${checkRow('passed', t.chipMatches)}
${checkRow(
  activeAuthentication === undefined ? 'not available' : activeAuthentication === 'passed' ? 'passed' : 'failed',
  t.activeAuthentication(
    html`<span class="value" data-testid="active-authentication">${activeAuthentication === undefined ? t.notPerformed : t.activeAuthenticationResult[activeAuthentication]}</span>`,
  ),
)}
${checkRow(
  // Only Norwegian documents can be checked with their issuer (2.3): UNKNOWN is not a failure.
  issuerCheck === 'VALID' ? 'passed' : issuerCheck === undefined || issuerCheck === 'UNKNOWN' ? 'not available' : 'failed',
  html`${t.issuerCheck(html`<span class="value">${issuerCheck === undefined ? shared.notAvailable : shared.issuerCheckValue(issuerCheck)}</span>`)}${
    issuerCheck === 'VALID' ? '' : html`<span class="fine">${t.onlyNorwegian}</span>`
  }`,
)}
</ul>
<div class="actions"><a class="btn primary" href="${appLink(context, options.interactionId, options.mode, 'face')}" data-testid="continue">${t.continue}</a></div>`;
}

/** Step 4: the face check, against the document portrait; a failure ends the app here. */
function faceScreen(context: EmulatorContext, options: ScreenOptions & { message?: string }): SafeHtml {
  const persona = chosenPersona(options.interaction);
  const { t } = words(options);
  const portrait = portraitUrl(context, options.mode, persona);
  const cameraView = t.cameraViewOf(persona.label);
  if (!options.interaction.app.faceChecked) {
    return html`
<h1>${t.steps.face}</h1>
<p class="lead">${t.faceLead}</p>
${alert(options.message)}
<div class="oval-wrap"><div class="oval"><img src="${portrait}" alt="${cameraView}"></div></div>
<div class="actions">${appForm(
      context,
      options,
      html`<button class="btn primary" type="submit" name="action" value="check-face" data-testid="check-face">${t.startFaceCheck}</button>`,
    )}</div>`;
  }
  if (persona.faceCheck === 'fail') {
    return html`
<h1>${t.faceFailed}</h1>
<div class="oval-wrap"><div class="oval fail"><img src="${portrait}" alt="${cameraView}"><span class="badge fail">${CROSS('#fff', 22)}</span></div></div>
<p class="alert" role="alert" data-testid="face-check-failed">${t.faceMismatch}</p>
${alert(options.message)}
<p class="lead">${t.nothingShared(clientName(options.client))}</p>
<div class="actions">${appForm(
      context,
      options,
      // "approve" runs the shared decision logic, which turns a failed face check into
      // access_denied with the reason, exactly as the quick test does.
      html`<input type="hidden" name="persona" value="${persona.id}"><button class="btn primary" type="submit" name="outcome" value="approve" data-testid="end-verification">${t.endVerification}</button>`,
    )}</div>`;
  }
  return html`
<h1>${t.facePassed}</h1>
<div class="oval-wrap"><div class="oval pass"><img src="${portrait}" alt="${cameraView}"><span class="badge pass">${CHECK('#fff', 22)}</span></div></div>
${alert(options.message)}
<ul class="checks" data-testid="face-result">${checkRow('passed', t.faceMatches)}</ul>
<div class="actions"><a class="btn primary" href="${appLink(context, options.interactionId, options.mode, 'consent')}" data-testid="continue">${t.continue}</a></div>`;
}

/** A requested claim's value for the consent list; undefined when the persona has none. */
function claimValue(context: EmulatorContext, options: ScreenOptions, persona: Persona, name: ClaimName): SafeHtml | string | undefined {
  const { claims } = persona;
  const { t, shared } = words(options);
  const { locale } = options.language;
  switch (name) {
    case 'picture':
      return html`<img src="${portraitUrl(context, options.mode, persona)}" alt="${t.portraitOf(persona.label)}">`;
    case 'gender':
      return shared.gender[claims.gender];
    case 'birthdate':
      return formatDate(claims.birthdate, locale);
    case 'nationalities':
      return claims.nationalities.map((code) => countryName(code, locale)).join(', ');
    default:
      return claims[name];
  }
}

/** A requested document detail's value for the consent list; undefined when the document has none. */
function detailValue(context: EmulatorContext, options: ScreenOptions, persona: Persona, detail: DocumentDetail): string | undefined {
  const { document } = persona;
  const { t, shared } = words(options);
  const { locale } = options.language;
  switch (detail) {
    case 'type':
      return shared.documentTypeTitle[document.type];
    case 'date_of_issuance':
      return document.date_of_issuance === undefined ? undefined : formatDate(document.date_of_issuance, locale);
    case 'date_of_expiry':
      return `${formatDate(document.date_of_expiry, locale)}${documentExpired(persona, context.now()) ? t.expired : ''}`;
    case 'issuer.country_code':
      return `${countryName(document.issuer.country_code, locale)} (${document.issuer.country_code})`;
    case 'issuer.name':
      return document.issuer.name;
    case 'personal_number':
      return personalNumberText(persona);
    case 'issuer_check':
      return document.issuer_check === undefined ? undefined : shared.issuerCheckValue(document.issuer_check.valid);
    case 'active_authentication_result':
      return document.active_authentication_result === undefined ? undefined : t.activeAuthenticationResult[document.active_authentication_result];
    default:
      return document[detail];
  }
}

function shareRow(t: AppMessages, label: string, value: SafeHtml | string | undefined): SafeHtml {
  return html`<li><span class="label">${label}</span>${
    value === undefined ? html`<span class="value absent">${t.notAvailableLeftOut}</span>` : html`<span class="value">${value}</span>`
  }</li>`;
}

function evidenceRows(context: EmulatorContext, options: ScreenOptions, persona: Persona, evidence: EvidenceRequest): SafeHtml {
  const { t, shared } = words(options);
  if (evidence.type === 'document') {
    return html`${evidence.details.map((detail) => shareRow(t, shared.detailLabels[detail], detailValue(context, options, persona, detail)))}`;
  }
  const match = populationRegisterMatch(persona, evidence.personalNumber);
  return shareRow(t, t.populationRegister(evidence.sourceName), match ? t.matchFor(match) : undefined);
}

/** Step 5: exactly what the client will receive (data minimisation), then Share or Cancel. */
function consentScreen(context: EmulatorContext, options: ScreenOptions & { message?: string }): SafeHtml {
  const persona = chosenPersona(options.interaction);
  const { t, shared } = words(options);
  const { claims } = options.interaction.request;
  const name = clientName(options.client);
  const issuerCheck = persona.document.issuer_check?.valid;
  const etsiRefusal = claims.trustFramework === 'standard_etsi' && issuerCheck !== 'VALID';
  const evidenceDocument = claims.evidence.some((evidence) => evidence.type === 'document');
  return html`
<h1>${t.shareHeading(name)}</h1>
<p class="lead">${t.shareLead(name)}</p>
${alert(options.message)}
${
  claims.claims.length > 0
    ? html`<section aria-labelledby="share-identity"><h2 id="share-identity">${t.identity}</h2><ul class="share" data-testid="share-claims">${claims.claims.map(
        (claim) => shareRow(t, shared.claimLabels[claim.name], claimValue(context, options, persona, claim.name)),
      )}</ul></section>`
    : ''
}
${
  claims.evidence.length > 0
    ? html`<section aria-labelledby="share-evidence"><h2 id="share-evidence">${evidenceDocument ? t.document : t.evidence}</h2><ul class="share">${claims.evidence.map(
        (evidence) => evidenceRows(context, options, persona, evidence),
      )}</ul></section>`
    : ''
}
<p class="fine">${t.trustFramework(html`<code>${claims.trustFramework}</code>`)}</p>
${
  etsiRefusal
    ? html`<p class="alert" role="alert">${t.etsiRefusal(name, html`<code>standard_etsi</code>`, issuerCheck === undefined ? shared.notAvailable : shared.issuerCheckValue(issuerCheck))}</p>`
    : ''
}
<div class="actions">${appForm(
    context,
    options,
    html`<input type="hidden" name="persona" value="${persona.id}"><button class="btn primary" type="submit" name="outcome" value="approve" data-testid="share">${t.share}</button>`,
  )}${appForm(
    context,
    options,
    html`<button class="btn secondary" type="submit" name="outcome" value="cancel" data-testid="cancel">${t.cancel}</button>`,
  )}</div>`;
}

/**
 * After the app decided on another device: "Done — return to your computer". On the starting
 * browser itself (it has the secret), a link continues to the client instead.
 */
export function appDonePage(context: EmulatorContext, options: ScreenOptions): Response {
  const { t, shared } = words(options);
  const decision = options.interaction.decision;
  const approved = decision?.outcome === 'approved';
  const name = clientName(options.client);
  const next = options.mode.sameDevice
    ? html`<div class="actions"><a class="btn primary" href="${continueLink(context, options.interactionId, options.mode.browserSecret)}" data-testid="continue-to-client">${t.continueTo(name)}</a></div>`
    : '';
  const content = html`
<div class="result" data-testid="app-done">
<span class="circle ${approved ? 'ok' : 'stop'}">${approved ? CHECK('#146c43', 44) : CROSS('#a4161a', 40)}</span>
<h1>${options.mode.sameDevice ? t.done : t.doneElsewhere}</h1>
<p class="lead">${
    options.mode.sameDevice
      ? approved
        ? t.receivesWhenYouContinue(name)
        : t.learnsWhenYouContinue(name)
      : approved
        ? t.continueOnComputer(name)
        : t.nothingWasShared(name)
  }</p>
${decision?.outcome === 'denied' ? html`<p class="fine">${t.reason(shared.denialReason(decision.error))}</p>` : ''}
${options.mode.sameDevice ? '' : html`<p class="fine">${t.closeApp}</p>`}
</div>
${next}`;
  return appPage(context, { ...options, status: 200, title: t.done, content, cancellable: false });
}

/**
 * A phone that opened the QR link, before the computer confirms it: the code to type there
 * (identity-app/phone-confirmation.ts), and "Continue", which opens the app's first step once the
 * computer has confirmed this phone (and shows this screen again, saying so, until then). No step,
 * no cancel: this phone may not act on the verification yet.
 * @param options.code the code as it is shown ("BCD-FGH")
 * @param options.message why the screen is shown again (with `status`)
 */
export function appConfirmPage(
  context: EmulatorContext,
  options: ScreenOptions & { code: string; message?: (t: AppMessages) => string; status: number },
): Response {
  const { t } = words(options);
  const content = html`
<div class="confirm" data-testid="app-confirm">
<h1>${t.confirmHeading}</h1>
<p class="lead">${t.confirmLead}</p>
<p class="pairing-code"><span class="visually-hidden">${t.yourCode}: </span><strong data-testid="phone-code">${options.code}</strong></p>
<p class="fine">${t.confirmWhy} ${t.confirmThen}</p>
${alert(options.message?.(t))}
</div>
<div class="actions"><a class="btn primary" href="${appLink(context, options.interactionId, options.mode, 'document')}" data-testid="continue">${t.continue}</a></div>`;
  return appPage(context, { ...options, status: options.status, title: t.confirmTitle, content, cancellable: false });
}

/** A page of the app without an interaction to act on: the app bar, the content, the language switch. */
function standalonePage(context: EmulatorContext, language: PageLanguage, options: { status: number; title: string; content: SafeHtml }): Response {
  const t = APP_MESSAGES[language.locale];
  const body = html`
<div class="device">
<header class="appbar"><span></span><p class="app-name">${MARK}${t.appName}</p><span></span></header>
<main class="screen">${options.content}</main>
${languageSwitch(language)}
</div>`;
  const origins = [new URL(context.issuer).origin, new URL(context.deviceBaseUrl).origin];
  return pageResponse({
    status: options.status,
    locale: language.locale,
    title: t.pageTitle(options.title),
    styles: stylesheet('app'),
    body,
    layout: 'phone',
    sources: { images: origins },
  });
}

/** The app of an interaction that has been completed (e.g. a phone reloading afterwards). */
export function appFinishedPage(context: EmulatorContext, language: PageLanguage): Response {
  const t = APP_MESSAGES[language.locale];
  const content = html`
<div class="result" data-testid="app-finished">
<span class="circle ok">${CHECK('#146c43', 44)}</span>
<h1>${t.complete}</h1>
<p class="lead">${t.completeLead}</p>
</div>`;
  return standalonePage(context, language, { status: 200, title: t.completeTitle, content });
}

/**
 * A phone that may not use the app of this verification, never the app itself: the computer
 * confirmed another phone (`elsewhere`, 409), or too many wrong codes were typed there (`locked`,
 * 403). Nothing of the verification is shown.
 */
export function appHandOffRefusedPage(context: EmulatorContext, language: PageLanguage, status: number, reason: 'elsewhere' | 'locked'): Response {
  const t = APP_MESSAGES[language.locale];
  const [title, heading, lead] =
    reason === 'elsewhere' ? [t.elsewhereTitle, t.elsewhereHeading, t.elsewhereLead] : [t.lockedTitle, t.lockedHeading, t.lockedLead];
  const content = html`
<div class="result" data-testid="app-${reason}">
<span class="circle stop">${CROSS('#a4161a', 40)}</span>
<h1>${heading}</h1>
<p class="lead">${lead}</p>
<p class="fine">${t.closeApp}</p>
</div>`;
  return standalonePage(context, language, { status, title, content });
}
