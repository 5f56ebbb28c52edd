/**
 * Step 1 of the simulated identity app, a screen that step-page.ts puts in the app's page.
 * @see spec part 1 (the mobile identity app)
 */
import type { EmulatorContext } from '../../context';
import { personas } from '../../personas/personas';
import { suggestedPersonaId } from '../client';
import { SafeHtml, html } from '../html';
import { capitalize, documentExpired, documentName } from '../labels';
import { alert, appClientLogo, appForm, clientName, portraitUrl, words, type StepScreenOptions } from './app-page';

const CHEVRON = new SafeHtml(
  '<svg class="chevron" width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="m9 5 7 7-7 7"/></svg>',
);

/**
 * Step 1: who asks (the client's name and logo), and whose document to verify (the test
 * personas). The persona chosen before (the Back button), else the one the client suggested
 * (login_hint), is the current choice.
 */
export function documentScreen(context: EmulatorContext, options: StepScreenOptions): SafeHtml {
  const suggested = suggestedPersonaId(options.interaction.request.loginHint);
  const current = options.interaction.app.personaId ?? suggested;
  const { t, shared } = words(options);
  const { locale } = options.language;
  const name = clientName(options.client);
  const choices = personas.map((persona) => {
    const tags = [
      persona.id === suggested ? html`<span class="tag suggested" data-testid="suggested-persona">${shared.personaTags.suggestedBy(name)}</span>` : '',
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
<p class="client-asks">${appClientLogo(context, options, 40)}<span>${t.clientAsks(name)}</span></p>
<h1>${t.steps.document}</h1>
<p class="lead">${t.chooseLead}</p>
${alert(options.message)}
${appForm(context, options, html`<input type="hidden" name="action" value="choose-document"><ul class="choices">${choices}</ul>`)}`;
}
