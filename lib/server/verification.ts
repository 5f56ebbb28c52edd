import 'server-only';
/**
 * The app's use of the core: start a verification (POST /auth/start), finish it (GET
 * /auth/callback), and keep the outcome in the stores. Route handlers call these and only
 * translate the outcome into a redirect.
 */
import {
  completeAuthorization,
  isIdvError,
  randomToken,
  startAuthorization,
  type IdvErrorCode,
  type Selection,
  type ValidatedIdToken,
  type VerifiedClaims,
} from '@/lib/oidc';
import { addPending, getSession, takePending } from './session';
import { services } from './services';

/** How long a verified identity is kept before it is deleted (the result page says so). */
export const RESULT_TTL_SECONDS = 15 * 60;
const FAILURE_TTL_SECONDS = 15 * 60;

export interface VerificationResult {
  id: string;
  createdAt: number;
  expiresAt: number;
  mode: 'emulator' | 'provider';
  issuer: string;
  clientId: string;
  selection: Selection;
  verifiedClaims: VerifiedClaims[];
  idToken: ValidatedIdToken;
  tokenExpiresIn: number | undefined;
}

/** Codes of the app itself, beyond the core's. */
export type FailureCode = IdvErrorCode | 'internal_error';

export interface FailureRecord {
  id: string;
  code: FailureCode;
  message: string;
  /** the service's own error_description, verbatim, when it sent one */
  description?: string;
  createdAt: number;
}

/** Starts the flow and returns the authorization URL to redirect the browser to. */
export async function beginVerification(selection: Selection): Promise<string> {
  const { relyingParty } = await services();
  const started = await startAuthorization(relyingParty, selection);
  const session = await getSession();
  addPending(session, started.pending);
  await session.save();
  return started.authorizationUrl;
}

/** Completes the flow for a callback; the pending authorization is consumed whatever happens. */
export async function finishVerification(params: URLSearchParams): Promise<VerificationResult> {
  const { relyingParty, results, config } = await services();
  const session = await getSession();
  const pending = takePending(session, params.get('state'));
  await session.save();

  const completed = await completeAuthorization(relyingParty, params, pending);
  const now = Date.now();
  const result: VerificationResult = {
    id: randomToken(24),
    createdAt: now,
    expiresAt: now + RESULT_TTL_SECONDS * 1000,
    mode: config.mode,
    issuer: relyingParty.issuer,
    clientId: relyingParty.client.clientId,
    selection: pending!.selection,
    verifiedClaims: completed.verifiedClaims,
    idToken: completed.idToken,
    tokenExpiresIn: completed.token.expiresIn,
  };
  await results.set(result.id, result, RESULT_TTL_SECONDS);
  if (session.resultId) await results.delete(session.resultId);
  session.resultId = result.id;
  await session.save();
  return result;
}

/** The result of this browser's last verification, if it is still kept. */
export async function currentResult(): Promise<VerificationResult | undefined> {
  const session = await getSession();
  if (!session.resultId) return undefined;
  return (await services()).results.get(session.resultId);
}

/** Sign-out: deletes the stored result and the whole session. */
export async function signOut(): Promise<void> {
  const session = await getSession();
  if (session.resultId) await (await services()).results.delete(session.resultId);
  session.destroy();
}

/** Records a failure for the failure page; never includes identity data. */
export async function recordFailure(error: unknown): Promise<FailureRecord> {
  const { failures } = await services();
  const record: FailureRecord = isIdvError(error)
    ? {
        id: randomToken(24),
        code: error.code,
        message: error.message,
        ...(typeof error.cause.description === 'string' ? { description: error.cause.description } : {}),
        createdAt: Date.now(),
      }
    : { id: randomToken(24), code: 'internal_error', message: 'Something went wrong on our side.', createdAt: Date.now() };
  if (!isIdvError(error)) console.error('[idv] unexpected failure', error);
  await failures.set(record.id, record, FAILURE_TTL_SECONDS);
  return record;
}

export async function getFailure(id: string): Promise<FailureRecord | undefined> {
  return (await services()).failures.get(id);
}
