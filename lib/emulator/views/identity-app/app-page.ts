/**
 * What the screens of the simulated mobile identity app ("ID Check") share: a phone-sized,
 * server-rendered page with an app bar, "Step n of 5" progress and large touch targets; forms
 * that post to {base}/app/<id> (endpoints/identity-app.ts), so nothing needs JavaScript; and the
 * icons they draw. On a wide screen the app is drawn inside a phone frame. Every interpolated
 * value is escaped by `html`; the words are in the page's language (app-messages.ts,
 * views/language.ts). Each screen has a file of its own beside this one.
 * @see spec part 1 (the mobile identity app)
 */
import type { RegisteredClient } from '../../clients';
import { ENDPOINT_PATHS } from '../../config';
import type { EmulatorContext } from '../../context';
import { appLink, type AppMode } from '../../identity-app/links';
import { APP_STEPS, stepNumber, type AppStepId } from '../../identity-app/steps';
import { findPersona, type Persona } from '../../personas/personas';
import type { Interaction } from '../../state';
import { APP_MESSAGES, type AppMessages } from '../app-messages';
import { stylesheet } from '../assets';
import { SafeHtml, html } from '../html';
import { clientDisplayName, clientLogo, logoImageSources } from '../client';
import { languageSwitchNav, pathOf, type PageLanguage } from '../language';
import { EMULATOR_MESSAGES, type EmulatorMessages } from '../messages';
import { pageResponse } from '../page-shell';
import type { FlowAnswer } from '../../qa/flow-answers';
import { flowAnswerChooser, progressLine } from '../flow-answer-chooser';

const MARK = new SafeHtml(
  '<span class="mark" aria-hidden="true"><svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="#fff" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"><path d="M12 2.5 4.5 5.5v6c0 4.6 3.2 8.6 7.5 10 4.3-1.4 7.5-5.4 7.5-10v-6z"/><path d="m8.5 12 2.5 2.5 4.5-5"/></svg></span>',
);
const BACK_ICON = new SafeHtml(
  '<svg width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="m15 5-7 7 7 7"/></svg>',
);
const CLOSE_ICON = new SafeHtml(
  '<svg width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round" aria-hidden="true"><path d="M6 6l12 12M18 6 6 18"/></svg>',
);

/** A check mark and a cross in `color`: a result passed or failed. */
export const CHECK = (color: string, size = 18) =>
  new SafeHtml(
    `<svg width="${size}" height="${size}" viewBox="0 0 24 24" fill="none" stroke="${color}" stroke-width="3" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="m5 12.5 4.5 4.5L19 7.5"/></svg>`,
  );
export const CROSS = (color: string, size = 18) =>
  new SafeHtml(
    `<svg width="${size}" height="${size}" viewBox="0 0 24 24" fill="none" stroke="${color}" stroke-width="3" stroke-linecap="round" aria-hidden="true"><path d="M6.5 6.5l11 11M17.5 6.5l-11 11"/></svg>`,
  );

/** Neither passed nor failed: a check that cannot be made for this document. */
const NEUTRAL = new SafeHtml(
  '<svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="3" stroke-linecap="round" aria-hidden="true"><path d="M6.5 12h11"/></svg>',
);

/** What every screen of an open interaction is given. */
export interface ScreenOptions {
  interactionId: string;
  interaction: Interaction;
  client: RegisteredClient;
  mode: AppMode;
  /** the page's language; its switch comes back to the screen shown (appPage sets the way back) */
  language: PageLanguage;
  /** the answer QA chose for this flow, when this browser may choose one (views/flow-answer-chooser.ts); absent: no chooser */
  qa?: FlowAnswer;
}

/** What a step's screen is given: the screen's options, and a problem to show, in its words. */
export type StepScreenOptions = ScreenOptions & { message?: string };

/** The words of the app and the shared ones, in the screen's language. */
export function words(options: { language: PageLanguage }): { t: AppMessages; shared: EmulatorMessages } {
  return { t: APP_MESSAGES[options.language.locale], shared: EMULATOR_MESSAGES[options.language.locale] };
}

/** Where links and images of the app point: the base URL this device reached the app by. */
function baseUrl(context: EmulatorContext, mode: AppMode): string {
  return mode.sameDevice ? context.issuer : context.deviceBaseUrl;
}

/** The client's logo (views/client.ts) as this device can fetch it: one on the issuer's origin from the base URL it reached the app by. */
export function appClientLogo(context: EmulatorContext, options: Pick<ScreenOptions, 'client' | 'mode'>, size: number): SafeHtml | '' {
  return clientLogo(options.client, size, { issuer: context.issuer, baseUrl: baseUrl(context, options.mode) });
}

/** A persona's portrait, from the base URL this device reached the app by. */
export function portraitUrl(context: EmulatorContext, mode: AppMode, persona: Persona): string {
  return `${baseUrl(context, mode)}${ENDPOINT_PATHS.portraits}/${persona.id}.jpg`;
}

/** A form posting to the app, carrying the browser secret only on this device. */
export function appForm(context: EmulatorContext, options: ScreenOptions, content: SafeHtml): SafeHtml {
  const action = `${baseUrl(context, options.mode)}${ENDPOINT_PATHS.app}/${encodeURIComponent(options.interactionId)}`;
  const secret = options.mode.sameDevice
    ? html`<input type="hidden" name="browser" value="${options.mode.browserSecret}">`
    : options.mode.deviceSecret
      ? html`<input type="hidden" name="device" value="${options.mode.deviceSecret}">`
      : '';
  return html`<form method="post" action="${action}">${secret}${content}</form>`;
}

/** The client as the app names it: its registered name, else its id. */
export function clientName(client: RegisteredClient): string {
  return clientDisplayName(client);
}

/**
 * The origins the app's forms may post to (CSP `form-action`): the app's own base URL, and on
 * this device the client's, since Share and Cancel are answered there by the redirect to it.
 */
function appFormOrigins(context: EmulatorContext, options: ScreenOptions): string[] {
  const origins = [new URL(baseUrl(context, options.mode)).origin];
  if (options.mode.sameDevice) origins.push(new URL(options.interaction.request.redirectUri).origin);
  return origins;
}

/** The chooser of this flow's answer on a screen: it posts with the screen's binding and comes back to the screen. */
function qaChooser(context: EmulatorContext, options: ScreenOptions, current: FlowAnswer, step: AppStepId | undefined) {
  const binding: Record<string, string> = options.mode.sameDevice
    ? { browser: options.mode.browserSecret }
    : options.mode.deviceSecret
      ? { device: options.mode.deviceSecret }
      : {};
  return {
    action: `${baseUrl(context, options.mode)}${ENDPOINT_PATHS.app}/${encodeURIComponent(options.interactionId)}`,
    fields: { ...binding, ...(step ? { step } : {}) },
    current,
  };
}

/** The app's page around a screen: app bar (back, name, cancel), progress, content, the language switch below. */
export function appPage(
  context: EmulatorContext,
  options: ScreenOptions & { status: number; title: string; step?: AppStepId; content: SafeHtml; cancellable: boolean },
): Response {
  const { step } = options;
  const { t } = words(options);
  const number = step ? stepNumber(step) : 0;
  const previous = number > 1 ? APP_STEPS[number - 2]!.id : undefined;
  const back = previous
    ? html`<a class="icon" href="${appLink(context, options.interactionId, options.mode, previous)}" aria-label="${t.backTo(t.steps[previous])}">${BACK_ICON}</a>`
    : html`<span></span>`;
  const cancel = options.cancellable
    ? appForm(
        context,
        options,
        html`<button class="icon" type="submit" name="outcome" value="cancel" aria-label="${t.cancelVerification}" data-testid="cancel-verification">${CLOSE_ICON}</button>`,
      )
    : html`<span></span>`;
  const progress = step
    ? html`<div class="progress">
<p class="progress-label" data-testid="app-step">${t.stepOf(number, APP_STEPS.length)}</p>
<ol class="progress-bar" aria-hidden="true">${APP_STEPS.map((_, index) => html`<li class="${index < number ? 'done' : ''}"></li>`)}</ol>
</div>`
    : '';
  // The switch comes back to this screen by GET (a screen shown after a refused post too).
  const language = { ...options.language, returnTo: pathOf(appLink(context, options.interactionId, options.mode, step)) };
  const body = html`
<div class="device">
<header class="appbar">${back}<p class="app-name">${MARK}${t.appName}</p>${cancel}</header>
<main class="screen"${options.mode.sameDevice ? html` data-returns-to-client` : ''}>${progress}${options.content}${progressLine(language.locale, clientName(options.client))}</main>
${options.qa ? html`<div class="qa">${flowAnswerChooser(language.locale, qaChooser(context, options, options.qa, step))}</div>` : ''}
${languageSwitchNav(language)}
</div>
<footer class="below">${t.footer(clientName(options.client))}</footer>`;
  const origins = [new URL(context.issuer).origin, new URL(context.deviceBaseUrl).origin];
  return pageResponse({
    status: options.status,
    locale: language.locale,
    theme: language.theme,
    title: t.pageTitle(options.title),
    styles: stylesheet('app'),
    body,
    layout: 'phone',
    // The steps' one script (no inline script): it shows a pressed button working.
    sources: {
      images: [...origins, ...logoImageSources(options.client)],
      forms: appFormOrigins(context, options),
      scripts: step ? [`${baseUrl(context, options.mode)}${ENDPOINT_PATHS.authorizationPageScript}`] : undefined,
    },
  });
}

/** A problem to show on a screen, if there is one. */
export function alert(message: string | undefined): SafeHtml | string {
  return message ? html`<p class="alert" role="alert">${message}</p>` : '';
}

/** The persona whose document the app verifies, chosen at the first step. */
export function chosenPersona(interaction: Interaction): Persona {
  const persona = interaction.app.personaId === undefined ? undefined : findPersona(interaction.app.personaId);
  // Unreachable: endpoints/identity-app.ts shows a step after "document" only once a persona is chosen.
  if (!persona) throw new Error('a step after choosing the document was shown without a persona');
  return persona;
}

/** A row of a result list: a check mark, a cross, or a dash for a check that cannot be made. */
export function checkRow(result: 'passed' | 'failed' | 'not available', text: SafeHtml | string): SafeHtml {
  const icon = result === 'passed' ? CHECK('currentColor') : result === 'failed' ? CROSS('currentColor') : NEUTRAL;
  // The icon takes its colour from the row's result (app.css), in light and dark alike.
  return html`<li data-result="${result === 'not available' ? 'unavailable' : result}">${icon}<span>${text}</span></li>`;
}

/** A page of the app without an interaction to act on: the app bar, the content, the language switch. */
export function standalonePage(context: EmulatorContext, language: PageLanguage, options: { status: number; title: string; content: SafeHtml }): Response {
  const t = APP_MESSAGES[language.locale];
  const body = html`
<div class="device">
<header class="appbar"><span></span><p class="app-name">${MARK}${t.appName}</p><span></span></header>
<main class="screen">${options.content}</main>
${languageSwitchNav(language)}
</div>`;
  const origins = [new URL(context.issuer).origin, new URL(context.deviceBaseUrl).origin];
  return pageResponse({
    status: options.status,
    locale: language.locale,
    theme: language.theme,
    title: t.pageTitle(options.title),
    styles: stylesheet('app'),
    body,
    layout: 'phone',
    sources: { images: origins },
  });
}
