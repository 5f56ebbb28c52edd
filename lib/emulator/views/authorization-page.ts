/**
 * The pages of the authorization endpoint: the "continue in the app" page (part 1, step 4: the
 * user is handed to the mobile identity app) and the error page shown when an error cannot go to
 * a redirect URI (RFC 6749 §4.1.2.1).
 *
 * The page offers, in order of how real users meet it: a QR code that opens the app on a phone,
 * a button that opens it on this device, and a secondary "quick test" form that decides in one
 * step. Everything works without JavaScript; one external script (interaction/hand-off.ts) only saves
 * the user a click when the phone finishes. Every interpolated value is escaped by `html`.
 * @see spec part 1, 4.2
 */
import type { EvidenceRequest } from '../checks/claims-request';
import type { RegisteredClient } from '../clients';
import { ENDPOINT_PATHS } from '../config';
import { endpointUrl, type EmulatorContext } from '../context';
import { OAuthError } from '../errors';
import { continueLink, appLink, qrCodeLink, statusLink } from '../interaction/links';
import { deviceStatus } from '../interaction/steps';
import { personas, type Persona } from '../personas/personas';
import type { Interaction } from '../state';
import { stylesheet } from './assets';
import { SafeHtml, html } from './html';
import { CLAIM_LABELS, DOCUMENT_DETAIL_LABELS, documentExpired, documentSummary } from './labels';
import { pageResponse } from './page-shell';
import { qrCodeSvg } from './qr';

/** The app's mark: a shield with a check, drawn inline (the pages load nothing but portraits). */
const MARK = new SafeHtml(
  '<span class="mark" aria-hidden="true"><svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="#fff" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"><path d="M12 2.5 4.5 5.5v6c0 4.6 3.2 8.6 7.5 10 4.3-1.4 7.5-5.4 7.5-10v-6z"/><path d="m8.5 12 2.5 2.5 4.5-5"/></svg></span>',
);

function desktopPage(context: EmulatorContext, options: { status: number; title: string; body: SafeHtml; scripts?: { script: string; connect: string } }): Response {
  const body = html`
<header class="topbar">${MARK}<span class="brand">ID Check</span><span class="env">Emulator</span></header>
<main>${options.body}</main>
<footer>IDV emulator: a simulation of the identity verification service and its mobile app. All people and documents are fictional.</footer>`;
  return pageResponse({
    status: options.status,
    title: options.title,
    styles: stylesheet('authorization-page'),
    body,
    layout: 'desk',
    sources: {
      images: [new URL(context.issuer).origin],
      scripts: options.scripts ? [options.scripts.script] : undefined,
      connect: options.scripts ? [options.scripts.connect] : undefined,
    },
  });
}

function requestedEvidence(evidence: EvidenceRequest): SafeHtml {
  if (evidence.type === 'document') {
    return html`<li>Identity document (passport or ID card)${
      evidence.details.length > 0 ? html`: ${evidence.details.map((detail) => DOCUMENT_DETAIL_LABELS[detail]).join(', ')}` : ''
    }</li>`;
  }
  return html`<li>Match in the population register (${evidence.sourceName})${
    evidence.personalNumber ? html`, looked up by national number <code>${evidence.personalNumber}</code>` : ''
  }</li>`;
}

/** Who asks for what: the part of the page that the app's consent step repeats in detail. */
function requestedCard(interaction: Interaction): SafeHtml {
  const { claims } = interaction.request;
  return html`
<section class="card requested" aria-labelledby="requested-heading">
<h2 id="requested-heading">Requested</h2>
<p>Trust framework <code>${claims.trustFramework}</code></p>
<h3>Identity</h3>
${
  claims.claims.length > 0
    ? html`<ul class="list">${claims.claims.map(
        (claim) => html`<li>${CLAIM_LABELS[claim.name]}${claim.essential ? html`<span class="tag">essential</span>` : ''}</li>`,
      )}</ul>`
    : html`<p class="muted">No identity claims.</p>`
}
${claims.evidence.length > 0 ? html`<h3>Evidence</h3><ul class="list">${claims.evidence.map(requestedEvidence)}</ul>` : ''}
</section>`;
}

function personaOption(persona: Persona, checked: boolean, context: EmulatorContext): SafeHtml {
  const portrait = `${context.issuer}${ENDPOINT_PATHS.portraits}/${persona.id}.jpg`;
  const tags = [
    persona.faceCheck === 'fail' ? { text: 'Face check fails', warn: true } : undefined,
    documentExpired(persona, context.now()) ? { text: 'Document expired', warn: true } : undefined,
    persona.populationRegister ? { text: 'In the population register', warn: false } : undefined,
  ].filter((tag) => tag !== undefined);
  return html`
<label class="persona">
<input type="radio" name="persona" value="${persona.id}"${checked ? new SafeHtml(' checked') : ''}>
<img src="${portrait}" alt="" width="48" height="60">
<span><strong>${persona.label}</strong>
<span class="muted">${documentSummary(persona)}</span>
<span class="muted">${persona.description}</span>
${tags.map((tag) => html`<span class="tag${tag.warn ? ' warn' : ''}">${tag.text}</span>`)}</span>
</label>`;
}

/**
 * The authorization page: who asks for what, a QR code that opens the identity app on a phone
 * (at `deviceBaseUrl`), a link that opens it on this device, the waiting state with its
 * continuation, and the quick test form (`interaction`, `browser`, `persona`, `outcome`, posted
 * to the authorization endpoint). The browser secret is in this page only: in the same-device
 * link, the status and continue links and the quick test form, never in the QR code.
 * @param options.message a problem to show (with `status`, 400 unless given)
 * @see spec part 1 (steps 4–5), 4.2
 */
export async function interactionPage(
  context: EmulatorContext,
  options: {
    client: RegisteredClient;
    interactionId: string;
    interaction: Interaction;
    selectedPersonaId?: string;
    message?: string;
    status?: number;
  },
): Promise<Response> {
  const { client, interactionId, interaction, message } = options;
  const secret = interaction.browserSecret;
  const clientName = client.name ?? client.clientId;
  const selected = personas.some((persona) => persona.id === options.selectedPersonaId)
    ? options.selectedPersonaId
    : personas[0]?.id;
  const returnTo = new URL(interaction.request.redirectUri).host;
  const phoneUrl = qrCodeLink(context, interactionId);
  const phoneOrigin = new URL(context.deviceBaseUrl).origin;
  const status = deviceStatus(interaction);
  const qr = await qrCodeSvg(phoneUrl, 'QR code that opens the ID Check app on your phone');

  const body = html`
<p class="eyebrow">Identity verification</p>
<h1>${clientName} wants to verify your identity</h1>
<p class="muted">Client <code>${client.clientId}</code>; you will return to ${returnTo}.</p>
${message ? html`<p class="alert" role="alert">${message}</p>` : ''}
<div class="grid">
<section class="card handoff" aria-labelledby="handoff-heading" data-status-url="${statusLink(context, interactionId, secret)}">
<h2 id="handoff-heading">Continue in the ID Check app</h2>
<div class="by-phone">
<figure class="qr">${qr}<figcaption>Scan with your phone’s camera</figcaption></figure>
<div>
<ol class="how">
<li>Scan the QR code with your phone’s camera.</li>
<li>In the app, scan your document, read its chip and check your face.</li>
<li>Come back here: this page continues by itself, or choose “I've finished on my phone”.</li>
</ol>
<p class="status" role="status" data-device-status data-state="${status.status}" data-testid="device-status">${
    status.status === 'decided' ? "Finished on your phone. Choose “I've finished on my phone” to continue." : status.message
  }</p>
<a class="button secondary" data-continue data-testid="continue-after-phone" href="${continueLink(context, interactionId, secret)}">I've finished on my phone</a>
</div>
</div>
<p class="device-url">Phone link: <code data-testid="device-url">${phoneUrl}</code><br>
Your phone must be on the same network as this computer and able to reach <code>${phoneOrigin}</code>.</p>
<div class="divider" aria-hidden="true">or</div>
<div class="here">
<p class="muted">On a phone already, or no phone at hand?</p>
<a class="button primary" data-testid="use-app-on-this-device" href="${appLink(context, interactionId, { sameDevice: true, browserSecret: secret })}">Use the app on this device</a>
</div>
</section>
${requestedCard(interaction)}
</div>
<section class="card quick" aria-labelledby="quick-heading">
<h2 id="quick-heading">Quick test without the app</h2>
<p class="muted">Decide in one step as a test persona, without the document, chip and face steps. Works without JavaScript.</p>
<form method="post" action="${endpointUrl(context, 'authorization')}">
<input type="hidden" name="interaction" value="${interactionId}">
<input type="hidden" name="browser" value="${secret}">
<fieldset>
<legend>Choose a test persona to scan a document and face as</legend>
<div class="personas">
${personas.map((persona) => personaOption(persona, persona.id === selected, context))}
</div>
</fieldset>
<div class="actions">
<button class="approve" type="submit" name="outcome" value="approve">Verify and share</button>
<button class="cancel" type="submit" name="outcome" value="cancel">Cancel</button>
</div>
</form>
</section>`;
  return desktopPage(context, {
    status: options.status ?? (message ? 400 : 200),
    title: `Verify your identity for ${clientName}`,
    body,
    scripts: {
      script: endpointUrl(context, 'authorizationPageScript'),
      connect: endpointUrl(context, 'authorizationStatus'),
    },
  });
}

/**
 * The error page for errors that must not be redirected (unknown client, bad request_uri,
 * expired interaction, a wrong browser secret): the OAuth error code, visible and marked for
 * tests, and what to do.
 * @see RFC 6749 §4.1.2.1; RFC 9126 §4
 */
export function errorPage(context: EmulatorContext, error: { error: string; description: string; status: number }): Response {
  const body = html`
<section class="card error-card">
<p class="eyebrow">Identity verification</p>
<h1>This verification request cannot be handled</h1>
<p>Error <code data-testid="error-code">${error.error}</code></p>
<p role="alert">${error.description}</p>
<p class="muted">Go back to the application that sent you here and start the verification again.</p>
</section>`;
  return desktopPage(context, { status: error.status, title: 'Verification request failed', body });
}

/**
 * Turns an error into the error page; the router handles anything that is not an OAuthError
 * (and 5xx errors, which are not the user's to fix).
 */
export async function withErrorPage(context: EmulatorContext, handler: () => Promise<Response>): Promise<Response> {
  try {
    return await handler();
  } catch (error) {
    if (error instanceof OAuthError && !error.redirectable && error.status < 500) return errorPage(context, error);
    throw error;
  }
}
