/**
 * The QA fault panel at the emulator's base path: the service's endpoints, the registered
 * clients, the signing keys, the personas and the one-shot faults, with plain HTML forms for
 * every action of the control API. No JavaScript, no external assets; every interpolated value
 * is escaped by the `html` tag, and a strict Content-Security-Policy allows only the page's own
 * style, same-origin images and same-origin form posts.
 * @see qa/control.ts, qa/faults.ts, qa/panel.ts
 */
import { ENDPOINT_PATHS } from '../config';
import { personas, type Persona } from '../personas/personas';
import type { ClientInfo, SigningKeyInfo } from '../qa/control';
import type { PanelAccessState } from '../qa/panel-access';
import { FAULTS, type Fault, type FaultId, type FaultTarget, type InjectedFault } from '../qa/faults';
import { stylesheet } from './assets';
import { html, type SafeHtml } from './html';
import { documentExpired, documentSummary } from './labels';
import { pageResponse } from './page-shell';

/** Everything the panel shows, read from the control API by qa/panel.ts. */
export interface PanelView {
  /** the issuer = base URL */
  issuer: string;
  /** `{flow_url}`: where the authorization endpoint is advertised */
  flowBaseUrl: string;
  /** which discovery document is served */
  discoveryShape: 'full' | 'minimal';
  /** the issuer's path ("" at an origin's root): links and forms stay on the origin the page came from */
  basePath: string;
  clients: readonly ClientInfo[];
  signingKeys: readonly SigningKeyInfo[];
  armedFaults: readonly FaultId[];
  /** the client an armed fault waits for, when it is not for any client */
  faultScopes: Partial<Record<FaultId, string>>;
  injectedFaults: readonly InjectedFault[];
  /** a confirmation of the last action, if any */
  notice?: string;
  /** whether this browser may use the actions (qa/panel-access.ts); the buttons are disabled when not */
  access: PanelAccessState;
  /** why the actions are switched off, when `access` is read-only */
  readOnlyReason?: string;
  /** clock in ms */
  now: number;
}

/** Where the panel's forms post. @see qa/panel.ts */
export const PANEL_ACTION_PATH = '/panel';

/** What each target of FAULTS is called on the panel. */
const TARGETS: Record<FaultTarget, { legend: string; when: string }> = {
  id_token: { legend: 'ID token', when: 'the next ID token the token endpoint issues' },
  token_endpoint: { legend: 'Token endpoint', when: 'the next token request that would succeed' },
  par_endpoint: { legend: 'PAR endpoint', when: 'the next pushed authorization request that would succeed' },
  authorization_response: { legend: 'Redirect back to the client', when: 'the next redirect that carries a code' },
};

/** "2026-01-31 12:00:00 UTC", with the machine-readable form in `datetime`. */
function time(ms: number): SafeHtml {
  const iso = new Date(ms).toISOString();
  return html`<time datetime="${iso}">${iso.slice(0, 19).replace('T', ' ')} UTC</time>`;
}

/** The panel's own path; "/" when the issuer is an origin. */
export function panelPath(basePath: string): string {
  return basePath === '' ? '/' : basePath;
}

/** A panel page on the emulator's page shell; its forms post to the panel itself and nowhere else. */
function panelResponse(status: number, title: string, body: SafeHtml): Response {
  return pageResponse({
    status,
    title,
    styles: stylesheet('panel'),
    body: html`<main>${body}
<footer>IDV emulator: a simulation of the identity verification service, for development and QA. All people and documents are fictional.</footer>
</main>`,
    layout: 'panel',
    sources: { images: [] },
    formAction: 'self',
    // Not no-referrer: with it, browsers send `Origin: null` on the panel's own form posts,
    // which the cross-site check of qa/panel.ts would then refuse.
    referrer: 'same-origin',
  });
}

function serviceSection(view: PanelView): SafeHtml {
  const url = (path: string) => view.issuer + path;
  return html`
<section id="service" aria-labelledby="service-heading">
<h2 id="service-heading">Service</h2>
<dl class="endpoints">
<dt>Issuer (base URL)</dt><dd><code>${view.issuer}</code></dd>
<dt>Discovery</dt><dd><a href="${url(ENDPOINT_PATHS.discovery)}">${url(ENDPOINT_PATHS.discovery)}</a></dd>
<dt>JWKS</dt><dd><a href="${url(ENDPOINT_PATHS.jwks)}">${url(ENDPOINT_PATHS.jwks)}</a></dd>
<dt>PAR</dt><dd><code>POST ${url(ENDPOINT_PATHS.par)}</code></dd>
<dt>Authorization</dt><dd><code>GET ${view.flowBaseUrl}${ENDPOINT_PATHS.authorization}</code>${
    view.flowBaseUrl === view.issuer ? '' : html` <span class="muted">(on the flow URL, another origin; also served under the issuer)</span>`
  }</dd>
<dt>Token</dt><dd><code>POST ${url(ENDPOINT_PATHS.token)}</code></dd>
</dl>
<div class="discovery" data-testid="discovery-shape" data-shape="${view.discoveryShape}">
<p><strong>Discovery document:</strong> ${
    view.discoveryShape === 'full'
      ? 'full (every endpoint and the identity-assurance metadata).'
      : html`<span class="tag warn">minimal</span> the issuer and three required members, no endpoint: a relying party must take PAR, token and JWKS from part 4's paths and the authorization endpoint from its flow URL.`
  }</p>
${actionForm(
    view,
    { action: 'set_discovery', shape: view.discoveryShape === 'full' ? 'minimal' : 'full' },
    html`<button type="submit"${disabled(view)}>${view.discoveryShape === 'full' ? 'Serve the minimal document' : 'Serve the full document'}</button>`,
  )}
</div>
</section>`;
}

/** ` disabled` on the actions' controls while this browser may not use them. */
function disabled(view: PanelView): SafeHtml {
  return view.access === 'open' || view.access === 'signed-in' ? html`` : html` disabled`;
}

/**
 * Who may act: nothing to say on an open panel; the reason on a read-only one; the sign-in form,
 * or the sign-out button, on one with a password.
 */
function accessSection(view: PanelView): SafeHtml {
  const action = `${view.basePath}${PANEL_ACTION_PATH}`;
  switch (view.access) {
    case 'open':
      return html``;
    case 'read-only':
      return html`<p class="callout" role="note" data-testid="panel-access" data-access="read-only"><strong>Read-only.</strong> ${view.readOnlyReason ?? ''}</p>`;
    case 'signed-out':
      return html`
<section id="panel-sign-in" aria-labelledby="panel-sign-in-heading" class="callout" data-testid="panel-access" data-access="signed-out">
<h2 id="panel-sign-in-heading">Sign in to use the panel</h2>
<p>Rotating keys, arming faults and changing entitlements change what every user of this emulator gets, so they ask for the panel password.</p>
<form method="post" action="${action}" class="sign-in">
<input type="hidden" name="action" value="sign_in">
<label for="panel-password">Panel password</label>
<input id="panel-password" name="password" type="password" autocomplete="current-password" required>
<button class="primary" type="submit">Sign in</button>
</form>
</section>`;
    case 'signed-in':
      return html`
<form method="post" action="${action}" class="inline sign-out" data-testid="panel-access" data-access="signed-in">
<input type="hidden" name="action" value="sign_out">
<span class="muted">Signed in to the panel’s actions.</span> <button type="submit">Sign out</button>
</form>`;
  }
}

function actionForm(view: PanelView, fields: Record<string, string>, button: SafeHtml, className = ''): SafeHtml {
  return html`<form method="post" action="${view.basePath}${PANEL_ACTION_PATH}"${className ? html` class="${className}"` : ''}>
${Object.entries(fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
${button}
</form>`;
}

function clientRow(view: PanelView, client: ClientInfo): SafeHtml {
  const enabled = client.populationRegister;
  const toggle = actionForm(
    view,
    { action: 'set_population_register', client_id: client.clientId, enabled: String(!enabled) },
    html`<button type="submit"${disabled(view)} aria-label="${enabled ? 'Disable' : 'Enable'} population register for ${client.clientId}">${enabled ? 'Disable' : 'Enable'}</button>`,
    'inline',
  );
  return html`
<tr data-testid="client-${client.clientId}">
<td><code>${client.clientId}</code></td>
<td>${client.name ?? html`<span class="muted">none</span>`}</td>
<td><ul>${client.redirectUris.map((uri) => html`<li><code>${uri}</code></li>`)}</ul></td>
<td><ul>${client.signingKeys.map((key) => html`<li>${key.alg} <code>${key.kid}</code></li>`)}
<li>${client.encryptionKey.alg} <code>${client.encryptionKey.kid}</code> <span class="muted">(encryption)</span></li></ul></td>
<td><span class="tag${enabled ? ' on' : ''}" data-testid="population-register-${client.clientId}">${enabled ? 'Enabled' : 'Disabled'}</span>${toggle}</td>
</tr>`;
}

function clientsSection(view: PanelView): SafeHtml {
  return html`
<section id="clients" aria-labelledby="clients-heading">
<h2 id="clients-heading">Registered clients</h2>
<p class="muted">Population-register evidence (<code>electronic_record</code>) is enabled per client (spec 2.3); a client without it gets <code>403 unauthorized_client</code> from PAR. A change holds for 30 days (or until the app restarts, when its state is in memory).</p>
<div class="table" role="region" aria-labelledby="clients-heading" tabindex="0">
<table>
<thead><tr><th scope="col">client_id</th><th scope="col">Name</th><th scope="col">Redirect URIs</th><th scope="col">Keys</th><th scope="col">Population register</th></tr></thead>
<tbody>${view.clients.map((client) => clientRow(view, client))}</tbody>
</table>
</div>
</section>`;
}

function signingKeysSection(view: PanelView): SafeHtml {
  return html`
<section id="signing-keys" aria-labelledby="signing-keys-heading">
<h2 id="signing-keys-heading">Signing keys</h2>
<p class="muted">ES256 keys in the JWKS, each with a certificate from this instance's root CA; <code>kid</code> is the certificate serial number (spec 2.7). The next key is published ahead of its use, as real providers do; rotation makes it current at once and publishes a new next key, and the old one stays published for an hour, until the last ID token it signed has expired. The JWKS lists the keys in a new order each time (spec 4.4: never rely on order or count).</p>
<div class="table" role="region" aria-labelledby="signing-keys-heading" tabindex="0">
<table>
<thead><tr><th scope="col">kid</th><th scope="col">Created</th><th scope="col">Status</th></tr></thead>
<tbody>${view.signingKeys.map(
    (key) => html`
<tr data-testid="signing-key" data-kid="${key.kid}" data-status="${key.current ? 'current' : key.next ? 'next' : 'retiring'}">
<td><code>${key.kid}</code></td>
<td>${time(key.createdAt)}</td>
<td>${
      key.current
        ? html`<span class="tag on">Current</span> signs new ID tokens`
        : key.next
          ? html`<span class="tag">Next</span> published ahead; signs after the next rotation`
          : html`<span class="tag">Retiring</span> leaves the JWKS at ${key.retiresAt === undefined ? '' : time(key.retiresAt)}`
    }</td>
</tr>`,
  )}</tbody>
</table>
</div>
${actionForm(view, { action: 'rotate_keys' }, html`<button class="primary" type="submit"${disabled(view)}>Rotate signing key</button>`)}
</section>`;
}

/** When a fault is not armed: for which client to arm it (any, or one registered client). */
function faultScopeChoice(view: PanelView, fault: Fault): SafeHtml {
  if (view.clients.length < 2) return html``;
  const id = `fault-${fault.id}-client`;
  return html`<label class="muted" for="${id}">for</label> <select id="${id}" name="client_id"${disabled(view)}><option value="">any client</option>${view.clients.map(
    (client) => html`<option value="${client.clientId}">${client.clientId}</option>`,
  )}</select>`;
}

function faultRow(view: PanelView, fault: Fault): SafeHtml {
  const armed = view.armedFaults.includes(fault.id);
  const scope = view.faultScopes[fault.id];
  const describedBy = `fault-${fault.id}-label`;
  return html`
<form method="post" action="${view.basePath}${PANEL_ACTION_PATH}" class="fault${armed ? ' armed' : ''}" data-testid="fault-${fault.id}" data-armed="${String(armed)}">
<input type="hidden" name="action" value="${armed ? 'disarm_fault' : 'arm_fault'}">
<input type="hidden" name="fault" value="${fault.id}">
<div>
<p id="${describedBy}"><strong>${fault.label}</strong> <code>${fault.id}</code> ${
    armed ? html`<span class="tag warn">Armed${scope ? html` for ${scope}` : ''}</span>` : html`<span class="tag">Not armed</span>`
  }</p>
<p class="muted">${fault.effect}</p>
<p class="muted">The relying party should answer <code>${fault.expected}</code>.</p>
</div>
<div class="fault-actions">${armed ? '' : faultScopeChoice(view, fault)}<button type="submit" class="${armed ? 'danger' : 'primary'}" aria-describedby="${describedBy}"${disabled(view)}>${armed ? 'Disarm' : 'Arm'}</button></div>
</form>`;
}

function faultsSection(view: PanelView): SafeHtml {
  const targets = Object.keys(TARGETS) as FaultTarget[];
  const label = (id: FaultId) => FAULTS.find((fault) => fault.id === id)?.label ?? id;
  return html`
<section id="faults" aria-labelledby="faults-heading">
<h2 id="faults-heading">Faults</h2>
<p class="callout"><strong>One-shot.</strong> An armed fault spoils the next matching response of this emulator to the client you chose (or to whichever client comes next), and then disarms itself. Requests the emulator refuses anyway do not use it up. Several faults may be armed; faults that change the same part of a response (the signing key, the encryption, the status) apply one per response, in the order listed.</p>
<p class="muted" data-testid="armed-faults">Armed now: ${
    view.armedFaults.length > 0 ? view.armedFaults.map((id, index) => html`${index > 0 ? ', ' : ''}<code>${id}</code>`) : 'none'
  }</p>
${targets.map(
  (target) => html`
<fieldset>
<legend>${TARGETS[target].legend}: applies to ${TARGETS[target].when}</legend>
${FAULTS.filter((fault) => fault.target === target).map((fault) => faultRow(view, fault))}
</fieldset>`,
)}
<h3>Recently injected</h3>
${
  view.injectedFaults.length > 0
    ? html`<ul data-testid="injected-faults">${view.injectedFaults.map(
        (injected) => html`<li>${time(injected.at)}: ${label(injected.id)} <code>${injected.id}</code> for client <code>${injected.clientId}</code></li>`,
      )}</ul>`
    : html`<p class="muted">No fault has been injected yet.</p>`
}
</section>`;
}

function personaCard(view: PanelView, persona: Persona): SafeHtml {
  const tags = [
    persona.faceCheck === 'fail' ? { text: 'Face check fails', warn: true } : undefined,
    documentExpired(persona, view.now) ? { text: 'Document expired', warn: true } : undefined,
    persona.populationRegister ? { text: 'In the population register', warn: false } : undefined,
  ].filter((tag) => tag !== undefined);
  return html`
<li class="persona" data-testid="persona-${persona.id}">
<img src="${view.basePath}${ENDPOINT_PATHS.portraits}/${persona.id}.jpg" alt="Portrait of ${persona.label}" width="64" height="80">
<div>
<strong>${persona.label}</strong> <code>${persona.id}</code>
<p class="muted">${documentSummary(persona)}</p>
<p class="muted">${persona.description}</p>
${tags.map((tag) => html`<span class="tag${tag.warn ? ' warn' : ''}">${tag.text}</span>`)}
</div>
</li>`;
}

function personasSection(view: PanelView): SafeHtml {
  return html`
<section id="personas" aria-labelledby="personas-heading">
<h2 id="personas-heading">Personas</h2>
<p class="muted">The people the simulated identity app can verify as; all fictional.</p>
<ul class="personas">${personas.map((persona) => personaCard(view, persona))}</ul>
</section>`;
}

/**
 * The panel: Service, Registered clients, Signing keys, Faults, Personas.
 * @see qa/control.ts
 */
export function panelPage(view: PanelView): Response {
  const body = html`
<header>
<p class="app">IDV emulator</p>
<h1>QA panel</h1>
<p class="muted">Controls for this emulator. Its state lives in the store the app gives it: this instance's memory (reset when the app restarts), or a store every instance shares.</p>
<nav aria-label="Sections"><ul>
<li><a href="#service">Service</a></li>
<li><a href="#clients">Registered clients</a></li>
<li><a href="#signing-keys">Signing keys</a></li>
<li><a href="#faults">Faults</a></li>
<li><a href="#personas">Personas</a></li>
</ul></nav>
</header>
${view.notice ? html`<p class="notice" role="status" data-testid="panel-notice">${view.notice}</p>` : ''}
${accessSection(view)}
${serviceSection(view)}
${clientsSection(view)}
${signingKeysSection(view)}
${faultsSection(view)}
${personasSection(view)}`;
  return panelResponse(200, 'IDV emulator: QA panel', body);
}

/**
 * The page for a refused panel action (bad input: 400, cross-site post: 403): the reason, and
 * the way back.
 */
export function panelErrorPage(basePath: string, status: number, message: string): Response {
  const body = html`
<header>
<p class="app">IDV emulator</p>
<h1>The panel could not do that</h1>
</header>
<p class="alert" role="alert" data-testid="panel-error">${message}</p>
<p><a href="${panelPath(basePath)}">Back to the QA panel</a></p>`;
  return panelResponse(status, 'IDV emulator: action refused', body);
}
