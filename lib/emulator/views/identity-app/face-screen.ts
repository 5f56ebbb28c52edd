/**
 * Step 4 of the simulated identity app, a screen that step-page.ts puts in the app's page.
 * @see spec part 1 (the mobile identity app)
 */
import type { EmulatorContext } from '../../context';
import { appLink } from '../../identity-app/links';
import { html, type SafeHtml } from '../html';
import { CHECK, CROSS, alert, appForm, checkRow, chosenPersona, clientName, portraitUrl, words, type StepScreenOptions } from './app-page';

/** Step 4: the face check, against the document portrait; a failure ends the app here. */
export function faceScreen(context: EmulatorContext, options: StepScreenOptions): SafeHtml {
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
