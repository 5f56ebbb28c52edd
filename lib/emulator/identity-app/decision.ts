/**
 * The end of an interaction: the user's decision (approve a persona, cancel, or a verification
 * that fails) and its delivery to the client as a 303 to the registered redirect URI, with
 * `code`, `state` and `iss` on approval and `error=access_denied` otherwise (`iss` only while the
 * setting is on, context.ts `redirectIss`). Shared by the quick
 * test of the authorization page and the simulated identity app.
 * @see spec part 1, 4.2; RFC 6749 §4.1.2, §4.1.2.1; RFC 9207 §2
 */
import { LIFETIMES } from '../config';
import { nowSeconds, type EmulatorContext } from '../context';
import { AccessDenied, InvalidRequest } from '../errors';
import type { Persona } from '../personas/personas';
import { FAULTY_ISSUER, type AuthorizationResponseFault } from '../answer-faults';
import { flowErrorById } from '../qa/flow-answers';
import { masked, type FlowEvent } from '../qa/flow-trace';
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
 * the request comes from the starting browser.
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
    await context.faults.recordFlowError(interaction.request.state, { error, description });
    return redirectToClient(context, interaction, { error: { error, description } }, await context.redirectIss(), {
      decision: decisionEvent(decision, { error, description }),
      chosen: true,
    });
  }
  if (decision.outcome === 'denied') {
    if (!(await context.interactions.take(interactionId)))
      throw new InvalidRequest('this verification has already been completed').because('verification_completed');
    await rememberCompletedInteraction(context, interactionId, interaction.clientId, interaction.request.redirectUri);
    return redirectToClient(context, interaction, { error: decision.error }, await context.redirectIss(), { decision: decisionEvent(decision) });
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
  // A redirect without iss cannot lose it: `missing_response_issuer` waits while iss is off.
  const faults = await context.faults.take(
    'authorization_response',
    interaction.clientId,
    redirectIss ? [] : ['missing_response_issuer'],
    authorizationRequest.state,
  );
  return redirectToClient(context, interaction, { code }, redirectIss, { decision: decisionEvent(decision), faults });
}

/** The decision as the flow trace shows it (qa/flow-trace.ts); `replacedBy`: the error QA chose instead. */
function decisionEvent(decision: InteractionDecision, replacedBy?: ErrorBody): Omit<FlowEvent, 'at'> {
  const replaced: Record<string, string> = replacedBy ? { replaced_by_flow_answer: replacedBy.error } : {};
  if (decision.outcome === 'approved') {
    return {
      step: 'decision',
      outcome: 'ok',
      summary: `The verification was approved as persona ${decision.personaId}.`,
      details: { persona: decision.personaId, auth_time: decision.authTime, ...replaced },
    };
  }
  return {
    step: 'decision',
    outcome: 'refused',
    summary: `The verification was denied with ${decision.error.error}.`,
    details: { error: decision.error.error, error_description: decision.error.description, ...replaced },
  };
}

/**
 * 303 to the registered redirect URI of the request, keeping its own query (RFC 6749 §3.1.2),
 * with `state`, and `iss` (RFC 9207) while `redirectIss` is on, on success and on error.
 * @see spec 4.2; RFC 6749 §4.1.2, §4.1.2.1; RFC 9207 §2
 */
async function redirectToClient(
  context: EmulatorContext,
  interaction: Interaction,
  result: { code: string } | { error: ErrorBody },
  redirectIss: boolean,
  trace: { decision: Omit<FlowEvent, 'at'>; faults?: ReadonlySet<AuthorizationResponseFault>; chosen?: boolean },
): Promise<Response> {
  const faults = trace.faults ?? new Set<AuthorizationResponseFault>();
  const response = new URLSearchParams('code' in result ? { code: result.code } : { error: result.error.error, error_description: result.error.description });
  // The authorization response faults (qa/faults.ts) change state or iss of a redirect with a code.
  if (faults.has('wrong_state')) response.set('state', randomToken());
  else if (!faults.has('missing_state')) response.set('state', interaction.request.state);
  // `wrong_response_issuer` adds its iss even while iss is off: a relying party must compare an
  // iss that is present whatever discovery says (RFC 9207 §2.4).
  if (faults.has('wrong_response_issuer')) response.set('iss', FAULTY_ISSUER);
  else if (redirectIss && !faults.has('missing_response_issuer')) response.set('iss', context.issuer);

  const location = new URL(interaction.request.redirectUri);
  // Appended as text so the registered query is kept byte for byte.
  location.search = location.search ? `${location.search}&${response}` : `?${response}`;
  await context.traces.record(
    interaction.request.state,
    interaction.clientId,
    trace.decision,
    redirectEvent(interaction, response, faults, trace.chosen === true),
  );
  return new Response(null, {
    status: 303,
    headers: { Location: location.href, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' },
  });
}

/** The redirect as the flow trace shows it: the parameters it carried, the code masked. */
function redirectEvent(
  interaction: Interaction,
  response: URLSearchParams,
  faults: ReadonlySet<AuthorizationResponseFault>,
  chosen: boolean,
): Omit<FlowEvent, 'at'> {
  const state = response.get('state');
  const stateFault = faults.has('wrong_state') ? 'wrong_state' : faults.has('missing_state') ? 'missing_state' : undefined;
  const code = response.get('code');
  const error = response.get('error');
  const carried = [...new Set(response.keys())];
  const applied = [...faults];
  return {
    step: 'redirect',
    outcome: applied.length > 0 || chosen ? 'fault' : error === null ? 'ok' : 'refused',
    summary:
      `The browser was sent back to ${new URL(interaction.request.redirectUri).origin} with ${carried.join(', ')}` +
      (chosen ? ', an error QA chose for this flow.' : applied.length > 0 ? `, changed by ${applied.join(', ')}.` : '.'),
    details: {
      redirect_uri: interaction.request.redirectUri,
      parameters: carried,
      ...(code === null ? {} : { code: masked(code, 4) }),
      ...(error === null ? {} : { error, error_description: response.get('error_description') ?? '' }),
      state: state ?? 'omitted',
      ...(stateFault ? { state_changed_by: stateFault } : {}),
      iss: response.get('iss') ?? 'omitted',
      faults: applied,
    },
  };
}
