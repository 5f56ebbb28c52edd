import 'server-only';
/**
 * The app's use of the core: start a verification (POST /auth/start), finish it (GET
 * /auth/callback), and keep the outcome in the stores. Route handlers call these and only
 * translate the outcome into a redirect.
 */
import {
  completeAuthorization,
  isIdvError,
  ProtocolTrace,
  randomToken,
  startAuthorization,
  type PendingAuthorization,
  type Selection,
} from '@/lib/oidc';
import { presentTrace, type CertificateSummary } from '@/lib/view/trace-view';
import { describeCertificate } from './certificate';
import { services } from './services';
import { addPending, getSession, PENDING_TTL_MS, takePending } from './session';
import type { FailureRecord, VerificationResult } from './state';
import type { FailureCode } from '@/lib/view/failure-explanations';

/** How long a verified identity is kept before it is deleted (the result page says so). */
export const RESULT_TTL_SECONDS = 15 * 60;
const FAILURE_TTL_SECONDS = 15 * 60;

/** The certificate in a JWKS entry's `x5c[0]`, if it has one that parses. */
async function certificateOf(jwk: unknown): Promise<CertificateSummary | undefined> {
  const x5c = (jwk as { x5c?: unknown } | undefined)?.x5c;
  return Array.isArray(x5c) && typeof x5c[0] === 'string' ? describeCertificate(x5c[0]) : undefined;
}

/** Thrown work keeps its trace, so the failure page can show the exchanges up to the failure. */
class TracedFailure extends Error {
  constructor(readonly error: unknown, readonly trace: ProtocolTrace) {
    super('traced failure');
  }
}

/** Starts the flow and returns the authorization URL to redirect the browser to. */
export async function beginVerification(selection: Selection): Promise<string> {
  const { relyingParty, flows } = await services();
  const trace = new ProtocolTrace();
  const started = await startAuthorization(relyingParty, selection, { trace }).catch((error: unknown) => {
    throw new TracedFailure(error, trace);
  });
  const { state, nonce, codeVerifier, issuer, createdAt } = started.pending;
  // The cookie keeps only the secrets; the rest waits server-side as long as the flow may.
  await flows.set(state, { issuer, selection, trace: trace.events }, PENDING_TTL_MS / 1000);
  const session = await getSession();
  addPending(session, state, { nonce, codeVerifier, createdAt });
  await session.save();
  return started.authorizationUrl;
}

/** Completes the flow for a callback; the pending authorization is consumed whatever happens. */
export async function finishVerification(params: URLSearchParams): Promise<VerificationResult> {
  const { relyingParty, results, config, flows } = await services();
  const session = await getSession();
  const state = params.get('state');
  const secrets = takePending(session, state);
  await session.save();

  // Only a flow this browser started continues; a forged callback finds nothing and starts an
  // empty trace. (Both halves are needed: the cookie's secrets and the server's record.)
  const flow = secrets && state ? await flows.take(state) : undefined;
  const pending: PendingAuthorization | undefined =
    secrets && flow && state ? { state, ...secrets, issuer: flow.issuer, selection: flow.selection } : undefined;
  const trace = new ProtocolTrace(flow?.trace ?? []);
  const completed = await completeAuthorization(relyingParty, params, pending, { trace }).catch((error: unknown) => {
    throw new TracedFailure(error, trace);
  });
  const signingCertificate = await certificateOf(completed.idToken.signingKey);
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
    trace: presentTrace(trace.events, () => signingCertificate),
    signingCertificate,
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

/** The code the failure page shows for what was thrown. */
export function failureCodeOf(thrown: unknown): FailureCode {
  const error = thrown instanceof TracedFailure ? thrown.error : thrown;
  return isIdvError(error) ? error.code : 'internal_error';
}

/** Records a failure for the failure page; never includes identity data. */
export async function recordFailure(thrown: unknown): Promise<FailureRecord> {
  const { failures } = await services();
  const error = thrown instanceof TracedFailure ? thrown.error : thrown;
  // A failure's trace never holds an ID token (it is only traced once valid): no certificate to read.
  const trace = thrown instanceof TracedFailure ? presentTrace(thrown.trace.events) : [];
  const record: FailureRecord = isIdvError(error)
    ? {
        id: randomToken(24),
        code: error.code,
        message: error.message,
        ...(typeof error.cause.description === 'string' ? { description: error.cause.description } : {}),
        createdAt: Date.now(),
        trace,
      }
    : { id: randomToken(24), code: 'internal_error', message: 'Something went wrong on our side.', createdAt: Date.now(), trace };
  if (!isIdvError(error)) console.error('[idv] unexpected failure', error);
  await failures.set(record.id, record, FAILURE_TTL_SECONDS);
  return record;
}

export async function getFailure(id: string): Promise<FailureRecord | undefined> {
  return (await services()).failures.get(id);
}
