/**
 * The app has one address, APP_URL: its redirect URI, its session cookie and its same-origin
 * checks are all tied to it. A browser that opens the app under another name of the same server
 * (http://127.0.0.1:3000 when APP_URL is http://localhost:3000, or the "Network:" address a
 * development server prints) sees a page that works until Start is pressed, which is then refused
 * as cross-site. So a page request under another name of this very server is sent to APP_URL.
 *
 * Only when that is certain to reach the same server from the browser's side:
 * - the request came straight from the browser (no trusted proxy in front, TRUST_PROXY = 0): behind
 *   a proxy the Host header may be the proxy's own choice, and a redirect could loop;
 * - the Host names this machine (a loopback name, or one of its own interface addresses) on
 *   APP_URL's port: the same server, under another name;
 * - a loopback APP_URL reaches this server only from this machine, so then the browser must be on
 *   it too (its connection comes from a loopback or own address); a phone on the network that
 *   opened the LAN address is not sent to its own localhost.
 * Anything else keeps its page, which says which address to open (app/_components/address-notice.tsx).
 */
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { CLIENT_ADDRESS_HEADER } from './client-address';

/**
 * The request header by which proxy.ts tells the page where the browser goes (the Location at
 * APP_URL), and app/layout.tsx redirects there. Not a redirect or a rewrite of the proxy's own:
 * Next.js turns a Location the proxy returns into a relative one when its origin is the one
 * Next.js listens under (HOST), which for APP_URL http://127.0.0.1:3000 and HOST=127.0.0.1 would
 * send the browser back where it came from, in a loop; and a rewrite to another host, the one the
 * browser named, makes the server request itself.
 */
export const APP_ADDRESS_HEADER = 'x-idv-app-address';

/** What the redirect decision reads from a request and the configuration. */
export interface AddressFacts {
  /** the request's Host header */
  host: string | null;
  /** APP_URL, an origin */
  appUrl: string;
  /** the address of the connection the request came on (lib/server/client-address.ts) */
  clientAddress: string;
  /** how many proxies in front of the app are trusted (TRUST_PROXY) */
  trustedProxies: number;
  /** this machine's own interface addresses */
  ownAddresses: readonly string[];
}

/**
 * Where to send a page request that arrived under another name of this server: APP_URL with the
 * same path and query; undefined when the request is already at APP_URL's host, or when it cannot
 * be known that the browser reaches APP_URL (see the module's comment).
 * @param pathAndQuery the request's path and query, e.g. "/result?reveal=1"
 */
export function appAddressRedirect(pathAndQuery: string, facts: AddressFacts): string | undefined {
  if (facts.trustedProxies > 0 || !facts.host) return undefined;
  const app = new URL(facts.appUrl);
  let requested: URL;
  try {
    requested = new URL(`${app.protocol}//${facts.host}`);
  } catch {
    return undefined;
  }
  // Also rules out a Host that carried a path, credentials or anything but a host and a port.
  if (`${requested.protocol}//${requested.host}` !== `${app.protocol}//${facts.host.toLowerCase()}`) return undefined;
  if (requested.host === app.host) return undefined;
  if (portOf(requested) !== portOf(app)) return undefined;
  if (!namesThisMachine(requested.hostname, facts.ownAddresses)) return undefined;
  if (namesLoopback(app.hostname) && !isOwnAddress(facts.clientAddress, facts.ownAddresses)) return undefined;
  // Serialized by URL: a character a header cannot carry goes percent-encoded.
  return new URL(appPath(pathAndQuery), app.origin).href;
}

/**
 * The Location proxy.ts gave a page to send the browser to (`APP_ADDRESS_HEADER`), when it is one
 * at APP_URL: the header can only send the browser to this app.
 */
export function appAddressLocation(headers: Pick<Headers, 'get'>, appUrl: string): string | undefined {
  const location = headers.get(APP_ADDRESS_HEADER);
  return location?.startsWith(`${new URL(appUrl).origin}/`) ? location : undefined;
}

/**
 * A path and query to put after APP_URL's origin: as it is when it is one ("/result?x=1"), else
 * "/". A scheme, a host ("//evil.example") or a backslash never pass, so the result stays on the
 * origin it is put after.
 */
export function appPath(pathAndQuery: string): string {
  return /^\/(?![/\\])[^\\\s]{0,2047}$/.test(pathAndQuery) ? pathAndQuery : '/';
}

/** The facts of a request, with this machine's addresses. */
export function addressFacts(headers: Headers, config: { appUrl: string; trustedProxies: number }): AddressFacts {
  return {
    host: headers.get('host'),
    appUrl: config.appUrl,
    clientAddress: headers.get(CLIENT_ADDRESS_HEADER) ?? '',
    trustedProxies: config.trustedProxies,
    // Read only when the Host is another name than APP_URL's (rare): listing the interfaces costs
    // a system call, which every page request would otherwise pay.
    get ownAddresses() {
      return ownInterfaceAddresses();
    },
  };
}

/** This machine's interface addresses, IPv4 and IPv6, loopback included. */
export function ownInterfaceAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((addresses) => (addresses ?? []).map((address) => address.address));
}

function portOf(url: URL): string {
  return url.port || (url.protocol === 'https:' ? '443' : '80');
}

/** localhost, a name under .localhost (RFC 6761 §6.3), 127.0.0.0/8 or [::1]. */
function namesLoopback(hostname: string): boolean {
  const name = hostname.replace(/^\[|\]$/g, '');
  return name === 'localhost' || name.endsWith('.localhost') || name === '::1' || (isIP(name) === 4 && name.startsWith('127.'));
}

function namesThisMachine(hostname: string, ownAddresses: readonly string[]): boolean {
  return namesLoopback(hostname) || ownAddresses.includes(hostname.replace(/^\[|\]$/g, ''));
}

/** Whether a connection's address is this machine's: loopback, or one of its interfaces (IPv4-mapped IPv6 read as IPv4). */
function isOwnAddress(address: string, ownAddresses: readonly string[]): boolean {
  const plain = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return namesLoopback(plain) || ownAddresses.includes(plain);
}
