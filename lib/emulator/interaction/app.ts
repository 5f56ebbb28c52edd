/**
 * The simulated mobile identity app: GET and POST {base}/app/<interaction id>. Five screens,
 * each a server-rendered page whose buttons are plain form posts (no JavaScript):
 * choose the persona's document, scan it, read its chip, check the face, consent.
 *
 * Progress is kept in the interaction on the server (interaction/steps.ts): a request for a later step
 * than the progress allows is redirected back (GET) or refused with 409 (POST), so nobody can
 * skip to "share". The final Share / Cancel use the authorization endpoint's decision logic.
 *
 * Opened with the browser secret (the "Use the app on this device" link), the app redirects this
 * browser to the client at the end. Opened without it (from the QR code, on a phone), it keeps
 * the decision for the starting browser and tells the user to return to the computer.
 * @see spec part 1 (steps 4–6), 4.2
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { queryParameters, readFormBody, type RequestParameters } from '../checks/request-parameters';
import type { EmulatorContext } from '../context';
import { InvalidRequest, describeValue } from '../errors';
import { findPersona } from '../personas/personas';
import { randomToken, type Interaction } from '../state';
import type { AppMessages } from '../views/app-messages';
import { appDonePage, appFinishedPage, appScreenPage } from '../views/app-pages';
import { withErrorPage } from '../views/authorization-page';
import { pageLanguage, pathOf } from '../views/language';
import { seeOther } from '../views/page-shell';
import { completeInteraction, decide } from './decision';
import { interactionClient, requireStartingBrowser } from './interaction';
import { appLink, type AppMode } from './links';
import { furthestStep, isAppStep, stepNumber, type AppStepId } from './steps';

/** The app's step actions (form field `action`) and the step each one needs to be reachable. */
const ACTIONS = {
  'choose-document': 'document',
  'scan-document': 'scan',
  'read-chip': 'chip',
  'check-face': 'face',
} as const satisfies Record<string, AppStepId>;

type Action = keyof typeof ACTIONS;

function isAction(value: string): value is Action {
  return Object.hasOwn(ACTIONS, value);
}

function sameSecret(expected: string, presented: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(expected), digest(presented));
}

/**
 * This device (a valid `browser`), the phone bound to this verification (a valid `device`), or a
 * phone opening the QR link for the first time (`unbound`). Anything else is refused: the QR code
 * can be seen by anyone near the screen, so only the first device to open it may use it.
 */
function appMode(interaction: Interaction, parameters: RequestParameters): AppMode | 'unbound' {
  const browser = parameters.get('browser');
  if (browser !== undefined) {
    requireStartingBrowser(interaction, browser);
    return { sameDevice: true, browserSecret: browser };
  }
  const bound = interaction.app.deviceSecret;
  const device = parameters.get('device');
  if (bound === undefined) {
    if (device !== undefined) throw new InvalidRequest('this device link is not valid for this verification', 403).because('device_link_invalid');
    return 'unbound';
  }
  if (device === undefined || !sameSecret(bound, device)) {
    throw new InvalidRequest('this verification is already open on another device; start again on the computer to use this one', 409).because(
      'open_on_another_device',
    );
  }
  return { sameDevice: false, deviceSecret: bound };
}

/**
 * The open interaction, or the response for one that is not open: the "finished" screen once it
 * has been completed (a phone reloading after the computer continued), else the error page.
 */
async function openInteraction(
  request: Request,
  context: EmulatorContext,
  interactionId: string,
  method: 'GET' | 'POST',
): Promise<Interaction | Response> {
  const interaction = await context.interactions.get(interactionId);
  if (interaction) return interaction;
  if (await context.interactions.wasTaken(interactionId)) {
    if (method === 'GET') return appFinishedPage(context, pageLanguage(request, context));
    throw new InvalidRequest('this verification has already been completed').because('verification_completed');
  }
  throw new InvalidRequest('this verification is unknown or has expired; start again from the application').because('verification_unknown');
}

/** The way back for the switch of an error page after a post: the app by GET, with the secret the post carried. */
function postReturnPath(context: EmulatorContext, interactionId: string, parameters: RequestParameters): string | undefined {
  const browser = parameters.get('browser');
  if (browser !== undefined) return pathOf(appLink(context, interactionId, { sameDevice: true, browserSecret: browser }));
  const device = parameters.get('device');
  return device === undefined ? undefined : pathOf(appLink(context, interactionId, { sameDevice: false, deviceSecret: device }));
}

/**
 * Handles GET /app/<id>?step=…[&browser=…]: shows a step (by default the furthest one the
 * progress allows); a later step than allowed is answered with 303 to the allowed one. After the
 * app decided, every step shows the "done" screen.
 */
export function appScreenEndpoint(request: Request, context: EmulatorContext, interactionId: string): Promise<Response> {
  return withErrorPage(request, context, async (hints) => {
    const parameters = queryParameters(new URL(request.url));
    const open = await openInteraction(request, context, interactionId, 'GET');
    if (open instanceof Response) return open;
    const interaction = open;
    hints.uiLocales = interaction.request.uiLocales;
    const requested = parameters.get('step');
    if (requested !== undefined && !isAppStep(requested)) {
      throw new InvalidRequest(`step ${describeValue(requested)} is not a step of the app`).because('unknown_step');
    }
    // HEAD (a link preview, a prefetch) must not change anything: no binding, no "opened".
    const safe = request.method.toUpperCase() === 'HEAD';
    let mode = appMode(interaction, parameters);
    if (mode === 'unbound') {
      if (safe) return new Response(null, { status: 200, headers: { 'cache-control': 'no-store' } });
      // The first device to open the QR link gets its own secret; the link it continues with
      // carries it. Claimed atomically: of two phones opening it at once, one is bound.
      const deviceSecret = randomToken();
      const ttlSeconds = (interaction.expiresAt - context.now()) / 1000;
      if (ttlSeconds <= 0 || !(await context.interactionDevices.setIfAbsent(interactionId, deviceSecret, ttlSeconds))) {
        throw new InvalidRequest('this verification is already open on another device; start again on the computer to use this one', 409).because(
          'open_on_another_device',
        );
      }
      interaction.app.deviceSecret = deviceSecret;
      await context.interactions.update(interactionId, interaction);
      mode = { sameDevice: false, deviceSecret };
      return seeOther(appLink(context, interactionId, mode, requested));
    }
    const client = interactionClient(context, interaction);
    const language = pageLanguage(request, context, hints);
    if (interaction.decision) return appDonePage(context, { interactionId, interaction, client, mode, language });

    // The starting browser polls for this: the phone has opened the app.
    if (!mode.sameDevice && !safe && !interaction.app.openedElsewhere) {
      interaction.app.openedElsewhere = true;
      await context.interactions.update(interactionId, interaction);
    }

    const furthest = furthestStep(interaction.app);
    const step = requested ?? furthest;
    if (stepNumber(step) > stepNumber(furthest)) return seeOther(appLink(context, interactionId, mode, furthest));
    return appScreenPage(context, { interactionId, interaction, client, mode, step, language });
  });
}

/**
 * Handles POST /app/<id>, the app's buttons: `action` (choose-document with `persona`,
 * scan-document, read-chip, check-face) advances the progress and answers 303 to the next
 * screen; `outcome` (approve, cancel) decides. An action or approval whose step is not reached
 * yet is refused (409, with the allowed screen); malformed input is 400.
 * @see spec part 1, 4.2
 */
export function appActionEndpoint(request: Request, context: EmulatorContext, interactionId: string): Promise<Response> {
  return withErrorPage(request, context, async (hints) => {
    const parameters = await readFormBody(request);
    hints.returnTo = postReturnPath(context, interactionId, parameters);
    const open = await openInteraction(request, context, interactionId, 'POST');
    if (open instanceof Response) return open;
    const interaction = open;
    hints.uiLocales = interaction.request.uiLocales;
    const mode = appMode(interaction, parameters);
    if (mode === 'unbound') throw new InvalidRequest('open the app from its link first', 403).because('open_app_from_link');
    const client = interactionClient(context, interaction);
    const progress = interaction.app;
    /** Writes the progress back (it lives in the store), then shows the next screen. */
    const saveThen = async (location: string) => {
      if (!(await context.interactions.update(interactionId, interaction))) {
        throw new InvalidRequest('this verification has already been completed').because('verification_completed');
      }
      return seeOther(location);
    };
    if (interaction.decision) return seeOther(appLink(context, interactionId, mode));

    const furthest = furthestStep(progress);
    const language = pageLanguage(request, context, hints);
    const refuse = (message: (t: AppMessages) => string, status: number, step: AppStepId = furthest) =>
      appScreenPage(context, { interactionId, interaction, client, mode, step, message, status, language });

    const action = parameters.get('action');
    const outcome = parameters.get('outcome');
    if (action !== undefined && outcome !== undefined) return refuse((t) => t.actionAndOutcome, 400);

    if (outcome !== undefined) {
      if (outcome === 'cancel') return finish(context, interactionId, interaction, mode, { outcome: 'cancel' });
      if (outcome !== 'approve') return refuse((t) => t.unknownOutcome(describeValue(outcome)), 400);
      const persona = progress.personaId === undefined ? undefined : findPersona(progress.personaId);
      // Approval needs every step done. A failed face check ends at the face step: finishing
      // there reports the failure, since that persona can never reach consent.
      const faceFailed = persona?.faceCheck === 'fail' && progress.faceChecked && furthest === 'face';
      if (!persona || (furthest !== 'consent' && !faceFailed)) {
        return refuse((t) => t.everyStepFirst, 409);
      }
      // Consent is to the document the screen showed: if the progress changed since (another
      // tab chose another document), the approval is not for this one.
      if (parameters.get('persona') !== persona.id) {
        return refuse((t) => t.documentChanged, 409);
      }
      return finish(context, interactionId, interaction, mode, { outcome: 'approve', persona });
    }

    if (action === undefined || !isAction(action)) {
      return refuse((t) => (action === undefined ? t.chooseWhatToDo : t.unknownAction(describeValue(action))), 400);
    }
    if (stepNumber(ACTIONS[action]) > stepNumber(furthest)) return refuse((t) => t.stepFirst, 409);

    switch (action) {
      case 'choose-document': {
        const personaId = parameters.get('persona');
        const persona = personaId === undefined ? undefined : findPersona(personaId);
        if (!persona) return refuse((t) => (personaId === undefined ? t.chooseDocument : t.unknownPersona), 400, 'document');
        // Another document starts the checks again.
        interaction.app = { ...progress, personaId: persona.id, documentScanned: false, chipRead: false, faceChecked: false };
        return saveThen(appLink(context, interactionId, mode, 'scan'));
      }
      case 'scan-document':
        progress.documentScanned = true;
        return saveThen(appLink(context, interactionId, mode, 'chip'));
      case 'read-chip':
        progress.chipRead = true;
        // The chip screen again, now with the result of active authentication.
        return saveThen(appLink(context, interactionId, mode, 'chip'));
      case 'check-face':
        progress.faceChecked = true;
        return saveThen(appLink(context, interactionId, mode, 'face'));
    }
  });
}

/**
 * The end of the app: the shared decision logic, then on this device the redirect to the
 * client, on another device the decision kept for the starting browser and the "done" screen.
 */
async function finish(
  context: EmulatorContext,
  interactionId: string,
  interaction: Interaction,
  mode: AppMode,
  choice: Parameters<typeof decide>[2],
): Promise<Response> {
  const decision = decide(context, interaction, choice);
  // mode.sameDevice was proven by the browser secret (appMode), so the code may go to this browser.
  if (mode.sameDevice) return completeInteraction(context, interactionId, decision);
  interaction.decision = decision;
  if (!(await context.interactions.update(interactionId, interaction))) {
    throw new InvalidRequest('this verification has already been completed').because('verification_completed');
  }
  return seeOther(appLink(context, interactionId, mode));
}
