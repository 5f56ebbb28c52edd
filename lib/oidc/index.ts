/**
 * The relying-party core: one module per protocol step, jose and relative imports only.
 * Import what you need from here, or copy the module of the step you need.
 */
export * from './types';
export * from './errors';
export { DEFAULT_TIMEOUT_MS } from './http';
export * from './discovery';
export * from './jwks';
export * from './client-keys';
export * from './client-assertion';
export * from './pkce';
export * from './claims-request';
export * from './request-object';
export * from './par';
export * from './authorization-url';
export * from './callback';
export * from './token';
export * from './id-token';
export * from './verified-claims';
export * from './flow';
export * from './trace';
