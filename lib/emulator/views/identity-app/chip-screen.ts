/**
 * Step 3 of the simulated identity app, a screen that step-page.ts puts in the app's page.
 * @see spec part 1 (the mobile identity app), 2.3 `active_authentication_result`, `issuer_check`
 */
import type { EmulatorContext } from '../../context';
import { appLink } from '../../identity-app/links';
import { SafeHtml, html } from '../html';
import { documentName } from '../labels';
import { CHECK, alert, appForm, checkRow, chosenPersona, words, type StepScreenOptions } from './app-page';

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

/** Step 3: read the chip over NFC; then the result of active authentication. */
export function chipScreen(context: EmulatorContext, options: StepScreenOptions): SafeHtml {
  const persona = chosenPersona(options.interaction);
  const { t, shared } = words(options);
  const { document } = persona;
  const passport = document.type === 'passport';
  if (!options.interaction.app.chipRead) {
    return html`
<p class="toast" role="status">${CHECK('currentColor')}${t.scanned(documentName(persona, options.language.locale))}</p>
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
