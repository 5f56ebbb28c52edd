/**
 * The codes a failed verification can end with, and the app's own refusals. The core's
 * `IdvError` carries only the codes the core raises (lib/oidc/errors.ts); the state layer's
 * `StoreError` its own; the app refuses a start form that is not a valid selection, a
 * state-changing request from another site, and a start over the rate limits. Every code reaches
 * the failure page the same way, and each language explains each one (lib/view/failure-messages.ts).
 */
import type { IdvErrorCode } from '@/lib/oidc';
import type { StoreErrorCode } from '@/lib/store/store';

/** Every code a failure can carry: the core's, the state layer's, and the app's own. */
export type FailureCode = IdvErrorCode | StoreErrorCode | 'invalid_selection' | 'invalid_preference' | 'forbidden_origin' | 'rate_limited' | 'internal_error';

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
