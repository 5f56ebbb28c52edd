/**
 * The faults as listeners of the emulator's events (events.ts): when an answer is about to be
 * made, the faults armed for it (on the panel, through the control or QA API, or for its flow) are
 * taken from the switchboard and added to the event, and the handler makes them. So no handler
 * calls QA's code, and a fault is still made inside the real answer, never on a path of its own.
 * @see DECISIONS.md "Faults", "Answering one flow"
 */
import type { EmulatorEvents } from '../events';
import { JWKS_VARIANT_WINDOW_SECONDS, type FaultSwitchboard } from './faults';
import { decodeFlowAnswer } from './flow-answers';

/** Has `faults` choose the faults of every answer that `events` announces. */
export function subscribeFaults(events: EmulatorEvents, faults: FaultSwitchboard): void {
  events.on('pushed_authorization_request.answering', async ({ clientId, state, faults: chosen }) => {
    for (const id of await faults.take('par_endpoint', clientId, [], state)) chosen.add(id);
  });
  // An error kept for the flow before it had pages (the answer of a flow its relying party asks
  // for again) becomes the interaction's answer, as if chosen on its page.
  events.on('interaction.starting', async (starting) => {
    const errorId = await faults.takeErrorForFlow(starting.state, starting.clientId);
    const answer = errorId === undefined ? undefined : decodeFlowAnswer(`error:${errorId}`);
    if (answer) starting.answer = answer;
  });
  // A fault chosen on the flow's own pages waits for that flow only; the normal answer disarms it.
  events.on('flow_answer.chosen', ({ clientId, state, answer }) => faults.armForFlow(state, clientId, answer.kind === 'fault' ? [answer.fault] : []));
  // A redirect without iss cannot lose it: `missing_response_issuer` waits while iss is off.
  events.on('authorization.answering', async ({ clientId, state, redirectIss, faults: chosen }) => {
    for (const id of await faults.take('authorization_response', clientId, redirectIss ? [] : ['missing_response_issuer'], state)) chosen.add(id);
  });
  // The error QA chose for the flow, once the redirect carried it, joins what was done to the flow.
  events.on('authorization.answered', async ({ interaction, chosenError }) => {
    if (chosenError) await faults.recordFlowError(interaction.request.state, { error: chosenError.error, description: chosenError.description });
  });
  events.on('token.answering', async ({ clientId, state, faults: chosen }) => {
    for (const id of await faults.take('token_endpoint', clientId, [], state)) chosen.add(id);
  });
  events.on('id_token.answering', async ({ clientId, state, pictureRequested, faults: chosen, jwksFaults }) => {
    // `picture_not_image` waits for a token whose picture was requested: it has nothing to change in another.
    for (const id of await faults.take('id_token', clientId, pictureRequested ? [] : ['picture_not_image'], state)) chosen.add(id);
    // The JWKS variants taken for this token's client and flow start now: the JWKS responses of
    // the next JWKS_VARIANT_WINDOW_SECONDS carry them, since the JWKS request that follows names
    // no client and no flow.
    const jwks = [...(await faults.take('jwks', clientId, [], state))];
    for (const id of jwks) await faults.openWindow(id, JWKS_VARIANT_WINDOW_SECONDS);
    // A JWKS outage taken for this token spoils the one JWKS request that follows, if the relying
    // party sends one (it does not while it has the key cached): it waits for it a few seconds.
    const outage = [...(await faults.take('jwks_endpoint', clientId, [], state))];
    for (const id of outage) await faults.awaitJwksRequest(id, state);
    jwksFaults.push(...jwks, ...outage);
  });
  // A JWKS request names no client and no flow: the variants whose window an ID token opened
  // apply, and an outage an ID token left waiting.
  events.on('jwks.answering', async ({ faults: chosen }) => {
    for (const id of await faults.openWindows('jwks')) chosen.add(id);
    for (const id of await faults.takeAwaitedJwksFaults()) chosen.add(id);
  });
}
