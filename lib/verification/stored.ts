/**
 * The stored shapes: what the app keeps server-side between requests (docs/operations.md "Run
 * several instances"): a pending flow until its callback, a verified result until the user signs out or
 * it expires, a failure record for the failure page. Data, never text for a page: every label,
 * language, masking and presenter-mode decision is made when they are read. Types only, so the
 * stores, the flow glue and the pages import them without importing each other.
 */
import type { Selection, TraceEvent, ValidatedIdToken, VerifiedClaims } from '@/lib/oidc';
import type { AppErrorDetail, FailureCode } from './failures';
import type { AssurancePolicy } from './policy';
import type { CertificateSummary, SigningCertificateCheck } from './signing-certificate';
import type { RecordedCheck, RecordedComparison, RecordedEvent } from './trace';

/**
 * The shape of results and failure records this version writes and reads. One kept by an
 * instance of another version (during a rolling upgrade, several instances sharing Redis) is
 * read as absent: a result as expired, a failure by its code alone.
 */
export const STORED_FORMAT = 2;

export interface StoredIdToken {
  jweHeader: ValidatedIdToken['jweHeader'];
  jwsHeader: ValidatedIdToken['jwsHeader'];
  claims: Omit<ValidatedIdToken['claims'], 'verified_claims'>;
}

export interface VerificationResult {
  format: typeof STORED_FORMAT;
  id: string;
  createdAt: number;
  expiresAt: number;
  mode: 'emulator' | 'provider';
  issuer: string;
  clientId: string;
  selection: Selection;
  /** the rules the evidence is judged by, chosen with the selection (absent on results stored before) */
  policy?: AssurancePolicy;
  verifiedClaims: VerifiedClaims[];
  /**
   * The ID token's headers and claims, without what is kept elsewhere: `verified_claims` (parsed
   * in `verifiedClaims`, portrait and all) and the signing key (its certificate is described in
   * `signingCertificate`). Every stored result costs memory (or Redis) for 15 minutes.
   */
  idToken: StoredIdToken;
  tokenExpiresIn: number | undefined;
  /** every exchange of the flow, its secrets masked, its JWTs decoded */
  trace: RecordedEvent[];
  /** the certificate of the key that verified the signature (`x5c[0]` of its JWKS entry) */
  signingCertificate: CertificateSummary | undefined;
  /**
   * whether that certificate holds the key that verified the signature, and whether its chain
   * leads to IDV_TRUST_ANCHOR, judged at verification time (absent on results stored before)
   */
  signingCertificateCheck?: SigningCertificateCheck;
}

/**
 * A flow between its start and its callback, kept server-side by `state`: what it asked for, its
 * secrets, its trace so far, and the browser it belongs to (only that browser may complete it).
 */
export interface PendingFlow {
  /** the session binding of the browser that started it */
  browser: string;
  issuer: string;
  selection: Selection;
  /** the rules its result will be judged by (absent on flows stored before) */
  policy?: AssurancePolicy;
  nonce: string;
  codeVerifier: string;
  /** ms since the epoch */
  createdAt: number;
  trace: TraceEvent[];
}

/**
 * What a failure's record says of its cause, beyond its code: the app's refusal as a code with
 * its values (worded when read), or the core's own sentence, which is English as the core writes
 * it (its code is explained in each language; the sentence adds the specifics: an HTTP status,
 * the transport's words, a missing member).
 */
export type FailureDetail = AppErrorDetail | { kind: 'core_message'; message: string };

export interface FailureRecord {
  format: typeof STORED_FORMAT;
  id: string;
  /** the session binding of the browser whose failure it is; only that browser sees the detail */
  browser?: string;
  code: FailureCode;
  /**
   * The cause beyond the code, when it is known: none for an unexpected failure, nor for an error
   * the service sent (its own words are `serviceError` and `description`). A record kept before
   * it had one held an English `message` instead, which is no longer read.
   */
  detail?: FailureDetail;
  /** the service's own `error`, verbatim, when the failure is an OAuth error the service sent */
  serviceError?: string;
  /** the service's own error_description, verbatim, when it sent one */
  description?: string;
  /** the check of the ID token the flow failed at (kept apart from the trace, which may be dropped for size) */
  failedCheck?: RecordedCheck;
  /** for another failure: what was compared, when the failure says (a redirect's `iss`, say) */
  comparison?: RecordedComparison;
  /** what was asked for, so that the failure page can ask for it again */
  request?: { selection: Selection; policy?: AssurancePolicy };
  /**
   * In emulator mode: what the embedded emulator did on purpose to this flow (the faults it
   * applied, the error chosen for it), by id, worded when read; `unreached`: faults taken for the
   * flow that never met the request they spoil (a JWKS outage, while the key was cached);
   * `chosen`: on the QA panel, for this flow on the emulator's page, or again (its request asked
   * for again); `error` and `errorDescription`: the error chosen for it, as the redirect carried it
   */
  emulatorAnswer?: { faults: string[]; unreached?: string[]; chosen?: 'panel' | 'flow' | 'again'; error?: string; errorDescription?: string };
  /** when the failed endpoint is asked again, after a failure the core backs off from (ms since the epoch) */
  retryAt?: number;
  createdAt: number;
  /** the exchanges up to the failure (never identity data: the ID token is only traced once valid) */
  trace: RecordedEvent[];
}
