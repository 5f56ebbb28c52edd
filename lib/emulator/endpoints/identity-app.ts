/**
 * The simulated mobile identity app: GET and POST {base}/app/<interaction id>. Five screens,
 * each a server-rendered page whose buttons are plain form posts (no JavaScript):
 * choose the persona's document, scan it, read its chip, check the face, consent.
 *
 * Progress is kept in the interaction on the server (identity-app/steps.ts): a request for a later
 * step than the progress allows is redirected back (GET) or refused with 409 (POST), so nobody can
 * skip to "share". The final Share / Cancel use the authorization endpoint's decision logic.
 *
 * Opened with the browser secret (the "Use the app on this device" link), the app redirects this
 * browser to the client at the end. Opened without it (from the QR code, on a phone), the phone
 * first shows a code that must be typed on the computer (identity-app/phone-confirmation.ts); the
 * confirmed phone then uses the app, keeps the decision for the starting browser and tells the
 * user to return to the computer. The computer's form that confirms a phone posts here too
 * (`action=confirm-phone`, with the browser secret).
 * @see spec part 1 (steps 4–6), 4.2
 */
import { queryParameters, readFormBody, type RequestParameters } from '../checks/request-parameters';
import type { EmulatorContext } from '../context';
import { InvalidRequest, describeValue } from '../errors';
import { flowAnswerFor, mayChooseFlowAnswers } from '../qa/choose-flow-answer';
import { decodeFlowAnswer } from '../qa/flow-answers';
import { crossSiteReason } from './language';
import { findPersona } from '../personas/personas';
import type { Interaction, WaitingPhone } from '../state';
import type { AppMessages } from '../views/app-messages';
import { appConfirmPage } from '../views/identity-app/confirm-page';
import { appDonePage } from '../views/identity-app/done-page';
import { appFinishedPage } from '../views/identity-app/finished-page';
import { appHandOffRefusedPage } from '../views/identity-app/hand-off-refused-page';
import { appScreenPage } from '../views/identity-app/step-page';
import { interactionPage, withErrorPage } from '../views/authorization-page';
import type { AuthorizationMessages } from '../views/authorization-messages';
import { pageLanguage, pathOf, type LanguageHints } from '../views/language';
import { seeOther } from '../views/page-shell';
import { completeInteraction, decide } from '../identity-app/decision';
import { interactionClient, requireStartingBrowser } from '../identity-app/interaction';
import { appLink, authorizationPageLink, type AppMode } from '../identity-app/links';
import { completedInteraction } from '../identity-app/used-flows';
import {
  addWaitingPhone,
  confirmPhone,
  formatConfirmationCode,
  handOffLocked,
  normalizeConfirmationCode,
  phoneConfirmed,
  phoneShowing,
  recordWrongCode,
  sameSecret,
  waitingPhone,
  waitingPhones,
  waitEnded,
} from '../identity-app/phone-confirmation';
import { furthestStep, isAppStep, stepNumber, type AppStepId } from '../identity-app/steps';

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

/** The computer's action that confirms a phone by the code it shows (the authorization page's form). */
const CONFIRM_PHONE = 'confirm-phone';

/** QA's action that chooses how the service answers this flow (views/flow-answer-chooser.ts). */
const CHOOSE_ANSWER = 'choose-answer';

/** Whether `device` is the device secret of the phone the computer confirmed (compared in constant time). */
function isConfirmedPhone(interaction: Interaction, device: string | undefined): device is string {
  const confirmed = interaction.app.deviceSecret;
  return confirmed !== undefined && device !== undefined && sameSecret(confirmed, device);
}

/**
 * Who may use the app: this device (a valid `browser`), or the phone the computer confirmed (its
 * `device`). Any other phone gets a page instead of the app: once a phone is confirmed, "being
 * completed on another device" (409); while the hand-off is locked, "locked" (403). A phone
 * still waiting for confirmation at `now` is `waiting`, anything else `unknown` (the bare QR
 * link, a phone whose wait ended, or a device secret this verification does not know); the
 * caller decides what those get.
 */
function appAccess(
  interaction: Interaction,
  parameters: RequestParameters,
  now: number,
): AppMode | { refused: 'elsewhere' | 'locked' } | { waiting: WaitingPhone } | 'unknown' {
  const browser = parameters.get('browser');
  if (browser !== undefined) {
    requireStartingBrowser(interaction, browser);
    return { sameDevice: true, browserSecret: browser };
  }
  const device = parameters.get('device');
  if (isConfirmedPhone(interaction, device)) return { sameDevice: false, deviceSecret: device };
  if (phoneConfirmed(interaction)) return { refused: 'elsewhere' };
  if (handOffLocked(interaction)) return { refused: 'locked' };
  const waiting = device === undefined ? undefined : waitingPhone(interaction, device, now);
  return waiting ? { waiting } : 'unknown';
}

/** A phone's page instead of the app: refused (409 another device, 403 locked), or its code to confirm. */
function isPhonePage(access: ReturnType<typeof appAccess>): access is { refused: 'elsewhere' | 'locked' } | { waiting: WaitingPhone } {
  return typeof access === 'object' && ('refused' in access || 'waiting' in access);
}

/**
 * The open interaction, or the response for one that is not open: the "finished" screen once it
 * has been completed (a phone reloading after the computer continued), else the error page.
 */
async function openInteraction(request: Request, context: EmulatorContext, interactionId: string, method: 'GET' | 'POST'): Promise<Interaction | Response> {
  const interaction = await context.interactions.get(interactionId);
  if (interaction) return interaction;
  if (await context.interactions.wasTaken(interactionId)) {
    if (method === 'GET') return appFinishedPage(context, pageLanguage(request, context), await completedInteraction(context, interactionId));
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
 * Handles GET /app/<id>?step=…[&browser=…|&device=…]: shows a step (by default the furthest one
 * the progress allows); a later step than allowed is answered with 303 to the allowed one. After
 * the app decided, every step shows the "done" screen. A phone opening the QR link gets a device
 * secret and a code (303 to its own link), and sees the code until the computer confirms it.
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
    // HEAD (a link preview, a prefetch) must not change anything: no new waiting phone.
    const safe = request.method.toUpperCase() === 'HEAD';
    const access = appAccess(interaction, parameters, context.now());
    if (access === 'unknown') {
      if (safe) return new Response(null, { status: 200, headers: { 'cache-control': 'no-store' } });
      return phoneOpensLink(context, interactionId, interaction);
    }
    if (isPhonePage(access)) {
      // The code again: "Continue" asks for the first step, which is not open to the phone yet.
      return phonePage(request, context, interactionId, interaction, hints, access, requested === undefined ? undefined : (t) => t.notConfirmedYet);
    }
    const mode = access;
    const client = interactionClient(context, interaction);
    const language = pageLanguage(request, context, hints);
    if (interaction.decision) return appDonePage(context, { interactionId, interaction, client, mode, language });

    const furthest = furthestStep(interaction.app);
    const step = requested ?? furthest;
    if (stepNumber(step) > stepNumber(furthest)) return seeOther(appLink(context, interactionId, mode, furthest));
    return appScreenPage(context, { interactionId, interaction, client, mode, step, language, qa: await flowAnswerFor(request, context, interaction) });
  });
}

/**
 * A phone opens the QR link (or a link with a device secret this verification does not know): it
 * becomes a waiting phone with its own secret and code, and is sent (303) to its own link, which
 * shows the code. Nothing is claimed: only the computer's confirmation gives a phone the app.
 */
async function phoneOpensLink(context: EmulatorContext, interactionId: string, interaction: Interaction): Promise<Response> {
  const phone = addWaitingPhone(interaction, context.now());
  if ('retryAfterSeconds' in phone) {
    throw new InvalidRequest(`too many devices are waiting for a code for this verification; try again in ${phone.retryAfterSeconds} s`, 409, {
      'Retry-After': String(phone.retryAfterSeconds),
    }).because('too_many_phones');
  }
  if (!(await context.interactions.update(interactionId, interaction))) {
    throw new InvalidRequest('this verification has already been completed').because('verification_completed');
  }
  return seeOther(appLink(context, interactionId, { sameDevice: false, deviceSecret: phone.deviceSecret }));
}

/** The page a phone gets instead of the app: refused, or the code it must have typed on the computer. */
function phonePage(
  request: Request,
  context: EmulatorContext,
  interactionId: string,
  interaction: Interaction,
  hints: LanguageHints,
  access: { refused: 'elsewhere' | 'locked' } | { waiting: WaitingPhone },
  message?: (t: AppMessages) => string,
  status?: number,
): Response {
  if ('refused' in access) {
    return appHandOffRefusedPage(context, pageLanguage(request, context, hints), access.refused === 'elsewhere' ? 409 : 403, access.refused);
  }
  const phone = access.waiting;
  const mode: AppMode = { sameDevice: false, deviceSecret: phone.deviceSecret };
  // The switch comes back to the code, by the phone's own link.
  const language = pageLanguage(request, context, { ...hints, returnTo: pathOf(appLink(context, interactionId, mode)) });
  return appConfirmPage(context, {
    interactionId,
    interaction,
    client: interactionClient(context, interaction),
    mode,
    language,
    code: formatConfirmationCode(phone.code),
    message,
    status: status ?? (message ? 409 : 200),
  });
}

/**
 * Handles POST /app/<id>, the app's buttons: `action` (choose-document with `persona`,
 * scan-document, read-chip, check-face) advances the progress and answers 303 to the next
 * screen; `outcome` (approve, cancel) decides. An action or approval whose step is not reached
 * yet is refused (409, with the allowed screen); malformed input is 400. A phone the computer has
 * not confirmed is refused (403 with its code, 409 once another phone is confirmed, 403 while the
 * hand-off is locked). `action=confirm-phone` is the computer's confirmation of a phone.
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
    if (parameters.get('action') === CONFIRM_PHONE) return computerConfirmsPhone(request, context, interactionId, interaction, parameters, hints);
    if (parameters.get('action') === CHOOSE_ANSWER) return chooseAnswer(request, context, interactionId, interaction, parameters);
    const access = appAccess(interaction, parameters, context.now());
    if (access === 'unknown') throw new InvalidRequest('open the app from its link first', 403).because('open_app_from_link');
    if (isPhonePage(access)) return phonePage(request, context, interactionId, interaction, hints, access, (t) => t.notConfirmedYet, 403);
    const mode = access;
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
    const qa = await flowAnswerFor(request, context, interaction);
    const refuse = (message: (t: AppMessages) => string, status: number, step: AppStepId = furthest) =>
      appScreenPage(context, { interactionId, interaction, client, mode, step, message, status, language, qa });

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
  // mode.sameDevice was proven by the browser secret (appAccess), so the code may go to this browser.
  if (mode.sameDevice) return completeInteraction(context, interactionId, decision);
  interaction.decision = decision;
  if (!(await context.interactions.update(interactionId, interaction))) {
    throw new InvalidRequest('this verification has already been completed').because('verification_completed');
  }
  return seeOther(appLink(context, interactionId, mode));
}

/**
 * The computer confirms a phone (the authorization page's form: `action=confirm-phone`, `code`,
 * and the browser secret, which only the starting browser has): the code a waiting phone shows
 * gives that phone the app (303 to the authorization page, which then follows the phone's
 * progress). A wrong code is counted and the page shown again with how many tries are left (400);
 * the last one locks the hand-off (403). Codes are compared in constant time.
 * @see identity-app/phone-confirmation.ts
 */
async function computerConfirmsPhone(
  request: Request,
  context: EmulatorContext,
  interactionId: string,
  interaction: Interaction,
  parameters: RequestParameters,
  hints: LanguageHints,
): Promise<Response> {
  const browser = parameters.get('browser');
  if (browser === undefined) {
    throw new InvalidRequest('only the browser that started this verification can confirm a phone', 403).because('wrong_browser');
  }
  requireStartingBrowser(interaction, browser);
  const pageLink = authorizationPageLink(context, interactionId, browser);
  // Confirmed meanwhile (another tab) or decided: the page says where things stand.
  if (interaction.decision || phoneConfirmed(interaction)) return seeOther(pageLink);
  const language = pageLanguage(request, context, { ...hints, returnTo: pathOf(pageLink) });
  const qa = await flowAnswerFor(request, context, interaction);
  // The page again, with the refusal at the code field; once locked, the page says so instead of the form.
  const page = (codeError: ((t: AuthorizationMessages) => string) | undefined, status: number) =>
    interactionPage(context, language, { client: interactionClient(context, interaction), interactionId, interaction, codeError, status, qa });
  if (handOffLocked(interaction)) return page(undefined, 403);

  const code = normalizeConfirmationCode(parameters.get('code') ?? '');
  if (code === '') return page((t) => t.typeTheCode, 400);
  const phone = phoneShowing(interaction, code);
  // The code of a phone whose wait ended: the person was slow, not wrong (WAITING_PHONE_SECONDS).
  if (phone && waitEnded(phone, context.now())) return page((t) => t.codeExpired, 400);
  if (!phone && waitingPhones(interaction, context.now()).length === 0) return page((t) => t.noPhoneWaiting, 400);
  if (!phone) {
    const left = recordWrongCode(interaction);
    if (!(await context.interactions.update(interactionId, interaction))) {
      throw new InvalidRequest('this verification has already been completed').because('verification_completed');
    }
    return left > 0 ? page((t) => t.wrongCode(left), 400) : page(undefined, 403);
  }
  // Claimed atomically: of two tabs confirming two phones at once, one phone gets the app.
  const ttlSeconds = (interaction.expiresAt - context.now()) / 1000;
  if (ttlSeconds <= 0 || !(await context.interactionDevices.setIfAbsent(interactionId, phone.deviceSecret, ttlSeconds))) {
    return seeOther(pageLink);
  }
  confirmPhone(interaction, phone);
  if (!(await context.interactions.update(interactionId, interaction))) {
    throw new InvalidRequest('this verification has already been completed').because('verification_completed');
  }
  return seeOther(pageLink);
}

/**
 * QA chooses how the service answers this flow (`action=choose-answer`, `answer`; the chooser of
 * views/flow-answer-chooser.ts). Guarded as the pages' other forms are, and more: a cross-site
 * post is refused (403), only the flow's own browser (its secret) or the phone it confirmed may
 * choose (403 otherwise), and only while the QA panel is open or this browser is signed in to it
 * (403 otherwise). Answers 303 to the page the chooser was on: the authorization page
 * (`from=page`) or the app's screen (`step`).
 * @see qa/flow-answers.ts; DECISIONS.md "Answering one flow"
 */
async function chooseAnswer(
  request: Request,
  context: EmulatorContext,
  interactionId: string,
  interaction: Interaction,
  parameters: RequestParameters,
): Promise<Response> {
  if (crossSiteReason(request, context)) {
    throw new InvalidRequest('a form of another site cannot choose how this verification is answered', 403).because('cross_site_post');
  }
  const access = appAccess(interaction, parameters, context.now());
  if (access === 'unknown' || isPhonePage(access)) {
    throw new InvalidRequest('only the browser that started this verification, or the phone it confirmed, can choose its answer', 403).because('wrong_browser');
  }
  if (!(await mayChooseFlowAnswers(request, context))) {
    throw new InvalidRequest('choosing how the service answers a verification needs the QA panel: sign in to it first', 403).because('qa_not_allowed');
  }
  const value = parameters.get('answer');
  const answer = decodeFlowAnswer(value);
  if (!answer) throw new InvalidRequest(`answer ${value === undefined ? 'is missing' : `${describeValue(value)} is not one the chooser offers`}`);
  // An error chosen is kept in the interaction for the redirect back (identity-app/decision.ts);
  // a fault chosen is armed for the flow by QA's listener (events.ts `flow_answer.chosen`).
  if (answer.kind === 'normal') delete interaction.answer;
  else interaction.answer = answer;
  await context.events.emit('flow_answer.chosen', { clientId: interaction.clientId, state: interaction.request.state, answer });
  if (!(await context.interactions.update(interactionId, interaction))) {
    throw new InvalidRequest('this verification has already been completed').because('verification_completed');
  }
  if (parameters.get('from') === 'page' && access.sameDevice) return seeOther(authorizationPageLink(context, interactionId, access.browserSecret));
  const step = parameters.get('step');
  return seeOther(appLink(context, interactionId, access, step !== undefined && isAppStep(step) ? step : undefined));
}
