/**
 * What the emulator's handlers tell the rest of the emulator as they answer: typed events. The
 * handlers of the protocol only emit them; listeners registered where the emulator is made
 * (index.ts `createEmulator`) do what QA adds: the faults (qa/fault-listeners.ts) choose what an
 * answer gets, and the flow log (qa/flow-log.ts) writes down what was answered.
 *
 * Modelled on node-oidc-provider's `provider.emit('grant.success', ctx)`, but not on Node's
 * EventEmitter, which calls its listeners without waiting: here each listener is awaited, in the
 * order the listeners were registered, because a fault must be chosen before the answer is made,
 * and a flow's log must be written before the QA API is asked for it. A listener that throws
 * fails the request, as the handler would have.
 *
 * Events come in pairs around an answer. `<answer>.answering`: the answer is about to be made, and
 * listeners may add faults to the payload's `faults` (answer-faults.ts), which the handler then
 * makes. `<answer>.answered`: what was sent.
 * @see DECISIONS.md "Faults", "The QA API and the flow trace"
 */
import type { JWTPayload } from 'jose';
import type { AuthorizationResponseFault, IdTokenFault, JwksEndpointFault, JwksFault, ParFault, TokenResponseFault } from './answer-faults';
import type { OAuthError } from './errors';
import type { FlowAnswer } from './qa/flow-answers';
import type { AuthorizationCodeGrant, AuthorizationRequest, ErrorBody, Interaction, InteractionDecision } from './state';

/** The header of the client assertion a request authenticated with (spec 2.1). */
export interface AssertionHeader {
  alg: string;
  kid: string;
}

/** What an issued ID token is made of (tokens/id-token.ts), for the flow log: never the token itself. */
export interface IssuedIdToken {
  /** the compact serialisation: a JWE, or the bare JWS (`unencrypted`) */
  idToken: string;
  /** the JWS protected header */
  signatureHeader: { alg: string; kid?: string; typ?: string };
  /** the payload as signed */
  payload: JWTPayload;
  /** the JWE protected header, absent when the token is not encrypted */
  encryptionHeader?: { alg: string; enc: string; kid?: string };
  /** the faults it was made with, and the JWKS faults it started (variants) or left waiting (an outage) */
  faults: (IdTokenFault | JwksFault | JwksEndpointFault)[];
}

/** Every event, by name, with its payload. */
export interface EmulatorEventMap {
  /**
   * POST /par passed every check and is about to issue a request_uri (endpoints/par.ts).
   * Listeners may add a PAR fault: its error is the answer, and nothing is stored.
   */
  'pushed_authorization_request.answering': { clientId: string; state: string; faults: Set<ParFault> };
  /**
   * POST /par answered a client that authenticated: a request_uri, a PAR fault's error, or the
   * refusal of its request object (told under the `state` the request object claims, and only
   * when it claims one).
   */
  'pushed_authorization_request.answered': {
    clientId: string;
    state: string;
    assertion: AssertionHeader;
    answer:
      | { outcome: 'accepted'; requestUri: string; expiresIn: number; request: AuthorizationRequest }
      | { outcome: 'fault'; fault: ParFault; error: OAuthError }
      | { outcome: 'refused'; error: OAuthError };
  };
  /**
   * GET /auth used a request_uri up and is about to open the flow's interaction
   * (endpoints/authorization.ts). Listeners may set how QA chose to answer it beforehand: an
   * error kept for the flow's `state` before it had pages (qa/faults.ts `chooseErrorForFlow`).
   */
  'interaction.starting': { clientId: string; state: string; answer?: FlowAnswer };
  /** GET /auth used a request_uri up and opened the flow's interaction: its authorization page (endpoints/authorization.ts). */
  'interaction.started': { clientId: string; state: string; requestUri: string; uiLocales?: string };
  /**
   * QA chose how this flow is answered, on its own pages (endpoints/identity-app.ts): a fault for
   * its answers to come, or an error, which the interaction keeps for the redirect back.
   */
  'flow_answer.chosen': { clientId: string; state: string; answer: FlowAnswer };
  /**
   * The redirect back with a code is about to be made (identity-app/decision.ts). Listeners may add
   * faults to its `state` or `iss`; `redirectIss` says whether it carries `iss` at all.
   */
  'authorization.answering': { clientId: string; state: string; redirectIss: boolean; faults: Set<AuthorizationResponseFault> };
  /**
   * The interaction ended: the person's decision, delivered by the redirect back with these
   * `parameters`, or replaced by the error QA chose for the flow (`chosenError`).
   */
  'authorization.answered': {
    interaction: Interaction;
    decision: InteractionDecision;
    chosenError?: ErrorBody;
    parameters: URLSearchParams;
    faults: ReadonlySet<AuthorizationResponseFault>;
  };
  /**
   * POST /token checked a code against its client and is about to answer with the ID token
   * (endpoints/token.ts). Listeners may add faults to the token response.
   */
  'token.answering': { clientId: string; state?: string; faults: Set<TokenResponseFault> };
  /**
   * An ID token is about to be made (tokens/id-token.ts). Listeners may add ID token faults, and
   * JWKS faults that start now (the JWKS request that follows names no client and no flow), and
   * may set the given name that replaces the persona's. `pictureRequested`: whether the token
   * carries a picture.
   */
  'id_token.answering': {
    clientId: string;
    state?: string;
    pictureRequested: boolean;
    faults: Set<IdTokenFault>;
    jwksFaults: (JwksFault | JwksEndpointFault)[];
    givenName?: string;
  };
  /**
   * POST /token answered a code it found: the flow is complete. With the faults its response was
   * made with, how long it was held, the ID token issued (if one was), and the error (if one).
   */
  'token.answered': {
    grant: AuthorizationCodeGrant;
    assertion: AssertionHeader;
    faults: ReadonlySet<TokenResponseFault>;
    heldMs?: number;
    issued?: IssuedIdToken;
    response: Response;
    error?: OAuthError;
  };
  /**
   * GET /jwks is about to list the keys (endpoints/jwks.ts). Listeners may add JWKS variants, and
   * an outage (an error, a held answer).
   */
  'jwks.answering': { faults: Set<JwksFault | JwksEndpointFault> };
  /**
   * GET /jwks answered: the kids in the order served (none for an error), the faults it was made
   * with, and how long it was held.
   */
  'jwks.answered': { kids: readonly string[]; faults: readonly (JwksFault | JwksEndpointFault)[]; heldMs?: number };
}

export type EmulatorEventName = keyof EmulatorEventMap;

/** Hears one event; the handler waits for it. */
export type EmulatorListener<Name extends EmulatorEventName> = (payload: EmulatorEventMap[Name]) => void | Promise<void>;

/** One emulator's events and their listeners. */
export class EmulatorEvents {
  private readonly listeners = new Map<EmulatorEventName, EmulatorListener<never>[]>();

  /** Adds a listener of `name`, heard after those added before it. */
  on<Name extends EmulatorEventName>(name: Name, listener: EmulatorListener<Name>): void {
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), listener as EmulatorListener<never>]);
  }

  /** Calls every listener of `name` with `payload`, one after the other, each awaited. */
  async emit<Name extends EmulatorEventName>(name: Name, payload: EmulatorEventMap[Name]): Promise<void> {
    for (const listener of this.listeners.get(name) ?? []) await (listener as EmulatorListener<Name>)(payload);
  }
}
