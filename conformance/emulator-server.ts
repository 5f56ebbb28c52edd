/**
 * The kit's own emulator: lib/emulator served by node:http on one port, for a run that names no
 * `--emulator`. Its issuer is `http://<host>:<port>` (the relying party under test is configured
 * with it, e.g. IDV_BASE_URL), its state in this process's memory, its QA panel open to this
 * process only (it listens on loopback unless told otherwise), and its one client the relying
 * party under test, registered from the command line or EMULATOR_CLIENTS.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { createEmulator, NO_CONTENT_POLICY, parseRegisteredClients, type RegisteredClient } from '../lib/emulator';

/**
 * The relying party's keys as `--client-jwks` gives them: a public JWKS, or what
 * `npm run keys -- --json` prints (the public JWKS and both private keys, for a test relying
 * party the kit starts itself).
 */
export interface ClientKeys {
  jwks: unknown;
  /** the private keys, when the file held them: the relying party's IDV_SIGNING_KEY and IDV_ENCRYPTION_KEY */
  privateKeys?: { signing: unknown; encryption: unknown };
}

/**
 * Reads `--client-jwks`: the JSON itself, or the path of a file holding it.
 * @throws Error saying what is wrong, for a person at a terminal
 */
export function readClientKeys(value: string): ClientKeys {
  const text = value.trimStart().startsWith('{') ? value : readJwksFile(value);
  const parsed = parseJson(text, '--client-jwks');
  if (typeof parsed === 'object' && parsed !== null && 'public_jwks' in parsed) {
    const { public_jwks: jwks, IDV_SIGNING_KEY: signing, IDV_ENCRYPTION_KEY: encryption } = parsed as Record<string, unknown>;
    return { jwks, ...(signing && encryption ? { privateKeys: { signing, encryption } } : {}) };
  }
  return { jwks: parsed };
}

/** Where the relying party under test is registered from. */
export interface ClientRegistration {
  clientId: string;
  /** its keys (`--client-jwks`, readClientKeys) */
  keys?: ClientKeys;
  /** its redirect URIs (`--redirect-uri`, repeatable) */
  redirectUris: readonly string[];
  /** EMULATOR_CLIENTS: a JSON array in the app's format, used when `jwks` is not given */
  emulatorClients?: string;
}

/**
 * The client to register, from `--client-jwks` and `--redirect-uri`, else from EMULATOR_CLIENTS.
 * @throws Error saying what is missing or wrong, for a person at a terminal
 */
export function registeredClient(registration: ClientRegistration): RegisteredClient {
  const { clientId, keys, redirectUris, emulatorClients } = registration;
  if (keys === undefined) {
    if (emulatorClients === undefined) {
      throw new Error(
        `to start an emulator of its own, the kit needs your relying party's public keys and redirect URI: give --client-jwks FILE and --redirect-uri URL (or EMULATOR_CLIENTS), or name a running emulator with --emulator URL`,
      );
    }
    let clients: RegisteredClient[];
    try {
      clients = parseRegisteredClients(emulatorClients);
    } catch (error) {
      throw new Error(`EMULATOR_CLIENTS: ${error instanceof Error ? error.message : String(error)}`);
    }
    const client = clients.find((candidate) => candidate.clientId === clientId);
    if (!client)
      throw new Error(`EMULATOR_CLIENTS has no client '${clientId}' (it has: ${clients.map((candidate) => candidate.clientId).join(', ') || 'none'})`);
    return redirectUris.length > 0 ? { ...client, redirectUris: [...redirectUris] } : client;
  }
  if (redirectUris.length === 0) throw new Error('--client-jwks needs --redirect-uri: where the emulator sends the browser back to your relying party');
  const json = JSON.stringify([{ client_id: clientId, name: clientId, jwks: keys.jwks, redirect_uris: redirectUris, population_register: true }]);
  try {
    return parseRegisteredClients(json)[0]!;
  } catch (error) {
    throw new Error(`--client-jwks / --redirect-uri: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function readJwksFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(
      `--client-jwks: cannot read ${path} (${error instanceof Error ? error.message : String(error)}); give a file holding your public JWKS, or the JSON itself`,
    );
  }
}

function parseJson(text: string, name: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${name}: not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
}

export interface EmulatorServer {
  /** the issuer = base URL, e.g. http://127.0.0.1:3999 */
  readonly baseUrl: string;
  close(): Promise<void>;
}

/** The largest request body the server reads: the emulator's own limits are far below it. */
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Starts the emulator on `host`:`port` (0: a free port) with `client` registered.
 * @throws Error when the port is taken or the client's registration is invalid
 */
export async function startEmulatorServer(options: { client: RegisteredClient; host?: string; port: number }): Promise<EmulatorServer> {
  const host = options.host ?? '127.0.0.1';
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new Error(
          error.code === 'EADDRINUSE'
            ? `port ${options.port} on ${host} is taken: choose another with --emulator-port`
            : `the emulator cannot listen on ${host}:${options.port}: ${error.message}`,
        ),
      ),
    );
    server.listen(options.port, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  // A wildcard address is not one a browser can open: the issuer names loopback then.
  const issuerHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const baseUrl = `http://${issuerHost}:${port}`;
  let emulator;
  try {
    // No rate limits: this emulator serves the kit's run alone, on loopback, several cases at once.
    emulator = createEmulator({ baseUrl, clients: [options.client], rateLimits: false });
  } catch (error) {
    server.close();
    throw error;
  }
  server.on('request', (incoming: IncomingMessage, outgoing: ServerResponse) => {
    void answer(emulator.handle, baseUrl, incoming, outgoing);
  });
  return {
    baseUrl,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Passes one request to the emulator and its answer back; a client that goes away aborts the request. */
async function answer(handle: (request: Request) => Promise<Response>, baseUrl: string, incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
  const aborted = new AbortController();
  outgoing.on('close', () => {
    if (!outgoing.writableFinished) aborted.abort();
  });
  try {
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers)) {
      if (typeof value === 'string') headers.set(name, value);
      else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    }
    const hasBody = incoming.method !== 'GET' && incoming.method !== 'HEAD';
    const body = hasBody ? await readLimited(incoming) : undefined;
    const url = new URL(incoming.url ?? '/', baseUrl);
    const response = await handle(
      new Request(url, { method: incoming.method, headers, ...(body ? { body: new Uint8Array(body) } : {}), signal: aborted.signal }),
    );
    const responseHeaders: Record<string, string | string[]> = {};
    response.headers.forEach((value, name) => {
      if (name !== 'set-cookie') responseHeaders[name] = value;
    });
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) responseHeaders['set-cookie'] = cookies;
    outgoing.writeHead(response.status, responseHeaders);
    if (response.body && incoming.method !== 'HEAD') Readable.fromWeb(response.body as never).pipe(outgoing);
    else outgoing.end();
  } catch (error) {
    if (outgoing.headersSent) {
      outgoing.destroy();
      return;
    }
    const tooLarge = error instanceof BodyTooLarge;
    outgoing.writeHead(tooLarge ? 413 : 400, {
      'Content-Type': 'application/json',
      'Cache-Control': 'no-store',
      // The headers of every answer of the emulator (withSecurityHeaders, lib/emulator/index.ts).
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': NO_CONTENT_POLICY,
    });
    outgoing.end(
      JSON.stringify({
        error: 'invalid_request',
        error_description: tooLarge ? `the body must be at most ${MAX_BODY_BYTES} bytes` : 'the request could not be read',
      }),
    );
  }
}

class BodyTooLarge extends Error {}

async function readLimited(incoming: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of incoming) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
