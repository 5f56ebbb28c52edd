/**
 * The conformance page: a form that starts a run of the conformance kit against a registered
 * client, and a run's page, which shows the progress (reloading itself every 2 seconds while
 * the run goes: no script) and then the verdict with links to the reports. The panel's look and
 * shell; the words in the page's language (conformance-messages.ts).
 * @see endpoints/conformance.ts, qa/conformance-host.ts
 */
import type { ConformanceDefaults, ConformanceRunStatus } from '../qa/conformance-host';
import { html, type SafeHtml } from './html';
import type { PageLanguage } from './language';
import { CONFORMANCE_MESSAGES, type ConformanceMessages } from './conformance-messages';
import { PANEL_MESSAGES } from './panel-messages';
import { CONFORMANCE_PATH, panelPath, panelResponse } from './panel-page';

/** How often a run's page reloads itself while the run goes. */
export const RUN_PAGE_REFRESH_SECONDS = 2;

/** The form's fields as sent, to show them again with a problem. */
export interface ConformanceFormValues {
  clientId?: string;
  startUrl?: string;
  startSelector?: string;
  cases?: string;
  jwksCooldownSeconds?: string;
}

export interface ConformanceFormView {
  language: PageLanguage;
  /** whether the host runs the kit; when not, the page says how to run it instead */
  available: boolean;
  clients: readonly { clientId: string; name?: string }[];
  defaults: ConformanceDefaults;
  values?: ConformanceFormValues;
  /** what is wrong with the form sent (400), or that a run is going (409) */
  problem?: (t: ConformanceMessages) => string;
  /** the run that is going, when a start was refused for it */
  runningRunId?: string;
  status?: number;
}

/** A run's page under the base path. */
export function runPath(basePath: string, runId: string): string {
  return `${basePath}${CONFORMANCE_PATH}/runs/${encodeURIComponent(runId)}`;
}

/** The JWKS cooldown the form starts with: 30 s for the host app's own client (its core waits 30 s), else openid-client's 60 s. */
export function defaultJwksCooldown(clientId: string | undefined, defaults: ConformanceDefaults): number {
  return clientId !== undefined && clientId === defaults.clientId ? 30 : 60;
}

function header(t: ConformanceMessages, language: PageLanguage, heading: string): SafeHtml {
  return html`
<header>
<p class="app">${PANEL_MESSAGES[language.locale].app}</p>
<h1>${heading}</h1>
<p class="muted">${t.lead}</p>
<p><a href="${panelPath(language.basePath)}" data-testid="back-to-panel">${t.backToPanel}</a></p>
</header>`;
}

/** GET {base}/conformance: the form (or, without a host, how to run the kit from a checkout). */
export function conformanceFormPage(view: ConformanceFormView): Response {
  const t = CONFORMANCE_MESSAGES[view.language.locale];
  const { basePath } = view.language;
  if (!view.available) {
    const body = html`${header(t, view.language, t.heading)}
<section aria-labelledby="conformance-unavailable">
<p class="callout" role="note" id="conformance-unavailable" data-testid="conformance-unavailable">${t.notAvailable}</p>
<p>${t.runItYourself}</p>
<pre class="conformance-lines"><code>npm run conformance -- --client-id my-rp --start-url http://localhost:8000/</code></pre>
</section>`;
    return panelResponse(view.language, view.status ?? 200, t.title, body);
  }
  const values = view.values ?? {};
  const clientId = values.clientId ?? view.defaults.clientId ?? view.clients[0]?.clientId;
  const cooldown = values.jwksCooldownSeconds ?? String(defaultJwksCooldown(clientId, view.defaults));
  const problem = view.problem
    ? html`<div class="alert" role="alert" data-testid="conformance-problem"><p>${view.problem(t)}</p>${
        view.runningRunId ? html`<p><a href="${runPath(basePath, view.runningRunId)}" data-testid="conformance-running-link">${t.busyLink}</a></p>` : ''
      }</div>`
    : '';
  const body = html`${header(t, view.language, t.heading)}
${problem}
<section aria-labelledby="conformance-form-heading">
<h2 id="conformance-form-heading">${t.run}</h2>
<form method="post" action="${basePath}${CONFORMANCE_PATH}" class="conformance-form" data-testid="conformance-form">
<label for="conformance-client">${t.client}</label>
<select id="conformance-client" name="client_id" required>
${view.clients.map((client) => html`<option value="${client.clientId}"${client.clientId === clientId ? html` selected` : ''}>${client.name ? `${client.name} (${client.clientId})` : client.clientId}</option>`)}
</select>
<label for="conformance-start-url">${t.startUrl}</label>
<input id="conformance-start-url" name="start_url" type="url" required value="${values.startUrl ?? view.defaults.startUrl ?? ''}" aria-describedby="conformance-start-url-hint">
<p class="hint" id="conformance-start-url-hint">${t.startUrlHint}</p>
<label for="conformance-start-selector">${t.startSelector}</label>
<input id="conformance-start-selector" name="start_selector" type="text" maxlength="200" value="${values.startSelector ?? view.defaults.startSelector ?? ''}" aria-describedby="conformance-start-selector-hint">
<p class="hint" id="conformance-start-selector-hint">${t.startSelectorHint}</p>
<label for="conformance-cases">${t.cases}</label>
<input id="conformance-cases" name="cases" type="text" value="${values.cases ?? ''}" aria-describedby="conformance-cases-hint">
<p class="hint" id="conformance-cases-hint">${t.casesHint}</p>
<label for="conformance-cooldown">${t.jwksCooldown}</label>
<input id="conformance-cooldown" name="jwks_cooldown" type="number" min="0" max="3600" step="1" required value="${cooldown}" aria-describedby="conformance-cooldown-hint">
<p class="hint" id="conformance-cooldown-hint">${t.jwksCooldownHint(Number(defaultJwksCooldown(clientId, view.defaults)))}</p>
<button class="primary" type="submit">${t.run}</button>
</form>
</section>`;
  return panelResponse(view.language, view.status ?? 200, t.title, body);
}

/** GET {base}/conformance/runs/{id}: the progress, then the verdict and the reports. */
export function conformanceRunPage(language: PageLanguage, runId: string, status: ConformanceRunStatus): Response {
  const t = CONFORMANCE_MESSAGES[language.locale];
  const { basePath } = language;
  const file = (name: string) => `${runPath(basePath, runId)}/${encodeURIComponent(name)}`;
  const stateWord = status.state === 'running' ? t.running : status.state === 'done' ? t.done : t.failed;
  const screenshots = (status.files ?? []).filter((name) => name.endsWith('.png'));
  const verdict =
    status.state === 'done'
      ? html`
<p class="${status.passed ? 'notice' : 'alert'}" data-testid="conformance-summary" data-passed="${String(status.passed === true)}">${status.passed ? t.passedVerdict : t.failedVerdict} ${status.summary ?? ''}</p>
<ul>
${(status.files ?? []).includes('index.html') ? html`<li><a href="${file('index.html')}" data-testid="conformance-report">${t.report}</a></li>` : ''}
${(status.files ?? []).includes('junit.xml') ? html`<li><a href="${file('junit.xml')}" data-testid="conformance-junit">${t.junit}</a></li>` : ''}
</ul>
${screenshots.length > 0 ? html`<h2>${t.screenshots}</h2><ul>${screenshots.map((name) => html`<li><a href="${file(name)}">${name}</a></li>`)}</ul>` : ''}`
      : status.state === 'failed'
        ? html`<p class="alert" role="alert" data-testid="conformance-error">${status.error ?? ''}</p>`
        : html`<p class="muted">${t.refreshes}</p>`;
  const body = html`${header(t, language, t.runHeading(runId))}
<section aria-labelledby="conformance-run-heading">
<h2 id="conformance-run-heading"><span class="tag${status.state === 'failed' ? ' warn' : status.state === 'done' ? ' on' : ''}" data-testid="conformance-state" data-state="${status.state}">${stateWord}</span>
<span data-testid="conformance-progress" data-done="${String(status.done)}" data-total="${String(status.total)}">${t.progress(status.done, status.total)}</span></h2>
${verdict}
${status.lines.length > 0 ? html`<pre class="conformance-lines" data-testid="conformance-lines">${status.lines.join('\n')}</pre>` : ''}
${status.state === 'running' ? '' : html`<p><a href="${basePath}${CONFORMANCE_PATH}">${t.newRun}</a></p>`}
</section>`;
  return panelResponse(language, 200, t.title, body, [], status.state === 'running' ? RUN_PAGE_REFRESH_SECONDS : undefined);
}

/** A refusal of the conformance page (an unknown run or file: 404), with the way back to its form. */
export function conformanceErrorPage(language: PageLanguage, status: number, message: (t: ConformanceMessages) => string): Response {
  const t = CONFORMANCE_MESSAGES[language.locale];
  const body = html`${header(t, language, t.heading)}
<p class="alert" role="alert" data-testid="conformance-problem">${message(t)}</p>
<p><a href="${language.basePath}${CONFORMANCE_PATH}">${t.newRun}</a></p>`;
  return panelResponse(language, status, t.title, body);
}
