/**
 * The end of an interaction: the user's decision (approve a persona, cancel, or a verification
 * that fails) and its delivery to the client as a 303 to the registered redirect URI, with
 * `code`, `state` and `iss` on approval and `error=access_denied` otherwise (`iss` only while the
 * setting is on, context.ts `redirectIss`). Shared by the quick
 * test of the authorization page and the simulated identity app.
 * @see spec part 1, 4.2; RFC 6749 §4.1.2, §4.1.2.1; RFC 9207 §2
 */
import { FAULTY_ISSUER, type AuthorizationResponseFault } from '../answer-faults';
import { LIFETIMES } from '../config';
import { nowSeconds, type EmulatorContext } from '../context';
import { AccessDenied, InvalidRequest } from '../errors';
import type { Persona } from '../personas/personas';
import { flowErrorById } from '../qa/flow-answers';
import { rememberCompletedInteraction } from './used-flows';
import { randomToken, type ErrorBody, type Interaction, type InteractionDecision } from '../state';

/**
 * The user's decision, checked: approving a persona whose verification passes is approval (at
 * this moment, the `auth_time`); cancelling, or approving one whose verification fails, is
 * `access_denied` with the reason.
 * @see spec part 1, 2.6 `auth_time`; RFC 6749 §4.1.2.1
 */
export function decide(
  context: EmulatorContext,
  interaction: Interaction,
  choice: { outcome: 'cancel' } | { outcome: 'approve'; persona: Persona },
): InteractionDecision {
  if (choice.outcome === 'cancel') {
    return { outcome: 'denied', error: new AccessDenied('the user cancelled the verification').because('user_cancelled') };
  }
  const failure = verificationFailure(choice.persona, interaction);
  if (failure) return { outcome: 'denied', error: failure };
  return { outcome: 'approved', personaId: choice.persona.id, authTime: nowSeconds(context) };
}

/**
 * Why verification of this persona fails, if it does: the face check, and the issuer check that
 * the standard_etsi trust framework requires (2.3: "The issuer check must be valid").
 * @see spec part 1, 2.3 trust framework values
 */
export function verificationFailure(persona: Persona, interaction: Interaction): AccessDenied | undefined {
  if (persona.faceCheck === 'fail') {
    return new AccessDenied('the face check failed: the face did not match the portrait on the document').because('face_check_failed');
  }
  const issuerCheck = persona.document.issuer_check?.valid;
  if (interaction.request.claims.trustFramework === 'standard_etsi' && issuerCheck !== 'VALID') {
    return new AccessDenied(
      `the standard_etsi trust framework requires a valid issuer check, and the document's issuer check is ${issuerCheck ?? 'not available'}`,
    ).because('issuer_check_required');
  }
  return undefined;
}

/**
 * Ends the interaction (once: a second call finds it taken) and delivers the decision to the
 * client: a new one-time code on approval, `access_denied` otherwise. The caller has checked that
 * the request comes from the starting browser. Before a redirect with a code, listeners of
 * `authorization.answering` may ask for faults to its `state` or `iss` (events.ts); the end of the
 * interaction is told (`authorization.answered`).
 * @throws InvalidRequest when the interaction was completed meanwhile
 * @see spec 4.2; RFC 6749 §4.1.2
 */
export async function completeInteraction(context: EmulatorContext, interactionId: string, decision: InteractionDecision): Promise<Response> {
  const interaction = await context.interactions.get(interactionId);
  if (!interaction) throw new InvalidRequest('this verification has already been completed').because('verification_completed');
  // QA chose an error for this flow (qa/flow-answers.ts): it is the answer, whatever was decided.
  if (interaction.answer?.kind === 'error') {
    const { error, description } = flowErrorById(interaction.answer.error);
    if (!(await context.interactions.take(interactionId)))
      throw new InvalidRequest('this verification has already been completed').because('verification_completed');
    await rememberCompletedInteraction(context, interactionId, interaction.clientId, interaction.request.redirectUri);
    return redirectToClient(context, interaction, decision, { error: { error, description } }, await context.redirectIss(), {
      chosenError: { error, description },
    });
  }
  if (decision.outcome === 'denied') {
    if (!(await context.interactions.take(interactionId)))
      throw new InvalidRequest('this verification has already been completed').because('verification_completed');
    await rememberCompletedInteraction(context, interactionId, interaction.clientId, interaction.request.redirectUri);
    return redirectToClient(context, interaction, decision, { error: decision.error }, await context.redirectIss());
  }

  // Issued only now, at delivery: a decision taken on a phone may wait for the browser longer
  // than a code lives (60 s). Stored before the interaction is closed, so a full code store
  // (503) leaves the user able to try again.
  const code = randomToken();
  const { request: authorizationRequest } = interaction;
  await context.authorizationCodes.set(
    code,
    {
      clientId: interaction.clientId,
      redirectUri: authorizationRequest.redirectUri,
      codeChallenge: authorizationRequest.codeChallenge,
      nonce: authorizationRequest.nonce,
      state: authorizationRequest.state,
      claims: authorizationRequest.claims,
      personaId: decision.personaId,
      authTime: decision.authTime,
    },
    LIFETIMES.authorizationCode,
  );
  // Closed atomically: of two deliveries racing (two tabs, two instances), one redirects with a
  // code; the other's code is withdrawn before anyone could see it.
  if (!(await context.interactions.take(interactionId))) {
    await context.authorizationCodes.take(code);
    throw new InvalidRequest('this verification has already been completed').because('verification_completed');
  }
  await rememberCompletedInteraction(context, interactionId, interaction.clientId, authorizationRequest.redirectUri);
  const redirectIss = await context.redirectIss();
  const faults = new Set<AuthorizationResponseFault>();
  await context.events.emit('authorization.answering', { clientId: interaction.clientId, state: authorizationRequest.state, redirectIss, faults });
  return redirectToClient(context, interaction, decision, { code }, redirectIss, { faults });
}

/**
 * 303 to the registered redirect URI of the request, keeping its own query (RFC 6749 §3.1.2),
 * with `state`, and `iss` (RFC 9207) while `redirectIss` is on, on success and on error.
 * @see spec 4.2; RFC 6749 §4.1.2, §4.1.2.1; RFC 9207 §2
 */
async function redirectToClient(
  context: EmulatorContext,
  interaction: Interaction,
  decision: InteractionDecision,
  result: { code: string } | { error: ErrorBody },
  redirectIss: boolean,
  { faults = new Set(), chosenError }: { faults?: ReadonlySet<AuthorizationResponseFault>; chosenError?: ErrorBody } = {},
): Promise<Response> {
  const response = new URLSearchParams('code' in result ? { code: result.code } : { error: result.error.error, error_description: result.error.description });
  // The authorization response faults (answer-faults.ts) change state or iss of a redirect with a code.
  if (faults.has('wrong_state')) response.set('state', randomToken());
  else if (!faults.has('missing_state')) response.set('state', interaction.request.state);
  // `wrong_response_issuer` adds its iss even while iss is off: a relying party must compare an
  // iss that is present whatever discovery says (RFC 9207 §2.4).
  if (faults.has('wrong_response_issuer')) response.set('iss', FAULTY_ISSUER);
  else if (redirectIss && !faults.has('missing_response_issuer')) response.set('iss', context.issuer);

  const location = new URL(interaction.request.redirectUri);
  // Appended as text so the registered query is kept byte for byte.
  location.search = location.search ? `${location.search}&${response}` : `?${response}`;
  await context.events.emit('authorization.answered', { interaction, decision, ...(chosenError ? { chosenError } : {}), parameters: response, faults });
  return new Response(null, {
    status: 303,
    headers: { Location: location.href, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' },
  });
}
