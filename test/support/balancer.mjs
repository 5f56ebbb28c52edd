/**
 * A round-robin HTTP balancer for the several-instances tests: every request goes to the next
 * backend in turn, as a balancer without sticky sessions would send it (serverless hosts likewise
 * run any request anywhere). Adds `X-Served-By: <backend port>` to each response, so a test can
 * see that a flow crossed instances. Loopback only.
 *
 *   node test/support/balancer.mjs <listen port> <backend port> <backend port> [<listen host>]
 */
import { createServer, request as forward } from 'node:http';

const [listenPort, first, second, host = '127.0.0.1'] = process.argv.slice(2);
const backendPorts = [Number(first), Number(second)];
if (!Number(listenPort) || !backendPorts.every(Boolean) || !host.startsWith('127.')) {
  console.error('usage: node test/support/balancer.mjs <listen port> <backend port> <backend port> [<loopback host>]');
  process.exit(2);
}

let next = 0;
const server = createServer((incoming, outgoing) => {
  const port = backendPorts[next];
  next = (next + 1) % backendPorts.length;
  const upstream = forward(
    { host: '127.0.0.1', port, method: incoming.method, path: incoming.url, headers: incoming.headers },
    (response) => {
      outgoing.writeHead(response.statusCode ?? 502, { ...response.headers, 'x-served-by': String(port) });
      response.pipe(outgoing);
    },
  );
  upstream.on('error', (error) => {
    if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'text/plain', 'x-served-by': String(port) });
    outgoing.end(`balancer: backend ${port} failed: ${error.message}`);
  });
  incoming.pipe(upstream);
});
server.listen(Number(listenPort), host, () => console.log(`balancer on ${host}:${listenPort} → ${backendPorts.join(', ')}`));
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.close(() => process.exit(0)));
