import 'server-only';
/**
 * The service at a glance, for the header's badge on every page: green when the doctor's last
 * findings fetched discovery and the JWKS with nothing to warn of, amber when degraded (a warning
 * or a failed check, or discovery unreachable while the core still serves its last good copy),
 * red when discovery or the JWKS cannot be fetched (or the configuration does not load).
 *
 * It costs a page next to nothing: it reads the doctor's findings, made at most once per 15 s
 * (`doctorFindings`), in the background once a first set has settled; only the first pages after
 * start-up wait for them, no longer than `HEALTH_WAIT_MS` (then "checking"). A slow or silent
 * provider never holds a page up.
 */
import type { DoctorEndpoint, DoctorFindings, DoctorStatus, TransportCause } from '@/lib/verification/doctor-findings';
import { doctorFindings, reusedFor, UNREACHABLE_RETRY_MS } from './doctor-cache';

/** How long a page waits for findings being made: a healthy provider answers well within it. */
export const HEALTH_WAIT_MS = 250;

export type ServiceState = 'ok' | 'degraded' | 'down' | 'checking';

/** Why the state is not `ok`. */
export type HealthReason =
  /** discovery or the JWKS could not be fetched (`stale`: the core still uses its last good discovery document) */
  | { kind: 'unreachable'; endpoint: DoctorEndpoint; cause: TransportCause | 'status' | 'not_object'; stale: boolean }
  /** the doctor's lines that warn or fail, the service fetched */
  | { kind: 'findings'; warnings: number; failures: number }
  /** the configuration does not load */
  | { kind: 'configuration' };

export interface ServiceHealth {
  state: ServiceState;
  /** unknown only while checking, or when the configuration does not load */
  mode?: 'emulator' | 'provider';
  issuer?: string;
  reason?: HealthReason;
}

const count = (findings: DoctorFindings, status: DoctorStatus) => findings.lines.filter((line) => line.status === status).length;

/**
 * The badge's state from the doctor's findings. `staleDiscovery`: whether the core still serves
 * a discovery document it fetched before (RFC 5861 stale-if-error), which keeps verifications
 * going while a refresh fails.
 */
export function healthOf(findings: DoctorFindings, staleDiscovery = false): ServiceHealth {
  const { service } = findings;
  if (!service) return { state: 'down', reason: { kind: 'configuration' } };
  const where = { mode: service.mode, issuer: service.issuer };
  const { problem } = service;
  if (problem) {
    const stale = problem.endpoint === 'discovery' && staleDiscovery;
    const cause = problem.kind === 'error' ? problem.cause : problem.kind;
    return { ...where, state: stale ? 'degraded' : 'down', reason: { kind: 'unreachable', endpoint: problem.endpoint, cause, stale } };
  }
  const [warnings, failures] = [count(findings, 'warn'), count(findings, 'fail')];
  if (warnings + failures > 0) return { ...where, state: 'degraded', reason: { kind: 'findings', warnings, failures } };
  return { ...where, state: 'ok' };
}

/** Whether the core serves a discovery document (within its stale window) though the doctor could not fetch one; bounded like the rest. */
async function coreServesDiscovery(): Promise<boolean> {
  const { services } = await import('./services');
  const { relyingParty } = await services();
  // While backed off after a failure, the core answers at once (its stale copy, or the failure).
  const answered = relyingParty.discovery.get(relyingParty.issuer).then(
    () => true,
    () => false,
  );
  return (await withinMs(answered, HEALTH_WAIT_MS)) ?? false;
}

/** Whether the service could not be reached: then it is asked again sooner, and pages wait for the answer. */
const unreachable = (health: ServiceHealth) => health.reason?.kind === 'unreachable';

/** One state per set of the doctor's findings: at most once per 15 s, or per 2 s while unreachable. */
const currentHealth: () => Promise<ServiceHealth> = reusedFor(
  15_000,
  async () => {
    const findings = await doctorFindings();
    const staleDiscovery = findings.service?.problem?.endpoint === 'discovery' ? await coreServesDiscovery().catch(() => false) : false;
    return healthOf(findings, staleDiscovery);
  },
  { failed: unreachable, retryAfterMs: UNREACHABLE_RETRY_MS },
);

/** `promise`'s value if it settles within `ms`, else undefined (the promise keeps going). */
export async function withinMs<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const waited = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([promise, waited]);
  } finally {
    clearTimeout(timer);
  }
}

/** What each set of findings came to, once it settled; and the last that did. */
const globalForHealth = globalThis as typeof globalThis & {
  __idvHealthOf?: WeakMap<Promise<ServiceHealth>, ServiceHealth>;
  __idvSettledHealth?: ServiceHealth;
};
const settledHealth = (globalForHealth.__idvHealthOf ??= new WeakMap());

/**
 * The service's state for the header. Once a state has settled, it is answered at once while a
 * newer one is made in the background (stale-while-revalidate): a page never waits for a
 * refresh, which against a silent provider lasts up to the core's 10 s timeout. Before the
 * first, and while the last said the service could not be reached, the newer findings are waited
 * for up to `waitMs` (so the first page after the service is back shows it back), then the last
 * state, or `checking`. Never throws: a failure to find out is `down`.
 */
export async function serviceHealth(waitMs = HEALTH_WAIT_MS): Promise<ServiceHealth> {
  const current = currentHealth();
  const known = settledHealth.get(current);
  if (known) return known;
  const settling = current.then(
    (health) => health,
    (): ServiceHealth => ({ state: 'down', reason: { kind: 'configuration' } }),
  );
  void settling.then((health) => {
    settledHealth.set(current, health);
    globalForHealth.__idvSettledHealth = health;
  });
  const last = globalForHealth.__idvSettledHealth;
  if (last && !unreachable(last)) return last;
  return (await withinMs(settling, waitMs)) ?? last ?? { state: 'checking' };
}
