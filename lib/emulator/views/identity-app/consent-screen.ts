/**
 * Step 5 of the simulated identity app, a screen that step-page.ts puts in the app's page.
 * @see spec part 1 (the mobile identity app), 2.3 (the claims request)
 */
import { formatDate } from '../../../i18n/format';
import type { ClaimName, DocumentDetail, EvidenceRequest } from '../../checks/claims-request';
import type { EmulatorContext } from '../../context';
import { personalNumberText, populationRegisterMatch, type Persona } from '../../personas/personas';
import type { AppMessages } from '../app-messages';
import { html, type SafeHtml } from '../html';
import { countryName, documentExpired } from '../labels';
import { alert, appClientLogo, appForm, chosenPersona, clientName, portraitUrl, words, type ScreenOptions, type StepScreenOptions } from './app-page';

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
export function consentScreen(context: EmulatorContext, options: StepScreenOptions): SafeHtml {
  const persona = chosenPersona(options.interaction);
  const { t, shared } = words(options);
  const { claims } = options.interaction.request;
  const name = clientName(options.client);
  const issuerCheck = persona.document.issuer_check?.valid;
  const etsiRefusal = claims.trustFramework === 'standard_etsi' && issuerCheck !== 'VALID';
  const evidenceDocument = claims.evidence.some((evidence) => evidence.type === 'document');
  return html`
<div class="client-heading">${appClientLogo(context, options, 40)}<h1>${t.shareHeading(name)}</h1></div>
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
