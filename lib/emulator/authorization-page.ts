/**
 * The pages of the authorization endpoint: the simulated mobile identity app (part 1, step 4)
 * and the error page shown when an error cannot go to a redirect URI (RFC 6749 §4.1.2.1).
 * Plain HTML forms, no JavaScript, no external assets; every interpolated value is escaped by
 * the `html` template tag, and a strict Content-Security-Policy allows only the page's own style
 * and the portraits.
 * @see spec part 1, 4.2
 */
import { createHash } from 'node:crypto';
import type { ClaimName, DocumentDetail, EvidenceRequest } from './claims-request';
import type { RegisteredClient } from './clients';
import { ENDPOINT_PATHS } from './config';
import { endpointUrl, type EmulatorContext } from './context';
import { personas, type Persona } from './personas';
import type { AuthorizationRequest } from './request-object';

/** Markup that has been escaped already; anything else interpolated into `html` is escaped. */
class SafeHtml {
  constructor(readonly value: string) {}
}

function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let markup = strings[0] ?? '';
  values.forEach((value, index) => {
    markup += renderValue(value) + (strings[index + 1] ?? '');
  });
  return new SafeHtml(markup);
}

function renderValue(value: unknown): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(renderValue).join('');
  if (value === undefined || value === null || value === false) return '';
  return String(value).replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

const CLAIM_LABELS: Record<ClaimName, string> = {
  name: 'Full name',
  given_name: 'Given name(s)',
  family_name: 'Family name(s)',
  picture: 'Portrait from the document',
  gender: 'Gender',
  birthdate: 'Date of birth',
  nationalities: 'Nationalities',
};

const DETAIL_LABELS: Record<DocumentDetail, string> = {
  type: 'Document type',
  document_number: 'Document number',
  date_of_issuance: 'Date of issue',
  date_of_expiry: 'Date of expiry',
  'issuer.country_code': 'Issuing country',
  'issuer.name': 'Issuing authority',
  personal_number: 'National identity number',
  active_authentication_result: 'Chip authentication result',
  issuer_check: 'Issuer check',
};

const COUNTRY_ADJECTIVES: Record<string, string> = {
  NOR: 'Norwegian',
  SWE: 'Swedish',
  DEU: 'German',
  FIN: 'Finnish',
  DNK: 'Danish',
  PRT: 'Portuguese',
};

const STYLES = `
:root { color-scheme: light; --ink: #1c2430; --muted: #4a5565; --line: #d5dbe3; --accent: #1849a9; --accent-ink: #fff; --bg: #eef1f5; --danger: #a4161a; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--ink); font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 34rem; margin: 2rem auto; padding: 1.5rem; background: #fff; border-radius: 1.25rem; box-shadow: 0 10px 30px rgb(20 30 50 / 12%); }
header { border-bottom: 1px solid var(--line); margin-bottom: 1rem; padding-bottom: .75rem; }
.app { margin: 0; font-size: .8rem; letter-spacing: .06em; text-transform: uppercase; color: var(--muted); }
h1 { font-size: 1.35rem; margin: .25rem 0 0; }
h2 { font-size: 1rem; margin: 1.25rem 0 .5rem; }
p { margin: .25rem 0; }
.muted { color: var(--muted); font-size: .9rem; }
ul.requested { margin: 0; padding-left: 1.2rem; }
.tag { display: inline-block; margin-left: .4rem; padding: 0 .45rem; border-radius: .5rem; font-size: .75rem; border: 1px solid var(--line); color: var(--muted); }
.persona .tag { margin: .3rem .4rem 0 0; }
.tag.warn { border-color: #b45309; color: #7c2d12; background: #fff7ed; }
fieldset { border: 0; margin: 1.25rem 0 0; padding: 0; }
legend { font-weight: 600; font-size: 1rem; margin-bottom: .5rem; padding: 0; }
.persona { display: flex; gap: .75rem; align-items: center; padding: .6rem .75rem; margin-bottom: .5rem; border: 1px solid var(--line); border-radius: .9rem; cursor: pointer; }
.persona:has(input:checked) { border-color: var(--accent); box-shadow: 0 0 0 1px var(--accent); background: #f3f6fd; }
.persona input { width: 1.1rem; height: 1.1rem; accent-color: var(--accent); flex: none; }
.persona img { width: 3rem; height: 3.75rem; object-fit: cover; border-radius: .5rem; background: var(--line); flex: none; }
.persona strong, .persona .muted { display: block; }
.actions { display: flex; gap: .75rem; margin-top: 1.25rem; }
button { flex: 1; font: inherit; font-weight: 600; padding: .75rem 1rem; border-radius: .75rem; border: 1px solid var(--accent); cursor: pointer; }
button.approve { background: var(--accent); color: var(--accent-ink); }
button.cancel { background: #fff; color: var(--accent); }
:focus-visible { outline: 3px solid #b45309; outline-offset: 2px; }
.alert { border: 1px solid var(--danger); color: var(--danger); background: #fff5f5; border-radius: .75rem; padding: .6rem .8rem; margin-top: 1rem; }
code { font: .95em ui-monospace, SFMono-Regular, Menlo, monospace; background: #f1f3f7; padding: 0 .3rem; border-radius: .3rem; }
footer { margin-top: 1.5rem; color: var(--muted); font-size: .8rem; }
`;

const STYLE_HASH = createHash('sha256').update(STYLES).digest('base64');

function pageResponse(status: number, title: string, body: SafeHtml, context: EmulatorContext): Response {
  const document = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<style>${new SafeHtml(STYLES)}</style>
</head>
<body>
<main>${body}
<footer>IDV emulator: a simulation of the mobile identity app. All people and documents are fictional.</footer>
</main>
</body>
</html>`;
  return new Response(document.value, {
    status,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      // form-action is left out on purpose: browsers apply it to the redirect that follows the
      // form post, which goes to the client's redirect URI.
      'Content-Security-Policy': `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; img-src 'self' ${new URL(context.issuer).origin}; base-uri 'none'; frame-ancestors 'none'`,
      'X-Frame-Options': 'DENY',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    },
  });
}

function requestedEvidence(evidence: EvidenceRequest): SafeHtml {
  if (evidence.type === 'document') {
    return html`<li>Identity document (passport or ID card)${
      evidence.details.length > 0
        ? html`: ${evidence.details.map((detail) => DETAIL_LABELS[detail]).join(', ')}`
        : ''
    }</li>`;
  }
  return html`<li>Match in the population register (Folkeregisteret)${
    evidence.personalNumber ? html`, looked up by national number <code>${evidence.personalNumber}</code>` : ''
  }</li>`;
}

function documentSummary(persona: Persona): string {
  const { document } = persona;
  const country = COUNTRY_ADJECTIVES[document.issuer.country_code] ?? document.issuer.country_code;
  return `${country} ${document.type === 'passport' ? 'passport' : 'ID card'} ${document.document_number}, expiry ${document.date_of_expiry}`;
}

function personaOption(persona: Persona, checked: boolean, context: EmulatorContext): SafeHtml {
  const portrait = `${context.issuer}${ENDPOINT_PATHS.portraits}/${persona.id}.jpg`;
  const today = new Date(context.now()).toISOString().slice(0, 10);
  const tags = [
    persona.faceCheck === 'fail' ? { text: 'Face check fails', warn: true } : undefined,
    persona.document.date_of_expiry < today ? { text: 'Document expired', warn: true } : undefined,
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
 * The simulated identity app: who asks, what they ask for, a persona to verify as, and the
 * approve / cancel buttons. Posts `interaction`, `persona` and `outcome` to the authorization
 * endpoint.
 * @param options.message an error to show (e.g. an unknown persona), with status 400
 * @see spec part 1 (steps 4–5), 4.2
 */
export function interactionPage(
  context: EmulatorContext,
  options: {
    client: RegisteredClient;
    interactionId: string;
    request: AuthorizationRequest;
    selectedPersonaId?: string;
    message?: string;
  },
): Response {
  const { client, request, message } = options;
  const claims = request.claims;
  const selected = personas.some((persona) => persona.id === options.selectedPersonaId)
    ? options.selectedPersonaId
    : personas[0]?.id;
  const returnTo = new URL(request.redirectUri).host;

  const body = html`
<header>
<p class="app">Identity app</p>
<h1>${client.name ?? client.clientId} wants to verify your identity</h1>
<p class="muted">Client <code>${client.clientId}</code>; you will return to ${returnTo}.</p>
</header>
${message ? html`<p class="alert" role="alert">${message}</p>` : ''}
<h2>Requested</h2>
<p>Trust framework <code>${claims.trustFramework}</code></p>
${
  claims.claims.length > 0
    ? html`<ul class="requested">${claims.claims.map(
        (claim) => html`<li>${CLAIM_LABELS[claim.name]}${claim.essential ? html`<span class="tag">essential</span>` : ''}</li>`,
      )}</ul>`
    : html`<p class="muted">No identity claims.</p>`
}
${
  claims.evidence.length > 0
    ? html`<h2>Evidence</h2><ul class="requested">${claims.evidence.map(requestedEvidence)}</ul>`
    : ''
}
<form method="post" action="${endpointUrl(context, 'authorization')}">
<input type="hidden" name="interaction" value="${options.interactionId}">
<fieldset>
<legend>Choose a test persona to scan a document and face as</legend>
${personas.map((persona) => personaOption(persona, persona.id === selected, context))}
</fieldset>
<div class="actions">
<button class="approve" type="submit" name="outcome" value="approve">Verify and share</button>
<button class="cancel" type="submit" name="outcome" value="cancel">Cancel</button>
</div>
</form>`;
  return pageResponse(message ? 400 : 200, 'Verify your identity', body, context);
}

/**
 * The error page for errors that must not be redirected (unknown client, bad request_uri,
 * expired interaction): the OAuth error code, visible and marked for tests, and what to do.
 * @see RFC 6749 §4.1.2.1; RFC 9126 §4
 */
export function errorPage(context: EmulatorContext, error: { error: string; description: string; status: number }): Response {
  const body = html`
<header>
<p class="app">Identity app</p>
<h1>This verification request cannot be handled</h1>
</header>
<p>Error <code data-testid="error-code">${error.error}</code></p>
<p role="alert">${error.description}</p>
<p class="muted">Go back to the application that sent you here and start the verification again.</p>`;
  return pageResponse(error.status, 'Verification request failed', body, context);
}
