/**
 * Prints, as a JSON array, one free TCP port for each host given as an argument (in order): the
 * ports the end-to-end servers listen on, so that the suite runs beside anything else on the
 * machine. All are held open until every one is chosen, so no two are the same. Run as a child
 * process by playwright.config.ts, which needs them before anything is started.
 *
 * Usage: node test/support/free-ports.mjs 127.0.0.1 127.0.0.4 …
 */
import { createServer } from 'node:net';

const hosts = process.argv.slice(2);
const servers = [];
const ports = [];
for (const host of hosts) {
  const server = createServer();
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  servers.push(server);
  ports.push(server.address().port);
}
await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
process.stdout.write(JSON.stringify(ports));
