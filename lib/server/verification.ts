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
  type IdvErrorCode,
  type Selection,
  type ValidatedIdToken,
  type VerifiedClaims,
} from '@/lib/oidc';
import { presentTrace, type TraceEntryView } from '@/lib/view/trace-view';
import { describeCertificate } from './certificate';
import { addPending, getSession, PENDING_TTL_MS, takePending } from './session';
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
  /** every exchange of the flow, decoded and with secrets masked */
  trace: TraceEntryView[];
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
  /** the exchanges up to the failure (never identity data: the ID token is only traced once valid) */
  trace: TraceEntryView[];
}

/** The trace for display: the signing certificate is read from the verified key's `x5c`. */
async function present(trace: ProtocolTrace): Promise<TraceEntryView[]> {
  const certificates = new Map<string, Awaited<ReturnType<typeof describeCertificate>>>();
  for (const event of trace.events) {
    const x5c = event.type === 'note' && event.step === 'id_token' ? (event.detail?.signingKey as { x5c?: unknown })?.x5c : undefined;
    if (Array.isArray(x5c) && typeof x5c[0] === 'string') certificates.set(x5c[0], await describeCertificate(x5c[0]));
  }
  return presentTrace(trace.events, (x5c) => certificates.get(x5c));
}

/** Thrown work keeps its trace, so the failure page can show the exchanges up to the failure. */
class TracedFailure extends Error {
  constructor(readonly error: unknown, readonly trace: ProtocolTrace) {
    super('traced failure');
  }
}

/** Starts the flow and returns the authorization URL to redirect the browser to. */
export async function beginVerification(selection: Selection): Promise<string> {
  const { relyingParty, traces } = await services();
  const trace = new ProtocolTrace();
  const started = await startAuthorization(relyingParty, selection, { trace }).catch((error: unknown) => {
    throw new TracedFailure(error, trace);
  });
  // The trace continues at the callback; it waits server-side as long as the pending flow may.
  await traces.set(started.pending.state, trace.events, PENDING_TTL_MS / 1000);
  const session = await getSession();
  addPending(session, started.pending);
  await session.save();
  return started.authorizationUrl;
}

/** Completes the flow for a callback; the pending authorization is consumed whatever happens. */
export async function finishVerification(params: URLSearchParams): Promise<VerificationResult> {
  const { relyingParty, results, config, traces } = await services();
  const session = await getSession();
  const pending = takePending(session, params.get('state'));
  await session.save();

  // Only a flow this browser started continues its trace; a forged callback starts an empty one.
  const trace = new ProtocolTrace(pending ? ((await traces.take(pending.state)) ?? []) : []);
  const completed = await completeAuthorization(relyingParty, params, pending, { trace }).catch((error: unknown) => {
    throw new TracedFailure(error, trace);
  });
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
    trace: await present(trace),
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
export async function recordFailure(thrown: unknown): Promise<FailureRecord> {
  const { failures } = await services();
  const error = thrown instanceof TracedFailure ? thrown.error : thrown;
  const trace = thrown instanceof TracedFailure ? await present(thrown.trace) : [];
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
