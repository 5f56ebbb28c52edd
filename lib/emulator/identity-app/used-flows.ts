/**
 * Used-up request_uris and completed interactions, remembered for an hour with whose they were: a
 * page reached again after the verification (the browser's Back button from the relying party's
 * result) explains that the request was used and links back to the relying party, rather than
 * showing a bare error. Kept apart from the one-time records (whose tombstones last only as long
 * as the item would have), and bounded by the store's budget and this lifetime.
 * @see DECISIONS.md "Flow state"
 */
import type { EmulatorContext } from '../context';
import type { UsedFlow } from '../state';

/** How long a used flow is remembered: longer than any of its pages may be reached by Back. */
export const USED_FLOW_TTL_SECONDS = 3600;

function usedFlow(clientId: string, redirectUri: string): UsedFlow {
  return { clientId, redirectOrigin: new URL(redirectUri).origin };
}

/** Remembers that GET /auth used up `requestUri`. */
export async function rememberUsedRequestUri(context: EmulatorContext, requestUri: string, clientId: string, redirectUri: string): Promise<void> {
  await context.usedFlows.set(`request_uri:${requestUri}`, usedFlow(clientId, redirectUri), USED_FLOW_TTL_SECONDS);
}

/** Remembers that an interaction was completed (its answer delivered to the client). */
export async function rememberCompletedInteraction(context: EmulatorContext, interactionId: string, clientId: string, redirectUri: string): Promise<void> {
  await context.usedFlows.set(`interaction:${interactionId}`, usedFlow(clientId, redirectUri), USED_FLOW_TTL_SECONDS);
}

/** Whose a used-up request_uri was, while remembered. */
export function usedRequestUri(context: EmulatorContext, requestUri: string): Promise<UsedFlow | undefined> {
  return context.usedFlows.get(`request_uri:${requestUri}`);
}

/** Whose a completed interaction was, while remembered. */
export function completedInteraction(context: EmulatorContext, interactionId: string): Promise<UsedFlow | undefined> {
  return context.usedFlows.get(`interaction:${interactionId}`);
}
