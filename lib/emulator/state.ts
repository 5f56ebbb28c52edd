/**
 * The stored shapes: what the emulator keeps between requests, in the order a flow produces it
 * (a pushed request, then an interaction in the simulated identity app, then a code grant), and
 * the unguessable identifiers and secrets that key and guard them. Only types and the one token
 * maker live here, so every module can import them without importing each other.
 * @see spec part 3 (the objects a flow produces, in order)
 */
import { base64url } from 'jose';
import type { ClaimsRequest } from './checks/claims-request';
import type { PageReason } from './errors';
import type { FlowAnswer } from './qa/flow-answers';

/** The checked authorization request: what the rest of the flow needs from the request object. @see spec 2.2 */
export interface AuthorizationRequest {
  redirectUri: string;
  state: string;
  nonce: string;
  codeChallenge: string;
  claims: ClaimsRequest;
  /**
   * `ui_locales` of the request object, when it had one: the languages the person reads, in order
   * of preference (OpenID Connect Core §3.1.2.1). Kept with the request so the identity app on
   * another device (the QR code) speaks them too. @see views/language.ts
   */
  uiLocales?: string;
  /**
   * `login_hint` (OpenID Connect Core §3.1.2.1), when the relying party sent one, as a request
   * object claim or a PAR form parameter: the id of the test persona it suggests, pre-selected on
   * the authorization page and in the app. A hint that names no persona is kept and ignored.
   * @see checks/login-hint.ts
   */
  loginHint?: string;
}

/** A pushed authorization request, referenced by its `request_uri`. @see spec 2.4; RFC 9126 §2.2 */
export interface PushedRequest {
  clientId: string;
  request: AuthorizationRequest;
}

/**
 * The user's session in the simulated identity app, from GET /auth until its decision reaches
 * the client. Its id is public (it is in the QR code); `browserSecret` is not.
 */
export interface Interaction {
  clientId: string;
  request: AuthorizationRequest;
  /**
   * Random, only in the page GET /auth returned: proves that a request comes from the browser that
   * started the verification, the only one the code may be redirected to
   * (identity-app/interaction.ts).
   */
  browserSecret: string;
  /** when the interaction expires (ms since the epoch); changes are written back until then */
  expiresAt: number;
  /** progress through the app's steps (identity-app/steps.ts) */
  app: AppProgress;
  /** the phones waiting to be confirmed, and the wrong codes typed on the computer (absent: none yet) */
  phoneConfirmation?: PhoneConfirmation;
  /** a decision taken in the app on another device, until the starting browser continues */
  decision?: InteractionDecision;
  /** how QA chose to have the service answer this flow (qa/flow-answers.ts); absent: normally */
  answer?: FlowAnswer;
}

/** How far the user got in the simulated identity app. @see identity-app/steps.ts */
export interface AppProgress {
  /** the test persona whose document is being verified */
  personaId?: string;
  documentScanned: boolean;
  chipRead: boolean;
  faceChecked: boolean;
  /** the app is driven from another device: the phone the computer confirmed by its code */
  openedElsewhere: boolean;
  /**
   * The secret of the phone the computer confirmed (identity-app/phone-confirmation.ts): the QR
   * code can be seen by anyone near the screen, so every other device is refused.
   */
  deviceSecret?: string;
}

/** A phone that opened the QR link: its device secret (in its links) and the code it shows. */
export interface WaitingPhone {
  deviceSecret: string;
  /** the code's letters, without the dash it is shown with */
  code: string;
  /** when its wait for the code to be typed ends (ms since the epoch; phone-confirmation.ts WAITING_PHONE_SECONDS) */
  expiresAt: number;
}

/** The phones waiting to be confirmed on the computer, and the wrong codes typed there. */
export interface PhoneConfirmation {
  waiting: WaitingPhone[];
  wrongCodes: number;
}

/** The user's decision in the app, turned into a redirect to the client when delivered. */
export type InteractionDecision =
  { outcome: 'approved'; personaId: string; /** seconds since the epoch */ authTime: number } | { outcome: 'denied'; error: ErrorBody };

/** An error as it is stored and redirected: the RFC 6749 §4.1.2.1 `error` and `error_description`. */
export interface ErrorBody {
  error: string;
  description: string;
  /** the situation, for the pages to explain in their reader's language (the description stays English) */
  reason?: PageReason;
}

/**
 * A request_uri or an interaction that was used up: kept an hour (longer than either lives) so a
 * page reached again (the browser's Back button after the result) can name the client and link
 * back to it instead of a bare error.
 */
export interface UsedFlow {
  clientId: string;
  /** the origin of the flow's redirect URI: the relying party's site */
  redirectOrigin: string;
}

/** What an authorization code stands for, checked and used by the token endpoint. @see spec 4.3 */
export interface AuthorizationCodeGrant {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  nonce: string;
  /** the request object's `state`: faults chosen for this flow, and its record, are keyed by it (qa/faults.ts) */
  state?: string;
  claims: ClaimsRequest;
  personaId: string;
  /** seconds since the epoch */
  authTime: number;
}

/**
 * A random, unguessable identifier or secret: 32 bytes, base64url (RFC 6749 §10.10). Keys the
 * interactions and codes, and makes the browser and device secrets that guard an interaction.
 */
export function randomToken(): string {
  return base64url.encode(crypto.getRandomValues(new Uint8Array(32)));
}
