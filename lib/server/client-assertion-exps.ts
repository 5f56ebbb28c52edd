import 'server-only';
/**
 * The `exp` seconds of our EdDSA client assertions, claimed in the shared store, so that instances
 * signing with one Ed25519 key never make the same assertion (lib/oidc/client-assertion.ts:
 * its signatures are deterministic, 2.1 allows no `jti`, and the service refuses a replay).
 * In memory the store is this instance's alone: the core's own in-process rule, within the
 * store's budget.
 */
import { CLIENT_ASSERTION_LIFETIME_SECONDS, type ExpAllocator } from '@/lib/oidc';
import type { Store } from '@/lib/store/store';

/**
 * Claims each second with the store's "set if absent" (Redis `SET … NX PX`), held for an
 * assertion's lifetime: the core never asks for a second further ahead, so the claim outlives it.
 * @throws StoreError (through the core's `createClientAssertion`) when the store cannot answer
 */
export function storeExpAllocator(store: Store): ExpAllocator {
  return {
    claimExp: (kid, second) => store.setIfAbsent(`client-assertion-exp:${kid}:${second}`, true, CLIENT_ASSERTION_LIFETIME_SECONDS),
  };
}
