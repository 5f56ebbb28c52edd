/**
 * The codes a failed verification can end with, and the app's own refusals. The core's
 * `IdvError` carries only the codes the core raises (lib/oidc/errors.ts); the state layer's
 * `StoreError` its own; the app refuses a start form that is not a valid selection, a
 * state-changing request from another site, and a start over the rate limits. Every code reaches
 * the failure page the same way, and each language explains each one (lib/view/failure-messages.ts).
 */
import type { SelectionProblem } from '@/lib/oidc/claims-request';
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

/** A short plain token: what a message or a detail may repeat of a request's values. */
export const PLAIN_TOKEN = /^[A-Za-z0-9_.:-]{1,40}$/;

/**
 * A value a request sent, as a failure's detail keeps it: `text`, the value itself, only when it
 * is short and plain enough to repeat (a short plain token: `sentValue`; an `Origin` that is a
 * plain http(s) origin), else only its `length`. So a record never keeps what a request sent at
 * length or in any shape, and the page quotes it in the reader's language.
 */
export type SentValue = { text: string } | { length: number };

/** `value` as a detail keeps it: itself when it is a short plain token, else its length. */
export function sentValue(value: string): SentValue {
  return PLAIN_TOKEN.test(value) ? { text: value } : { length: value.length };
}

/**
 * The start form's fields whose values come from a list, which "is not a known …" names (the
 * field names of lib/verification/selection.ts, whose links name the same).
 */
export type ListedField = 'preset' | 'trust_framework' | 'claim' | 'essential' | 'evidence' | 'document_detail';

/** What a state-changing request refused for coming from another site asked to do. */
export type GuardedAction = 'start' | 'sign_out' | 'settings';

/**
 * Why the app refused a request, as a code with its values and no words of either language: the
 * failure page words it when it is read (lib/view/failure-detail.ts).
 */
export type AppErrorDetail =
  /** a value a listed field does not take (without `value`: one that could not be read at all) */
  | { kind: 'unknown_value'; field: ListedField; value?: SentValue }
  /** a field the start form does not have */
  | { kind: 'unknown_field'; name: SentValue }
  /** a selection the service's rules refuse (the picker says so before it is sent) */
  | { kind: 'selection_problem'; problem: SelectionProblem }
  /** the personal number to look up is longer than `max` characters */
  | { kind: 'personal_number_too_long'; max: number }
  /** a form's body is over `maxBytes` */
  | { kind: 'form_too_large'; form: 'start' | 'settings'; maxBytes: number }
  /** the start form sent as another type than application/x-www-form-urlencoded */
  | { kind: 'form_not_urlencoded' }
  /** a setting, or a value of it, the app does not know */
  | { kind: 'unknown_preference'; name: SentValue; value: SentValue }
  /** a state-changing request from another site (`from`: its `Origin`, when it sent one; `app`: APP_URL's origin) */
  | { kind: 'cross_site'; action: GuardedAction; from?: SentValue; app: string };

export class AppError extends Error {
  /** Recognised across copies of this module (Next.js may bundle one per route), like `isAppError`. */
  readonly brand = 'AppError';

  /**
   * @param message the refusal in English, for logs
   * @param detail the same as a code with its values, which the failure page words in the reader's language
   */
  constructor(
    readonly code: AppErrorCode,
    message: string,
    readonly detail: AppErrorDetail,
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
 * anything else only by its length, so a message never repeats what a request sent at length or
 * in any shape (a detail keeps it the same way: `sentValue`).
 */
export function quoteInput(value: string): string {
  const sent = sentValue(value);
  return 'text' in sent ? `"${sent.text}"` : `a value of ${sent.length} characters`;
}
