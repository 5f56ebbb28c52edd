/**
 * Step 2 of the simulated identity app, a screen that step-page.ts puts in the app's page.
 * @see spec part 1 (the mobile identity app), 2.3 (what it reads from the document)
 */
import type { EmulatorContext } from '../../context';
import { personaMachineReadableZone } from '../../personas/mrz';
import { personalNumberText, type Persona } from '../../personas/personas';
import { SafeHtml, html } from '../html';
import { countryName } from '../labels';
import { alert, appForm, chosenPersona, portraitUrl, words, type ScreenOptions, type StepScreenOptions } from './app-page';

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
    // A full line when nothing shares it, or when a long name (Polismyndigheten) would break inside the word.
    [printed.authority, document.issuer.name, !personalNumber || document.issuer.name.length > 12],
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
export function scanScreen(context: EmulatorContext, options: StepScreenOptions): SafeHtml {
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
