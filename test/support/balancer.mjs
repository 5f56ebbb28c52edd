/**
 * A round-robin HTTP balancer for the several-instances tests: every request goes to the next
 * backend in turn, as a balancer without sticky sessions would send it (serverless hosts likewise
 * run any request anywhere). A backend that refuses the connection (stopped) is skipped for the
 * next one, as nginx's `proxy_next_upstream error` does: the request never reached it, so sending
 * it elsewhere is safe, a POST too. Adds `X-Served-By: <backend port>` to each response, so a
 * test can see that a flow crossed instances. Loopback only.
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
/** Test requests are small forms; the body is held so that it can be sent to another backend. */
const MAX_BODY_BYTES = 1024 * 1024;

let next = 0;

function send(incoming, outgoing, body, attempt) {
  const port = backendPorts[next];
  next = (next + 1) % backendPorts.length;
  const upstream = forward({ host: '127.0.0.1', port, method: incoming.method, path: incoming.url, headers: incoming.headers }, (response) => {
    outgoing.writeHead(response.statusCode ?? 502, { ...response.headers, 'x-served-by': String(port) });
    response.pipe(outgoing);
  });
  upstream.on('error', (error) => {
    if (error.code === 'ECONNREFUSED' && attempt + 1 < backendPorts.length) return send(incoming, outgoing, body, attempt + 1);
    if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'text/plain', 'x-served-by': String(port) });
    outgoing.end(`balancer: backend ${port} failed: ${error.message}`);
  });
  upstream.end(body);
}

const server = createServer((incoming, outgoing) => {
  const chunks = [];
  let size = 0;
  incoming.on('data', (chunk) => {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      outgoing.writeHead(413, { 'content-type': 'text/plain' }).end('balancer: body too large');
      incoming.destroy();
    } else chunks.push(chunk);
  });
  incoming.on('end', () => send(incoming, outgoing, Buffer.concat(chunks), 0));
});
server.listen(Number(listenPort), host, () => console.log(`balancer on ${host}:${listenPort} → ${backendPorts.join(', ')}`));
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.close(() => process.exit(0)));
