/**
 * The client's address, for rate limits. Each proxy in front of the app appends the address it
 * received a request from to `X-Forwarded-For`; with `TRUST_PROXY` = N trusted proxies, the
 * client is the entry the furthest of them appended, the N-th from the right. Entries further
 * left were written by the client and are ignored.
 *
 * With no proxy (N = 0), Next.js's server puts the socket's address in `X-Forwarded-For`, but
 * only when the request carries none (it keeps a client's own header), so the address is the
 * client's own claim there: the per-address limit is then advisory and the overall limit the
 * one that holds.
 */
export function clientAddress(headers: Headers, trustedProxies: number): string {
  const entries = (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) return 'unknown';
  const index = Math.max(0, entries.length - Math.max(trustedProxies, 1));
  // An address is short; anything else is a client's invention, and a key that must stay small.
  return entries[index]!.slice(0, 64);
}
