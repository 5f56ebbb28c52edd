/**
 * The QA fault panel at the emulator's base path: the service's endpoints, the registered
 * clients, the signing keys, the personas and the one-shot faults, with plain HTML forms for
 * every action of the control API. No JavaScript, no external assets; every interpolated value
 * is escaped by the `html` tag, and a strict Content-Security-Policy allows only the page's own
 * style, same-origin images and same-origin form posts. The words are in the page's language
 * (panel-messages.ts, views/language.ts).
 * @see qa/control.ts, qa/faults.ts, endpoints/panel.ts
 */
import { ENDPOINT_PATHS, ID_TOKEN_CONTENT_ENCRYPTIONS, ID_TOKEN_ENCRYPTION_ALGORITHMS } from '../config';
import { personas, type Persona } from '../personas/personas';
import type { ClientInfo, SigningKeyInfo } from '../qa/control';
import type { PanelAccessState } from '../qa/panel-access';
import { FAULTS, type Fault, type FaultId, type FaultTarget, type InjectedFault, type RunLock } from '../qa/faults';
import { stylesheet } from './assets';
import { html, type SafeHtml } from './html';
import { documentExpired, documentSummary, personaDescription } from './labels';
import { languageSwitch, type PageLanguage } from './language';
import { EMULATOR_MESSAGES } from './messages';
import { pageResponse } from './page-shell';
import { PANEL_MESSAGES, type PanelMessages } from './panel-messages';

/** Everything the panel shows, read from the control API by endpoints/panel.ts. */
export interface PanelView {
  /** the issuer = base URL */
  issuer: string;
  /** `{flow_url}`: where the authorization endpoint is advertised */
  flowBaseUrl: string;
  /** which discovery document is served */
  discoveryShape: 'full' | 'minimal';
  /** whether the strict level is on (DECISIONS.md "Levels") */
  strict: boolean;
  /** whether the redirect to the client carries `iss` (RFC 9207) */
  redirectIss: boolean;
  /** the issuer's path ("" at an origin's root): links and forms stay on the origin the page came from */
  basePath: string;
  clients: readonly ClientInfo[];
  signingKeys: readonly SigningKeyInfo[];
  armedFaults: readonly FaultId[];
  /** the client an armed fault waits for, when it is not for any client */
  faultScopes: Partial<Record<FaultId, string>>;
  /** the run that armed a fault through the QA API with `armed_by`, when it was not armed by hand */
  faultOwners: Partial<Record<FaultId, string>>;
  /** the deployment-wide run lock, while a conformance run holds it */
  runLock?: RunLock;
  injectedFaults: readonly InjectedFault[];
  /** a confirmation of the last action, if any */
  notice?: string;
  /** whether this browser may use the actions (qa/panel-access.ts); the buttons are disabled when not */
  access: PanelAccessState;
  /** why the actions are switched off, when `access` is read-only */
  readOnlyReason?: string;
  /** clock in ms */
  now: number;
  /** the page's language, and its switch's way back */
  language: PageLanguage;
  /** the sign-in form was sent with a wrong password: said at the field */
  signInError?: boolean;
}

/**
 * The relying parties' home pages, where "arm and start" and the panel's links lead: each
 * client's first redirect URI's origin, then `/` (the app's start page, for the embedded app).
 */
export function clientHome(client: Pick<ClientInfo, 'redirectUris'>): string | undefined {
  const first = client.redirectUris[0];
  return first === undefined ? undefined : `${new URL(first).origin}/`;
}

/** Where the panel's forms post. @see endpoints/panel.ts */
export const PANEL_ACTION_PATH = '/panel';

/** The targets of FAULTS, in the order the panel lists them. */
const TARGETS: readonly FaultTarget[] = ['id_token', 'jwks', 'jwks_endpoint', 'token_endpoint', 'par_endpoint', 'authorization_response'];

/** The panel's words in the view's language. */
function words(view: PanelView): PanelMessages {
  return PANEL_MESSAGES[view.language.locale];
}

/** "2026-01-31 12:00:00 UTC" | "31. januar 2026 kl. 12:00 UTC", with the machine-readable form in `datetime`. */
function time(view: PanelView, ms: number): SafeHtml {
  const iso = new Date(ms).toISOString();
  return html`<time datetime="${iso}">${words(view).time(iso)}</time>`;
}

/** The panel's own path; "/" when the issuer is an origin. */
export function panelPath(basePath: string): string {
  return basePath === '' ? '/' : basePath;
}

/**
 * A panel page on the emulator's page shell (the panel and its error pages);
 * its forms post to the emulator itself and to `forms`, nowhere else.
 */
export function panelResponse(
  language: PageLanguage,
  status: number,
  title: string,
  body: SafeHtml,
  forms: readonly string[] = [],
  refreshSeconds?: number,
): Response {
  const t = PANEL_MESSAGES[language.locale];
  return pageResponse({
    status,
    locale: language.locale,
    theme: language.theme,
    title,
    styles: stylesheet('panel'),
    body: html`<main>${languageSwitch(language)}${body}
<footer>${t.footer}</footer>
</main>`,
    layout: 'panel',
    // form-action: 'self', which the shell always allows, and the relying parties' origins that
    // "arm and start" answers with a redirect to (browsers apply form-action to it).
    sources: { images: [], forms },
    // Not no-referrer: with it, browsers send `Origin: null` on the panel's own form posts,
    // which the cross-site check of endpoints/panel.ts would then refuse.
    referrer: 'same-origin',
    ...(refreshSeconds === undefined ? {} : { refreshSeconds }),
  });
}

function serviceSection(view: PanelView): SafeHtml {
  const t = words(view);
  const url = (path: string) => view.issuer + path;
  return html`
<section id="service" aria-labelledby="service-heading">
<h2 id="service-heading">${t.service}</h2>
<dl class="endpoints">
<dt>${t.issuer}</dt><dd><code>${view.issuer}</code></dd>
<dt>${t.discovery}</dt><dd><a href="${url(ENDPOINT_PATHS.discovery)}">${url(ENDPOINT_PATHS.discovery)}</a></dd>
<dt>JWKS</dt><dd><a href="${url(ENDPOINT_PATHS.jwks)}">${url(ENDPOINT_PATHS.jwks)}</a></dd>
<dt>PAR</dt><dd><code>POST ${url(ENDPOINT_PATHS.par)}</code></dd>
<dt>${t.authorization}</dt><dd><code>GET ${view.flowBaseUrl}${ENDPOINT_PATHS.authorization}</code>${
    view.flowBaseUrl === view.issuer ? '' : html` <span class="muted">${t.onFlowUrl}</span>`
  }</dd>
<dt>${t.token}</dt><dd><code>POST ${url(ENDPOINT_PATHS.token)}</code></dd>
</dl>
<div class="discovery" data-testid="discovery-shape" data-shape="${view.discoveryShape}">
<p><strong>${t.discoveryDocument}</strong> ${
    view.discoveryShape === 'full' ? t.discoveryFull : html`<span class="tag warn">${t.minimal}</span> ${t.discoveryMinimal}`
  }</p>
${actionForm(
  view,
  { action: 'set_discovery', shape: view.discoveryShape === 'full' ? 'minimal' : 'full' },
  html`<button type="submit"${disabled(view)}>${view.discoveryShape === 'full' ? t.serveMinimal : t.serveFull}</button>`,
)}
</div>
<div class="setting" data-testid="strictness" data-strict="${String(view.strict)}">
<p><strong>${t.level}</strong> ${view.strict ? html`<span class="tag warn">${t.strict}</span> ${t.strictOn}` : html`<span class="tag">${t.defaultLevel}</span> ${t.strictOff}`}</p>
${actionForm(
  view,
  { action: 'set_strict', strict: String(!view.strict) },
  html`<button type="submit"${disabled(view)}>${view.strict ? t.useDefaultLevel : t.useStrictLevel}</button>`,
)}
</div>
<div class="setting" data-testid="redirect-iss" data-redirect-iss="${String(view.redirectIss)}">
<p><strong>${t.redirectIssHeading}</strong> ${view.redirectIss ? t.redirectIssOn : html`<span class="tag warn">${t.off}</span> ${t.redirectIssOff}`}</p>
${actionForm(
  view,
  { action: 'set_redirect_iss', redirect_iss: String(!view.redirectIss) },
  html`<button type="submit"${disabled(view)}>${view.redirectIss ? t.stopRedirectIss : t.startRedirectIss}</button>`,
)}
</div>
</section>`;
}

/** A client's ID token encryption (spec 2.5), and a form to choose another variant. */
function encryptionCell(view: PanelView, client: ClientInfo): SafeHtml {
  const t = words(view);
  const { alg, enc } = client.idTokenEncryption;
  const id = (member: string) => `encryption-${client.clientId}-${member}`;
  const options = (values: readonly string[], selected: string) =>
    values.map((value) => html`<option value="${value}"${value === selected ? html` selected` : ''}>${value}</option>`);
  return html`<p data-testid="id-token-encryption-${client.clientId}" data-alg="${alg}" data-enc="${enc}"><code>${alg}</code> / <code>${enc}</code></p>
<form method="post" action="${view.basePath}${PANEL_ACTION_PATH}" class="encryption">
<input type="hidden" name="action" value="set_id_token_encryption">
<input type="hidden" name="client_id" value="${client.clientId}">
<label class="muted" for="${id('alg')}">alg</label> <select id="${id('alg')}" name="alg"${disabled(view)}>${options(ID_TOKEN_ENCRYPTION_ALGORITHMS, alg)}</select>
<label class="muted" for="${id('enc')}">enc</label> <select id="${id('enc')}" name="enc"${disabled(view)}>${options(ID_TOKEN_CONTENT_ENCRYPTIONS, enc)}</select>
<button type="submit"${disabled(view)} aria-label="${t.setEncryptionFor(client.clientId)}">${t.setEncryption}</button>
</form>`;
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
  const t = words(view);
  const action = `${view.basePath}${PANEL_ACTION_PATH}`;
  switch (view.access) {
    case 'open':
      return html``;
    case 'read-only':
      return html`<p class="callout" role="note" data-testid="panel-access" data-access="read-only"><strong>${t.readOnly}</strong> ${view.readOnlyReason ?? ''}</p>`;
    case 'signed-out':
      return html`
<section id="panel-sign-in" aria-labelledby="panel-sign-in-heading" class="callout" data-testid="panel-access" data-access="signed-out">
<h2 id="panel-sign-in-heading">${t.signInHeading}</h2>
<p>${t.signInLead}</p>
<form method="post" action="${action}" class="sign-in">
<input type="hidden" name="action" value="sign_in">
<label for="panel-password">${t.password}</label>
<input id="panel-password" name="password" type="password" autocomplete="current-password" required${
        view.signInError ? html` aria-invalid="true" aria-describedby="panel-password-error" autofocus` : ''
      }>
<button class="primary" type="submit">${t.signIn}</button>
${view.signInError ? html`<p id="panel-password-error" class="field-error" role="alert" data-testid="panel-error">${t.wrongPassword}</p>` : ''}
</form>
</section>`;
    case 'signed-in':
      return html`
<form method="post" action="${action}" class="inline sign-out" data-testid="panel-access" data-access="signed-in">
<input type="hidden" name="action" value="sign_out">
<span class="muted">${t.signedIn}</span> <button type="submit">${t.signOut}</button>
</form>`;
  }
}

function actionForm(view: PanelView, fields: Record<string, string>, button: SafeHtml, className = ''): SafeHtml {
  return html`<form method="post" action="${view.basePath}${PANEL_ACTION_PATH}"${className ? html` class="${className}"` : ''}>
${Object.entries(fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
${button}
</form>`;
}

/**
 * A URL that may break after each single `/` and nowhere else: its parts, each kept whole
 * (panel.css), with a `<wbr>` between them: "<span>http://localhost/</span><wbr><span>auth/</span>…".
 */
function breakableUrl(url: string): SafeHtml {
  return html`${url.split(/(?<=[^/]\/)(?!\/)/).map((part, index) => html`${index === 0 ? '' : html`<wbr>`}<span>${part}</span>`)}`;
}

function clientRow(view: PanelView, client: ClientInfo): SafeHtml {
  const t = words(view);
  const enabled = client.populationRegister;
  const toggle = actionForm(
    view,
    { action: 'set_population_register', client_id: client.clientId, enabled: String(!enabled) },
    html`<button type="submit"${disabled(view)} aria-label="${t.toggleRegister(enabled, client.clientId)}">${enabled ? t.disable : t.enable}</button>`,
    'inline',
  );
  return html`
<tr data-testid="client-${client.clientId}">
<td data-label="client_id"><code class="whole">${client.clientId}</code></td>
<td data-label="${t.name}">${client.name ?? html`<span class="muted">${t.none}</span>`}</td>
<td data-label="${t.redirectUris}"><ul>${client.redirectUris.map((uri) => html`<li><code class="url">${breakableUrl(uri)}</code></li>`)}</ul></td>
<td data-label="${t.keys}"><ul>${client.signingKeys.map((key) => html`<li>${key.alg} <code>${key.kid}</code></li>`)}
<li>${client.encryptionKey.alg} <code>${client.encryptionKey.kid}</code> <span class="muted">${t.encryption}</span></li></ul></td>
<td data-label="${t.idTokenEncryption}">${encryptionCell(view, client)}</td>
<td data-label="${t.populationRegister}"><span class="tag${enabled ? ' on' : ''}" data-testid="population-register-${client.clientId}">${enabled ? t.enabled : t.disabled}</span>${toggle}</td>
</tr>`;
}

function clientsSection(view: PanelView): SafeHtml {
  const t = words(view);
  return html`
<section id="clients">
<h2 id="clients-heading">${t.clients}</h2>
<p class="muted">${t.clientsLead}</p>
<div class="table" role="region" aria-labelledby="clients-heading" tabindex="0">
<table class="stacks">
<thead><tr><th scope="col">client_id</th><th scope="col">${t.name}</th><th scope="col">${t.redirectUris}</th><th scope="col">${t.keys}</th><th scope="col">${t.idTokenEncryption}</th><th scope="col">${t.populationRegister}</th></tr></thead>
<tbody>${view.clients.map((client) => clientRow(view, client))}</tbody>
</table>
</div>
</section>`;
}

function signingKeysSection(view: PanelView): SafeHtml {
  const t = words(view);
  return html`
<section id="signing-keys">
<h2 id="signing-keys-heading">${t.signingKeys}</h2>
<p class="muted">${t.signingKeysLead}</p>
<div class="table" role="region" aria-labelledby="signing-keys-heading" tabindex="0">
<table>
<thead><tr><th scope="col">kid</th><th scope="col">${t.created}</th><th scope="col">${t.status}</th></tr></thead>
<tbody>${view.signingKeys.map(
    (key) => html`
<tr data-testid="signing-key" data-kid="${key.kid}" data-status="${key.current ? 'current' : key.next ? 'next' : 'retiring'}">
<td><code>${key.kid}</code></td>
<td>${time(view, key.createdAt)}</td>
<td>${
      key.current
        ? html`<span class="tag on">${t.current}</span> ${t.currentNote}`
        : key.next
          ? html`<span class="tag">${t.next}</span> ${t.nextNote}`
          : html`<span class="tag">${t.retiring}</span> ${t.retiringNote} ${key.retiresAt === undefined ? '' : time(view, key.retiresAt)}`
    }</td>
</tr>`,
  )}</tbody>
</table>
</div>
${actionForm(view, { action: 'rotate_keys' }, html`<button class="primary" type="submit"${disabled(view)}>${t.rotate}</button>`)}
</section>`;
}

/** When a fault is not armed: for which client to arm it (any, or one registered client). */
function faultScopeChoice(view: PanelView, fault: Fault): SafeHtml {
  if (view.clients.length < 2) return html``;
  const t = words(view);
  const id = `fault-${fault.id}-client`;
  return html`<label class="muted" for="${id}">${t.forClient}</label> <select id="${id}" name="client_id"${disabled(view)}><option value="">${t.anyClient}</option>${view.clients.map(
    (client) => html`<option value="${client.clientId}">${client.clientId}</option>`,
  )}</select>`;
}

function faultRow(view: PanelView, fault: Fault): SafeHtml {
  const t = words(view);
  const text = t.faultTexts[fault.id];
  const armed = view.armedFaults.includes(fault.id);
  const scope = view.faultScopes[fault.id];
  const owner = view.faultOwners[fault.id];
  const describedBy = `fault-${fault.id}-label`;
  return html`
<form method="post" action="${view.basePath}${PANEL_ACTION_PATH}" class="fault${armed ? ' armed' : ''}" data-testid="fault-${fault.id}" data-armed="${String(armed)}">
<input type="hidden" name="action" value="${armed ? 'disarm_fault' : 'arm_fault'}">
<input type="hidden" name="fault" value="${fault.id}">
<div>
<p id="${describedBy}"><strong>${text.label}</strong> <code>${fault.id}</code> ${
    armed ? html`<span class="tag warn">${t.armed}${scope ? t.armedFor(scope) : ''}</span>` : html`<span class="tag">${t.notArmed}</span>`
  }${armed && owner !== undefined ? html` <span class="tag" data-testid="fault-${fault.id}-armed-by">${t.armedBy(owner)}</span>` : ''}</p>
<p class="muted">${text.effect}</p>
${fault.id === 'missing_response_issuer' && !view.redirectIss ? html`<p class="muted" data-testid="fault-waits">${t.waitsForRedirectIss}</p>` : ''}
<p class="muted">${fault.kind === 'refusal' ? t.shouldAnswer(html`<code>${fault.expected}</code>`) : t.shouldAccept[fault.check]}</p>
</div>
<div class="fault-actions">${armed ? '' : faultScopeChoice(view, fault)}<button type="submit" class="${armed ? 'danger' : 'primary'}" aria-describedby="${describedBy}"${disabled(view)}>${armed ? t.disarm : t.arm}</button></div>
</form>`;
}

/**
 * "Arm and start": the faults ticked are armed (for the client chosen) and the browser goes
 * straight to that relying party's start page. Each fault its own field (`arm_<id>`), since a
 * form field sent twice is refused.
 */
function startForm(view: PanelView): SafeHtml {
  const t = words(view);
  const clients = view.clients.filter((client) => clientHome(client) !== undefined);
  if (clients.length === 0) return html``;
  return html`<details class="start" data-testid="arm-and-start">
<summary>${t.startHeading}</summary>
<form method="post" action="${view.basePath}${PANEL_ACTION_PATH}">
<input type="hidden" name="action" value="arm_and_start">
<p class="muted">${t.startLead}</p>
<fieldset class="start-faults"><legend>${t.startFaults}</legend>
${FAULTS.map(
  (fault) =>
    html`<label class="check"><input type="checkbox" name="arm_${fault.id}" value="on"${disabled(view)}> ${t.faultTexts[fault.id].label} <code>${fault.id}</code></label>`,
)}
</fieldset>
${
  clients.length > 1
    ? html`<label for="start-client">${t.startAt}</label> <select id="start-client" name="client_id"${disabled(view)}>${clients.map(
        (client) => html`<option value="${client.clientId}">${client.name ?? client.clientId}</option>`,
      )}</select>`
    : html`<input type="hidden" name="client_id" value="${clients[0]!.clientId}">`
}
<button class="primary" type="submit"${disabled(view)} data-testid="arm-and-start-button">${t.startButton}</button>
</form>
</details>`;
}

/** While a conformance run holds the run lock: which run, and until when (a lock lasts 10 minutes at most, so the time of day). */
function runLockNotice(view: PanelView): SafeHtml {
  if (!view.runLock) return html``;
  const t = words(view);
  const until = new Date(view.runLock.expiresAt).toISOString();
  return html`<p class="callout" data-testid="run-lock">${t.runLockHeld(html`<code>${view.runLock.owner}</code>`, html`<time datetime="${until}">${t.timeOfDay(until)}</time>`)}</p>`;
}

function faultsSection(view: PanelView): SafeHtml {
  const t = words(view);
  const label = (id: FaultId) => t.faultTexts[id].label;
  return html`
<section id="faults" aria-labelledby="faults-heading">
<h2 id="faults-heading">${t.faults}</h2>
<p class="callout">${t.faultsLead}</p>
${runLockNotice(view)}
${startForm(view)}
<p class="muted" data-testid="armed-faults">${t.armedNow} ${
    view.armedFaults.length > 0 ? view.armedFaults.map((id, index) => html`${index > 0 ? ', ' : ''}<code>${id}</code>`) : t.none
  }</p>
${TARGETS.map(
  (target) => html`
<fieldset>
<legend>${t.appliesTo(t.targets[target].legend, t.targets[target].when)}</legend>
${FAULTS.filter((fault) => fault.target === target).map((fault) => faultRow(view, fault))}
</fieldset>`,
)}
<h3>${t.recentlyInjected}</h3>
${
  view.injectedFaults.length > 0
    ? html`<ul data-testid="injected-faults">${view.injectedFaults.map(
        (injected) =>
          html`<li>${time(view, injected.at)}: ${label(injected.id)} <code>${injected.id}</code> ${t.injectedFor(html`<code>${injected.clientId}</code>`)}${
            injected.chosen === 'flow'
              ? html` <span class="tag">${t.injectedForFlow}</span>`
              : injected.chosen === 'again'
                ? html` <span class="tag">${t.injectedAgain}</span>`
                : ''
          }${injected.reached === false ? html` <span class="tag" data-testid="not-reached">${t.notReached}</span>` : ''}</li>`,
      )}</ul>`
    : html`<p class="muted">${t.noneInjected}</p>`
}
</section>`;
}

function personaCard(view: PanelView, persona: Persona): SafeHtml {
  const t = words(view);
  const { locale } = view.language;
  const tagWords = EMULATOR_MESSAGES[locale].personaTags;
  const tags = [
    persona.faceCheck === 'fail' ? { text: tagWords.faceCheckFails, warn: true } : undefined,
    documentExpired(persona, view.now) ? { text: tagWords.documentExpired, warn: true } : undefined,
    persona.populationRegister ? { text: tagWords.inPopulationRegister, warn: false } : undefined,
  ].filter((tag) => tag !== undefined);
  return html`
<li class="persona" data-testid="persona-${persona.id}">
<img src="${view.basePath}${ENDPOINT_PATHS.portraits}/${persona.id}.jpg" alt="${t.portraitOf(persona.label)}" width="64" height="80">
<div>
<strong>${persona.label}</strong> <code>${persona.id}</code>
<p class="muted">${documentSummary(persona, locale)}</p>
<p class="muted">${personaDescription(persona, locale)}</p>
${tags.map((tag) => html`<span class="tag${tag.warn ? ' warn' : ''}">${tag.text}</span>`)}
</div>
</li>`;
}

function personasSection(view: PanelView): SafeHtml {
  const t = words(view);
  return html`
<section id="personas" aria-labelledby="personas-heading">
<h2 id="personas-heading">${t.personas}</h2>
<p class="muted">${t.personasLead}</p>
<ul class="personas">${personas.map((persona) => personaCard(view, persona))}</ul>
</section>`;
}

/**
 * The conformance kit: a command-line tool, never run by this server (no web request makes the
 * server browse). The command names this emulator and its first client with a home page.
 */
function conformanceSection(view: PanelView): SafeHtml {
  const t = words(view);
  const client = view.clients.find((candidate) => clientHome(candidate) !== undefined);
  const options = client ? ` --client-id ${client.clientId} --start-url ${clientHome(client)}` : ' --client-id CLIENT_ID --start-url START_URL';
  const command = `npm run conformance -- --emulator ${view.issuer}${options}${view.access === 'open' ? '' : ' --panel-password …'}`;
  return html`
<section id="conformance" aria-labelledby="conformance-heading">
<h2 id="conformance-heading">${t.conformanceKit}</h2>
<p class="muted">${t.conformanceLead}</p>
<pre data-testid="conformance-command" tabindex="0"><code>${command}</code></pre>
<p class="muted">${t.conformanceMore}</p>
</section>`;
}

/** Links back to the relying parties (the embedded app's home, first). */
function relyingPartyLinks(view: PanelView): SafeHtml {
  const t = words(view);
  const homes = new Map<string, string>();
  for (const client of view.clients) {
    const home = clientHome(client);
    if (home !== undefined && !homes.has(home)) homes.set(home, client.name ?? client.clientId);
  }
  if (homes.size === 0) return html``;
  return html`<p class="relying-parties" data-testid="relying-parties">${t.relyingParties} ${[...homes].map(
    ([home, name], index) => html`${index > 0 ? ' · ' : ''}<a href="${home}" data-testid="back-to-app">${t.backToApp(name)}</a>`,
  )}</p>`;
}

/**
 * The panel: Service, Registered clients, Signing keys, Faults, Personas.
 * @see qa/control.ts
 */
export function panelPage(view: PanelView): Response {
  const t = words(view);
  const body = html`
<header>
<p class="app">${t.app}</p>
<h1>${t.heading}</h1>
<p class="muted">${t.lead}</p>
${relyingPartyLinks(view)}
<nav aria-label="${t.sections}"><ul>
<li><a href="#service">${t.service}</a></li>
<li><a href="#clients">${t.clients}</a></li>
<li><a href="#signing-keys">${t.signingKeys}</a></li>
<li><a href="#faults">${t.faults}</a></li>
<li><a href="#personas">${t.personas}</a></li>
<li><a href="#conformance" data-testid="conformance-link">${t.conformanceKit}</a></li>
</ul></nav>
</header>
${view.notice ? html`<p class="notice" role="status" data-testid="panel-notice">${view.notice}</p>` : ''}
${accessSection(view)}
${serviceSection(view)}
${clientsSection(view)}
${signingKeysSection(view)}
${faultsSection(view)}
${personasSection(view)}
${conformanceSection(view)}`;
  const origins = view.clients
    .map(clientHome)
    .filter((home) => home !== undefined)
    .map((home) => new URL(home).origin);
  return panelResponse(view.language, view.signInError ? 403 : 200, t.title, body, origins);
}

/**
 * The page for a refused panel action (bad input: 400, cross-site post: 403): the reason, and
 * the way back. Its switch comes back to the panel (a refused post cannot be repeated).
 * @param message the reason, in the page's language
 */
export function panelErrorPage(language: PageLanguage, status: number, message: (t: PanelMessages) => string): Response {
  const t = PANEL_MESSAGES[language.locale];
  const back = panelPath(language.basePath);
  const body = html`
<header>
<p class="app">${t.app}</p>
<h1>${t.errorHeading}</h1>
</header>
<p class="alert" role="alert" data-testid="panel-error">${message(t)}</p>
<p><a href="${back}">${t.backToPanel}</a></p>`;
  return panelResponse({ ...language, returnTo: back }, status, t.errorTitle, body);
}
