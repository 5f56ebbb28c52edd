/**
 * Which server process answers a connection, when several (WEB_CONCURRENCY) share one port: the
 * process that holds the server's end of that TCP connection, found in Linux's own tables
 * (/proc/net/tcp names each socket's inode, /proc/<pid>/fd each process's sockets). So a test can
 * prove that both processes serve without the app saying which one it is.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';

/** The inode of the established socket whose local port is `serverPort` and remote port `clientPort` (IPv4 and IPv6). */
function serverSocketInode(serverPort: number, clientPort: number): string | undefined {
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // sl local_address rem_address st … inode: addresses as HEXADDRESS:HEXPORT, state 01 = ESTABLISHED.
      const [local, remote, state, inode] = [fields[1], fields[2], fields[3], fields[9]];
      if (!local || !remote || state !== '01') continue;
      const port = (address: string) => parseInt(address.slice(address.lastIndexOf(':') + 1), 16);
      if (port(local) === serverPort && port(remote) === clientPort) return inode;
    }
  }
  return undefined;
}

/** Whether process `pid` holds the socket `inode`. */
function holds(pid: number, inode: string): boolean {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`) === `socket:[${inode}]`;
      } catch {
        return false; // closed meanwhile
      }
    });
  } catch {
    return false; // the process is gone
  }
}

/**
 * Which of `pids` holds the server's end of the connection from local port `clientPort` to
 * `serverPort`: asked until one does (the primary accepts a connection and then hands it to a
 * worker), at most 5 s.
 */
export async function connectionOwner(serverPort: number, clientPort: number, pids: number[]): Promise<number> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const inode = serverSocketInode(serverPort, clientPort);
    const owner = inode === undefined ? undefined : pids.find((pid) => holds(pid, inode));
    if (owner !== undefined) return owner;
    if (Date.now() > deadline) throw new Error(`none of the processes ${pids.join(', ')} holds the connection from port ${clientPort} to ${serverPort}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** the server process that answered */
  pid: number;
}

/**
 * One HTTP request on a connection of its own (so that the cluster's round robin may hand it to
 * any process), answered by one of `pids`: which one is read from the open connection.
 */
export function requestOnOwnConnection(
  url: string,
  pids: number[],
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  const target = new URL(url);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  return new Promise<Answer>((resolve, reject) => {
    let owner: Promise<number> | undefined;
    const outgoing = httpRequest(target, { method: init.method ?? 'GET', headers: init.headers, agent }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        owner!.then((pid) => resolve({ status: incoming.statusCode!, headers: incoming.headers, body: Buffer.concat(chunks).toString('utf8'), pid }), reject);
      });
      incoming.on('error', reject);
    });
    // Looked up as soon as the connection is made, while the request is in flight (a server
    // shutting down closes the connection once it has answered).
    outgoing.on('socket', (socket) =>
      socket.once('connect', () => {
        owner = connectionOwner(Number(target.port), socket.localPort!, pids);
        owner.catch(() => {}); // handled when the answer ends
      }),
    );
    outgoing.on('error', reject);
    outgoing.end(init.body);
  }).finally(() => agent.destroy());
}
