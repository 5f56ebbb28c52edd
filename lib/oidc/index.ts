/**
 * The relying-party core: one module per protocol step, jose and relative imports only.
 * Import what you need from here, or copy the module of the step you need (its header names the
 * files it must be copied with). This file re-exports every module, so copy the whole folder
 * with it.
 *
 * Depends on: jose (through the modules it re-exports).
 * Copy with: the whole folder (every other .ts file here; the tests are not needed).
 */
export * from './types.ts';
export * from './errors.ts';
export { DEFAULT_TIMEOUT_MS } from './http.ts';
export * from './discovery.ts';
export * from './jwks.ts';
export * from './client-keys.ts';
export * from './client-assertion.ts';
export * from './pkce.ts';
export * from './claims-request.ts';
export * from './request-object.ts';
export * from './par.ts';
export * from './authorization-url.ts';
export * from './callback.ts';
export * from './token.ts';
export * from './id-token-encryption.ts';
export * from './checks.ts';
export * from './id-token.ts';
export * from './verified-claims.ts';
export * from './flow.ts';
export * from './trace.ts';
export * from './version.ts';
