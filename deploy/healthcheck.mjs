/**
 * The Docker image's HEALTHCHECK: GET /healthz of the server in this container, at the address
 * scripts/start.mjs listens on, HOST (all interfaces when unset or 0.0.0.0 / ::, then asked over
 * loopback) and PORT. Exits 0 when it answers 200, else 1 with the reason on stderr.
 */
const host = process.env.HOST || '0.0.0.0';
const address = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
const url = `http://${address}:${process.env.PORT || '3000'}/healthz`;

try {
  const response = await fetch(url, { signal: AbortSignal.timeout(2500) });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
} catch (error) {
  console.error(`healthcheck: ${url}: ${error instanceof Error ? (error.cause?.message ?? error.message) : error}`);
  process.exit(1);
}
