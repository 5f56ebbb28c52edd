/**
 * The codes a failed verification can end with, and the app's own refusals. The core's
 * `IdvError` carries only the codes the core raises (lib/oidc/errors.ts); the state layer's
 * `StoreError` its own; the app refuses a start form that is not a valid selection, a
 * state-changing request from another site, and a start over the rate limits. Every code reaches
 * the failure page the same way, and each language explains each one (lib/view/failure-messages.ts).
 */
import { OAUTH_ERROR_CODES, RP_ERROR_CODES, type IdvErrorCode } from '@/lib/oidc/errors';
import type { StoreErrorCode } from '@/lib/store/store';

const STORE_ERROR_CODES = ['store_full', 'store_unavailable'] as const satisfies readonly StoreErrorCode[];
const APP_ERROR_CODES = ['invalid_selection', 'invalid_preference', 'forbidden_origin', 'rate_limited', 'internal_error'] as const;

/** Every code a failure can carry: the core's, the state layer's, and the app's own. */
export type FailureCode = IdvErrorCode | StoreErrorCode | (typeof APP_ERROR_CODES)[number];

export const FAILURE_CODES: readonly FailureCode[] = [...OAUTH_ERROR_CODES, ...RP_ERROR_CODES, ...STORE_ERROR_CODES, ...APP_ERROR_CODES];

/** The code as a known failure code, or undefined (a query parameter may say anything). */
export function knownFailureCode(value: unknown): FailureCode | undefined {
  return typeof value === 'string' && (FAILURE_CODES as readonly string[]).includes(value) ? (value as FailureCode) : undefined;
}

/**
 * Refusals: a request turned away before any work, nothing stored for it, to be tried again
 * after `Retry-After` seconds. The failure page is served with their status (proxy.ts).
 */
const REFUSAL_STATUS: Partial<Record<FailureCode, 429 | 503>> = { rate_limited: 429, store_full: 503, store_unavailable: 503 };

/** The HTTP status of the failure page for a refusal's code; undefined for any other failure (200). */
export function refusalStatus(code: FailureCode): 429 | 503 | undefined {
  return REFUSAL_STATUS[code];
}

/** The path of the failure page. */
export const FAILURE_PAGE = '/failure';
/** A wait longer than this (an hour) is not one anybody should be told to wait. */
const MAX_RETRY_AFTER_SECONDS = 3600;

/** What the failure page's link says: the code, the record's id when one was kept, a refusal's wait. */
export interface FailureLink {
  code: FailureCode;
  id?: string;
  retryAfterSeconds?: number;
}

/** The failure page's path and query for `failure`. */
export function failureLink({ code, id, retryAfterSeconds }: FailureLink): string {
  const query = new URLSearchParams({ code });
  if (id !== undefined) query.set('id', id);
  if (retryAfterSeconds !== undefined) query.set('retry_after', String(retryAfterSeconds));
  return `${FAILURE_PAGE}?${query}`;
}

/**
 * The failure page's query as far as it can be trusted: anyone can write a link, so an unknown
 * code reads as `internal_error`, and a wait that is not 1 to 3,600 whole seconds as none.
 */
export function readFailureLink(query: URLSearchParams | Record<string, string | string[] | undefined>): FailureLink {
  const get = (name: string) => (query instanceof URLSearchParams ? query.get(name) : query[name]);
  const code = knownFailureCode(get('code')) ?? 'internal_error';
  const id = get('id');
  const retry = get('retry_after');
  const seconds = typeof retry === 'string' && /^\d{1,4}$/.test(retry) ? Number(retry) : undefined;
  return {
    code,
    ...(typeof id === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(id) ? { id } : {}),
    ...(seconds !== undefined && seconds >= 1 && seconds <= MAX_RETRY_AFTER_SECONDS ? { retryAfterSeconds: seconds } : {}),
  };
}

export type AppErrorCode = Extract<FailureCode, 'invalid_selection' | 'invalid_preference' | 'forbidden_origin'>;

export class AppError extends Error {
  /** Recognised across copies of this module (Next.js may bundle one per route), like `isAppError`. */
  readonly brand = 'AppError';

  constructor(
    readonly code: AppErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError || (typeof error === 'object' && error !== null && (error as { brand?: unknown }).brand === 'AppError');
}

/**
 * A value from a request as an error message quotes it: a short plain token as it is (`"x"`),
 * anything else only by its length, so a message (and the failure record that keeps it) never
 * repeats what a request sent at length or in any shape.
 */
export function quoteInput(value: string): string {
  return /^[A-Za-z0-9_.:-]{1,40}$/.test(value) ? `"${value}"` : `a value of ${value.length} characters`;
}
