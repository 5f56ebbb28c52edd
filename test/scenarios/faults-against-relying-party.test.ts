/**
 * The relying party's side of every fault: the lib/oidc core, wired to `emulator.handle` through a
 * fetch that behaves like the real one (it rejects when its signal aborts), runs a whole flow
 * with one fault armed and must fail with the code the fault table promises.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '@/lib/emulator';
import { FAULTS, TOKEN_TIMEOUT_DELAY_MS } from '@/lib/emulator/qa/faults';
import {
  DEFAULT_SELECTION,
  DEFAULT_TIMEOUT_MS,
  DiscoveryCache,
  JwksCache,
  clientPublicJwks,
  completeAuthorization,
  generateClientKeys,
  isIdvErrorCode,
  ProtocolTrace,
  startAuthorization,
  type FetchLike,
  type GeneratedClientKeys,
  type HttpOptions,
  type RelyingParty,
} from '@/lib/oidc';
import { createTestEmulator } from '@/test/support/emulator';

const ISSUER = 'https://idv.test/emulator';
const REDIRECT_URI = 'https://rp.test/auth/callback';
const CLIENT_ID = 'rp-client';

let keys: GeneratedClientKeys;

beforeAll(async () => {
  keys = await generateClientKeys('ES256');
});

/** fetch over `emulator.handle`, rejecting with the signal's reason on abort, as fetch does. */
function fetchThrough(emulator: Emulator): FetchLike {
  return (input, init) =>
    new Promise<Response>((resolve, reject) => {
      const request = new Request(input, init);
      const signal = init?.signal ?? request.signal;
      const abort = () => reject(signal.reason as Error);
      if (signal.aborted) return abort();
      signal.addEventListener('abort', abort, { once: true });
      emulator.handle(request).then(resolve, reject);
    });
}

/** A fresh emulator and a relying party (with empty caches) registered with it. */
function setUp(http: Omit<HttpOptions, 'fetch'> = {}, jwksClock: () => number = Date.now) {
  const emulator = createTestEmulator({
    baseUrl: ISSUER,
    clients: [{ clientId: CLIENT_ID, jwks: clientPublicJwks(keys), redirectUris: [REDIRECT_URI], populationRegister: true }],
    // As strict as the spec's letter: every fault is the only thing wrong with its response.
    strict: true,
  });
  const fetch = fetchThrough(emulator);
  const rp: RelyingParty = {
    issuer: ISSUER,
    client: { clientId: CLIENT_ID, redirectUri: REDIRECT_URI, ...keys },
    discovery: new DiscoveryCache({ fetch }),
    jwks: new JwksCache({ fetch, now: jwksClock }),
    http: { fetch, ...http },
  };
  return { emulator, rp };
}

/**
 * The browser's part: open the authorization page, submit its form (every hidden field, as a
 * browser would) approving as a persona, and follow the redirect back.
 */
async function approveInBrowser(emulator: Emulator, authorizationUrl: string): Promise<URLSearchParams> {
  const page = await emulator.handle(new Request(authorizationUrl));
  const form = (await page.text()).match(/<form\b[\s\S]*?<\/form>/g)?.find((markup) => markup.includes('name="interaction"'));
  const action = form && /action="([^"]+)"/.exec(form)?.[1];
  if (page.status !== 200 || !form || !action) throw new Error(`identity app page: ${page.status}`);
  const fields = new URLSearchParams();
  for (const input of form.match(/<input\b[^>]*>/g) ?? []) {
    const attribute = (name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(input)?.[1];
    if (attribute('type') === 'hidden') fields.set(attribute('name')!, attribute('value')!.replaceAll('&amp;', '&'));
  }
  fields.set('persona', 'ingrid-haugen');
  fields.set('outcome', 'approve');
  const decision = await emulator.handle(
    new Request(new URL(action.replaceAll('&amp;', '&'), authorizationUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: fields,
    }),
  );
  const location = decision.headers.get('location');
  if (decision.status !== 303 || !location) throw new Error(`identity app decision: ${decision.status}`);
  return new URL(location).searchParams;
}

/** Part 1, steps 1–9, as the relying party runs them. */
async function verify(emulator: Emulator, rp: RelyingParty) {
  const started = await startAuthorization(rp, DEFAULT_SELECTION);
  return completeAuthorization(rp, await approveInBrowser(emulator, started.authorizationUrl), started.pending);
}

describe('the relying-party core refuses every fault with the code the fault table names', () => {
  it('names only codes the core actually has', () => {
    for (const fault of FAULTS) expect(isIdvErrorCode(fault.expected), fault.id).toBe(true);
  });

  it.each(FAULTS.filter((fault) => fault.id !== 'token_timeout').map((fault) => [fault.id, fault.expected] as const))(
    '%s → %s, and the next flow succeeds',
    async (id, expected) => {
      const { emulator, rp } = setUp();
      await emulator.control.armFault(id);
      await expect(verify(emulator, rp)).rejects.toMatchObject({ name: 'IdvError', code: expected });
      expect(await emulator.control.armedFaults()).toEqual([]);

      const clean = await verify(emulator, rp);
      expect(clean.verifiedClaims[0]?.claims.given_name).toBe('Ingrid Solberg');
    },
  );

  it('token_timeout → timeout: the emulator holds its answer longer than the core waits', async () => {
    expect(TOKEN_TIMEOUT_DELAY_MS).toBeGreaterThan(DEFAULT_TIMEOUT_MS);
    // The same race as in production (10 s against 15 s), shortened so the test runs in a second.
    const { emulator, rp } = setUp({ timeoutMs: 1_000 });
    await emulator.control.armFault('token_timeout');
    await expect(verify(emulator, rp)).rejects.toMatchObject({ name: 'IdvError', code: 'timeout' });
    expect(await emulator.control.armedFaults()).toEqual([]);
  });
});

describe('the trace explains every ID token fault with the check that failed', () => {
  it.each(FAULTS.filter((fault) => fault.target === 'id_token').map((fault) => [fault.id, fault.expected] as const))(
    '%s: the first check that fails fails with %s, and no check after a failed signature or decryption is made',
    async (id, expected) => {
      const { emulator, rp } = setUp();
      await emulator.control.armFault(id);
      const trace = new ProtocolTrace();
      const started = await startAuthorization(rp, DEFAULT_SELECTION, { trace });
      const params = await approveInBrowser(emulator, started.authorizationUrl);
      await expect(completeAuthorization(rp, params, started.pending, { trace })).rejects.toMatchObject({ code: expected });
      const checks = trace.events.flatMap((event) => (event.type === 'check' ? [event] : []));
      const failed = checks.filter((check) => !check.passed);
      expect(failed[0]).toMatchObject({ code: expected });
      // the checks of the claims are all made; any earlier failure ends the list
      const claimChecks = ['iss', 'aud', 'exp', 'iat', 'nonce', 'sub'];
      if (!claimChecks.includes(failed[0]!.check)) expect(checks.at(-1)).toBe(failed[0]);
    },
  );
});

describe('the relying-party core across a signing key rotation (spec 4.4)', () => {
  it('refetches the JWKS for the new kid once its refetch cool-down has passed, and accepts the token', async () => {
    let jwksClockOffset = 0;
    const { emulator, rp } = setUp({}, () => Date.now() + jwksClockOffset);
    const before = await verify(emulator, rp);

    const [current] = await emulator.control.rotateSigningKeys();
    jwksClockOffset = 60_000;
    const after = await verify(emulator, rp);

    expect(after.idToken.jwsHeader.kid).toBe(current!.kid);
    expect(after.idToken.jwsHeader.kid).not.toBe(before.idToken.jwsHeader.kid);
  });
});
