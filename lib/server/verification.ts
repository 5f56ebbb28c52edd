import 'server-only';
/**
 * The app's use of the core: start a verification (POST /auth/start), finish it (GET
 * /auth/callback), and keep the outcome in the stores. Plain functions of what they need: the
 * process's services (services.ts), the browser's binding and the person's language, which the
 * route handlers read from the request and pass in (as examples/express-server.ts does with the
 * core), and which a test passes as it likes (test/scenarios/verification-flow.test.ts).
 */
import {
  completeAuthorization,
  ProtocolTrace,
  randomToken,
  startAuthorization,
  type PendingAuthorization,
  type ValidatedIdToken,
  type Selection,
} from '@/lib/oidc';
import { personas } from '@/lib/emulator';
import type { AssurancePolicy } from '@/lib/verification/policy';
import type { DeliberateAnswer } from '@/lib/verification/diagnostics';
import type { Locale } from '@/lib/i18n/locale';
import type { ServerConfig } from './env';
import { clientAddress } from './client-address';
import { traced } from './failures';
import type { Services } from './services';
import { PENDING_TTL_MS } from './session';
import { ownerOf, type RecordStore } from './result-store';
import { STORED_FORMAT, type PendingFlow, type StoredIdToken, type VerificationResult } from '@/lib/verification/stored';
import { signingCertificateOf } from '@/lib/verification/signing-certificate';
import { recordTrace } from '@/lib/verification/trace';

/** How long a verified identity is kept before it is deleted (the result page says so). */
export const RESULT_TTL_SECONDS = 15 * 60;

/** What a result keeps of its ID token (see StoredIdToken). */
export function storedIdToken({ jweHeader, jwsHeader, claims }: ValidatedIdToken): StoredIdToken {
  const rest: StoredIdToken['claims'] & { verified_claims?: unknown } = { ...claims };
  delete rest.verified_claims;
  return { jweHeader, jwsHeader, claims: rest };
}

/** What the flow needs of the process. */
export type FlowServices = Pick<Services, 'config' | 'relyingParty' | 'flows' | 'results' | 'resultOfBrowser' | 'startLimiter' | 'ownedStores' | 'diagnostics'>;

/** Who starts a flow: the browser's session binding (session.ts) and the language of its pages. */
export interface Visitor {
  browser: string;
  locale: Locale;
}

/**
 * Counts a start against the start rate limits (the request's headers give the client address),
 * before its form is read: a start that turns out invalid counts too.
 * @throws RateLimited over a limit, StoreError when the store cannot count
 */
export async function countStart({ startLimiter, config }: Pick<FlowServices, 'startLimiter' | 'config'>, headers: Headers): Promise<void> {
  await startLimiter.consume(clientAddress(headers, config.trustedProxies));
}

/**
 * What a flow's request object carries beyond spec 2.2, neither of which 2.2 lists:
 * - `ui_locales`: the service's pages in the person's language, ours first and English as the
 *   second choice, where IDV_UI_LOCALES allows;
 * - `login_hint` (OpenID Connect Core §3.1.2.1): the persona a preset suggests, so that the
 *   embedded emulator pre-selects them (it takes login_hint at either strictness). Only to the
 *   embedded emulator, and only the id of a persona it has: a real service never gets a test
 *   persona's id, and a form's odd value goes nowhere.
 */
export function requestExtras(
  { locale, persona }: { locale: Locale; persona?: string | undefined },
  config: Pick<ServerConfig, 'mode' | 'uiLocales'>,
): { uiLocales?: string; loginHint?: string } {
  const knownPersona = persona !== undefined && personas.some((candidate) => candidate.id === persona);
  return {
    ...(config.uiLocales.send ? { uiLocales: locale === 'en' ? 'en' : `${locale} en` } : {}),
    ...(config.mode === 'emulator' && knownPersona ? { loginHint: persona } : {}),
  };
}

/**
 * Starts the flow and returns the authorization URL to redirect the browser to (counted by
 * `countStart` before).
 * @param answerAgain what the service did on purpose to the flow whose request this asks for again
 *   (a failure's record, emulator mode): the service is told to answer this flow the same way
 *   (diagnostics.ts), so that the same request meets the same answer. Without a service that can
 *   (a real one), the plain request.
 * @throws StoreError when the store refuses, the core's failure with its trace and its flow's
 *   `state` (failures.ts `traced`)
 */
export async function beginVerification(
  { relyingParty, flows, config, diagnostics }: FlowServices,
  { browser, locale }: Visitor,
  { selection, policy, persona }: { selection: Selection; policy: AssurancePolicy; persona?: string | undefined },
  answerAgain?: DeliberateAnswer,
): Promise<string> {
  const trace = new ProtocolTrace();
  const extras = requestExtras({ locale, persona }, config);
  const again = answerAgain && diagnostics;
  if (again) await diagnostics.answerPushAgain(answerAgain);
  const started = await startAuthorization(relyingParty, selection, { trace, ...extras }).catch((error: unknown) => {
    throw traced(error, trace, { selection, policy, ...(trace.state ? { state: trace.state } : {}) });
  });
  const { state, nonce, codeVerifier, issuer, createdAt } = started.pending;
  if (again) await diagnostics.answerFlowAgain(state, answerAgain);
  // Everything waits server-side, bound to this browser, as long as the flow may.
  await flows.setOwned(browser, state, { browser, issuer, selection, policy, nonce, codeVerifier, createdAt, trace: trace.events }, PENDING_TTL_MS / 1000);
  return started.authorizationUrl;
}

/**
 * The pending flow of this callback, consumed, if this browser started it. A callback opened in
 * another browser finds nothing and leaves the flow to its owner; of two deliveries of one
 * callback, one gets the flow (the store's take is atomic).
 */
async function takeOwnFlow(
  flows: RecordStore<PendingFlow>,
  browser: string | undefined,
  state: string | null,
): Promise<(PendingAuthorization & Pick<PendingFlow, 'trace' | 'policy'>) | undefined> {
  if (!browser || !state) return undefined;
  const stored = await flows.get(state);
  if (!stored || stored.browser !== browser) return undefined;
  const flow = await flows.take(state);
  if (!flow || flow.browser !== browser) return undefined;
  const { nonce, codeVerifier, createdAt, issuer, selection, trace, policy } = flow;
  return { state, nonce, codeVerifier, createdAt, issuer, selection, trace, ...(policy ? { policy } : {}) };
}

/**
 * Completes the flow for a callback opened by `browser` (its binding, if the request carries
 * one); the pending authorization is consumed whatever happens.
 */
export async function finishVerification(
  { relyingParty, results, resultOfBrowser, config, flows }: FlowServices,
  browser: string | undefined,
  params: URLSearchParams,
): Promise<VerificationResult> {
  // Only a flow this browser started continues; a forged callback finds nothing and starts an
  // empty trace.
  const pending = await takeOwnFlow(flows, browser, params.get('state'));
  const trace = new ProtocolTrace(pending?.trace ?? []);
  const completed = await completeAuthorization(relyingParty, params, pending, { trace }).catch((error: unknown) => {
    // Only the flow's own browser gets here with its request: a forged callback has none to repeat.
    throw traced(error, trace, pending && { selection: pending.selection, ...(pending.policy ? { policy: pending.policy } : {}), state: pending.state });
  });
  const now = Date.now();
  const { signingCertificate, signingCertificateCheck } = await signingCertificateOf(completed.idToken.signingKey, config.trustAnchors, new Date(now));
  const result: VerificationResult = {
    format: STORED_FORMAT,
    id: randomToken(24),
    createdAt: now,
    expiresAt: now + RESULT_TTL_SECONDS * 1000,
    mode: config.mode,
    issuer: relyingParty.issuer,
    clientId: relyingParty.client.clientId,
    selection: pending!.selection,
    ...(pending!.policy ? { policy: pending!.policy } : {}),
    verifiedClaims: completed.verifiedClaims,
    idToken: storedIdToken(completed.idToken),
    tokenExpiresIn: completed.token.expiresIn,
    trace: recordTrace(trace.events),
    signingCertificate,
    signingCertificateCheck,
  };
  // Owned by the browser, with everything else it owns: sign-out deletes them all at once, also
  // a result two callbacks racing left behind.
  await results.setOwned(browser!, result.id, result, RESULT_TTL_SECONDS);
  // The browser sees its newest result; the one it replaces goes at once.
  const previous = await resultOfBrowser.get(browser!);
  await resultOfBrowser.setOwned(browser!, browser!, result.id, RESULT_TTL_SECONDS);
  if (previous && previous !== result.id) await results.delete(previous);
  return result;
}

/** The result of this browser's last verification, if it is still kept. */
export async function currentResult(
  { results, resultOfBrowser }: Pick<FlowServices, 'results' | 'resultOfBrowser'>,
  browser: string | undefined,
): Promise<VerificationResult | undefined> {
  if (!browser) return undefined;
  const id = await resultOfBrowser.get(browser);
  const result = id === undefined ? undefined : await results.get(id);
  // One kept by another version of the app reads as expired (STORED_FORMAT).
  return result?.format === STORED_FORMAT ? result : undefined;
}

/**
 * Sign-out: deletes everything this browser owns (its results, pending flows and failure
 * records: `Store.deleteOwned`, atomic on Redis). The caller deletes the session cookie.
 */
export async function signOut({ ownedStores }: Pick<FlowServices, 'ownedStores'>, browser: string | undefined): Promise<void> {
  if (!browser) return;
  for (const store of ownedStores) await store.deleteOwned(ownerOf(browser));
}
