/**
 * The app's verification flow, without a build: the functions POST /auth/start and GET
 * /auth/callback call (lib/server/verification.ts), and the failure path they end in
 * (lib/server/failures.ts), run against the app's own services in emulator mode, as
 * `services()` builds them from an environment, with the relying party's back-channel calls
 * handed to the embedded emulator's handler (no server, no port) and the browser's part played
 * by following the identity app's page.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { FAULTS, type RefusalDefinition } from '@/lib/emulator/qa/faults';
import {
  CLIENT_ASSERTION_LIFETIME_SECONDS,
  DEFAULT_SELECTION,
  EDDSA_ASSERTION_BURST,
  generateClientKeys,
  randomToken,
  type FetchLike,
  type Selection,
} from '@/lib/oidc';
import { loadServerConfig } from '@/lib/server/configuration';
import { failureCodeOf, getFailure, recordFailure } from '@/lib/server/failures';
import { createServices, type Services } from '@/lib/server/services';
import { beginVerification, countStart, currentResult, finishVerification, signOut } from '@/lib/server/verification';
import { OWN_SELECTION_POLICY } from '@/lib/verification/policy';
import type { DeliberateAnswer } from '@/lib/verification/diagnostics';
import { parseStartForm } from '@/lib/verification/selection';
import { STORED_FORMAT, type FailureRecord } from '@/lib/verification/stored';
import { describeFailureDetail } from '@/lib/view/failure-detail';
import { emulatorAnswerView } from '@/lib/view/failure-explanations';
import { approveInBrowser } from '@/test/support/emulator';

const APP_URL = 'http://localhost:3000';
const HEADERS = new Headers({ 'user-agent': 'scenario' });

let dataDir: string;
let app: Services;

/** fetch over the embedded emulator's handler, rejecting when its signal aborts, as fetch does. */
const fetchThroughEmulator: FetchLike = (input, init) =>
  new Promise<Response>((resolve, reject) => {
    const request = new Request(input, init);
    const signal = init?.signal ?? request.signal;
    if (signal.aborted) return reject(signal.reason as Error);
    signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
    app.emulator!.handle(request).then(resolve, reject);
  });

/** The services of an environment, as the app builds its own, with the emulator reached in-process. */
async function servicesOf(env: Record<string, string> = {}): Promise<Services> {
  return createServices(await loadServerConfig({ APP_URL, ...env }, dataDir), { fetch: fetchThroughEmulator });
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'idv-flow-'));
  vi.spyOn(console, 'info').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

afterAll(async () => {
  vi.restoreAllMocks();
  await rm(dataDir, { recursive: true, force: true });
});

beforeEach(async () => {
  app = await servicesOf();
});

/** A browser: its session binding, as the session cookie would carry it. */
const newBrowser = () => randomToken(32);

/** POST /auth/start, the identity app's page, then GET /auth/callback, for one browser. */
async function verify(
  browser: string,
  { selection = DEFAULT_SELECTION, persona, outcome }: { selection?: Selection; persona?: string; outcome?: 'approve' | 'cancel' } = {},
) {
  await countStart(app, HEADERS);
  const authorizationUrl = await beginVerification(app, { browser, locale: 'en' }, { selection, policy: OWN_SELECTION_POLICY });
  const callback = await approveInBrowser(app.emulator!, authorizationUrl, { ...(persona ? { persona } : {}), ...(outcome ? { outcome } : {}) });
  return { callback, finish: () => finishVerification(app, browser, callback) };
}

/** What the failure page shows this browser after `thrown`: the recorded failure, its own. */
async function failurePageOf(browser: string, thrown: unknown) {
  const link = await recordFailure(app, thrown, { browser, headers: HEADERS });
  expect(link.id, 'the failure is recorded').toBeDefined();
  const failure = await getFailure(app, link.id!, browser);
  if (!failure?.own) throw new Error(`not this browser's failure: ${JSON.stringify(failure)}`);
  return { link, record: failure.record };
}

describe('a verification, start to result', () => {
  it('starts with PAR, completes on the callback, and keeps the verified identity for this browser alone', async () => {
    const browser = newBrowser();
    const { finish } = await verify(browser, { persona: 'ingrid-haugen' });
    const result = await finish();

    expect(result.verifiedClaims[0]?.claims.given_name).toBe('Ingrid Solberg');
    expect(result).toMatchObject({ mode: 'emulator', issuer: `${APP_URL}/emulator`, selection: DEFAULT_SELECTION, policy: OWN_SELECTION_POLICY });
    expect(result.trace.map((event) => `${event.type}:${event.step}`)).toEqual(
      expect.arrayContaining(['http:par', 'note:callback', 'http:token', 'note:id_token']),
    );
    await expect(currentResult(app, browser)).resolves.toEqual(result);
    await expect(currentResult(app, newBrowser())).resolves.toBeUndefined();
    await expect(currentResult(app, undefined)).resolves.toBeUndefined();
  });

  it('asks the identity app for the page’s language (ui_locales) and, from the embedded emulator, a preset’s persona (login_hint)', async () => {
    const page = async (locale: 'en' | 'nb', persona?: string) => {
      const url = await beginVerification(app, { browser: newBrowser(), locale }, { selection: DEFAULT_SELECTION, policy: OWN_SELECTION_POLICY, persona });
      return (await app.emulator!.handle(new Request(url))).text();
    };
    expect(await page('nb')).toContain('<html lang="nb"');
    expect(await page('en')).toContain('<html lang="en"');
    expect(await page('en', 'ingrid-haugen')).toMatch(/value="ingrid-haugen"[^>]*checked|checked[^>]*value="ingrid-haugen"/);
    app = await servicesOf({ IDV_UI_LOCALES: 'off' });
    expect(await page('nb')).toContain('<html lang="en"');
  });

  it('a second delivery of the callback finds no flow, and the first result stays', async () => {
    const browser = newBrowser();
    const { finish } = await verify(browser);
    const result = await finish();
    const again = await finish().catch((error: unknown) => error);
    expect(failureCodeOf(again)).toBe('state_mismatch');
    await expect(currentResult(app, browser)).resolves.toEqual(result);
  });

  it('a callback opened in another browser finds nothing, and leaves the flow to the browser that started it', async () => {
    const owner = newBrowser();
    const { callback, finish } = await verify(owner);
    const stolen = await finishVerification(app, newBrowser(), callback).catch((error: unknown) => error);
    expect(failureCodeOf(stolen)).toBe('state_mismatch');
    await expect(finish()).resolves.toMatchObject({ verifiedClaims: [expect.anything()] });
  });

  it('a newer verification replaces the browser’s result, and the replaced one is deleted', async () => {
    const browser = newBrowser();
    const first = await (await verify(browser)).finish();
    const second = await (await verify(browser, { persona: 'ingrid-haugen' })).finish();
    await expect(currentResult(app, browser)).resolves.toMatchObject({ id: second.id });
    await expect(app.results.get(first.id)).resolves.toBeUndefined();
  });

  it('sign-out deletes the browser’s result, its pending flows and its failure records, and nobody else’s', async () => {
    const browser = newBrowser();
    const other = newBrowser();
    await (await verify(browser)).finish();
    const otherResult = await (await verify(other)).finish();
    const pending = await verify(browser);
    const cancelled = await (await verify(browser, { outcome: 'cancel' })).finish().catch((error: unknown) => error);
    const { link } = await failurePageOf(browser, cancelled);

    await signOut(app, browser);
    await expect(currentResult(app, browser)).resolves.toBeUndefined();
    await expect(getFailure(app, link.id!, browser)).resolves.toBeUndefined();
    expect(failureCodeOf(await pending.finish().catch((error: unknown) => error))).toBe('state_mismatch');
    await expect(currentResult(app, other)).resolves.toEqual(otherResult);
  });

  it('with an EdDSA signing key, completes, and claims its client assertions’ exp seconds in the app’s store, which every instance shares', async () => {
    const keys = await generateClientKeys('EdDSA');
    app = await servicesOf({ IDV_SIGNING_KEY: JSON.stringify(keys.signingKey), IDV_ENCRYPTION_KEY: JSON.stringify(keys.encryptionKey) });
    const result = await (await verify(newBrowser())).finish();
    expect(result.verifiedClaims[0]?.claims.given_name).toBeDefined();
    // Another instance claimed every exp second within reach (and the next ten), in the store:
    // this one makes none of them again, though its own memory never saw them.
    const latest = Math.floor(Date.now() / 1000) + CLIENT_ASSERTION_LIFETIME_SECONDS;
    for (let second = latest - EDDSA_ASSERTION_BURST; second <= latest + 10; second++) {
      await app.store.setIfAbsent(`client-assertion-exp:${keys.signingKey.kid}:${second}`, true, CLIENT_ASSERTION_LIFETIME_SECONDS);
    }
    const refused = await verify(newBrowser()).catch((error: unknown) => error);
    expect(failureCodeOf(refused)).toBe('client_assertion_rate_exceeded');
  });

  it('counts starts per client address, and refuses one over the limit with its wait', async () => {
    app = await servicesOf({ IDV_START_LIMIT_PER_ADDRESS: '2' });
    await countStart(app, HEADERS);
    await countStart(app, HEADERS);
    const refused = await countStart(app, HEADERS).catch((error: unknown) => error);
    expect(failureCodeOf(refused)).toBe('rate_limited');
    expect((refused as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(0);
  });
});

describe('a failure goes one way: thrown with its trace, recorded for its browser, shown with what the emulator did', () => {
  it('a cancel is recorded with the service’s own error, the request to ask again, and the trace up to the callback', async () => {
    const browser = newBrowser();
    const thrown = await (await verify(browser, { outcome: 'cancel' })).finish().catch((error: unknown) => error);
    const { link, record } = await failurePageOf(browser, thrown);

    expect(link.code).toBe('access_denied');
    expect(record).toMatchObject({
      code: 'access_denied',
      serviceError: 'access_denied',
      request: { selection: DEFAULT_SELECTION, policy: OWN_SELECTION_POLICY },
    });
    expect(record.emulatorAnswer).toBeUndefined();
    // the service's words are shown as it sent them: the core's sentence, which only joins them, is not kept
    expect(record.detail).toBeUndefined();
    const steps = record.trace.map((event) => `${event.type}:${event.step}`);
    expect(steps).toContain('note:callback');
    expect(steps).not.toContain('http:token');
    // another browser holding the link sees the code alone
    await expect(getFailure(app, link.id!, newBrowser())).resolves.toEqual({ own: false, code: 'access_denied' });
  });

  it('a failure of a request without a session binding is not recorded: its code alone', async () => {
    const thrown = await finishVerification(app, undefined, new URLSearchParams({ code: 'x', state: 'y', iss: `${APP_URL}/emulator` })).catch(
      (error: unknown) => error,
    );
    await expect(recordFailure(app, thrown, { browser: undefined, headers: HEADERS })).resolves.toEqual({ code: 'state_mismatch' });
  });

  it('a refused start form is recorded as a code with values, never as the value sent, and read in the reader’s language', async () => {
    const browser = newBrowser();
    const typed = `${'c'.repeat(60)} Call 555 0100`;
    const thrown = (() => {
      try {
        parseStartForm(new URLSearchParams({ claim: typed }));
      } catch (error) {
        return error;
      }
    })();
    const { link, record } = await failurePageOf(browser, thrown);
    expect(link.code).toBe('invalid_selection');
    expect(record.detail).toEqual({ kind: 'unknown_value', field: 'claim', value: { length: typed.length } });
    expect(JSON.stringify(record)).not.toContain('Call 555');
    expect(describeFailureDetail(record.detail!, 'nb')).toEqual({ label: 'Detaljer', text: 'En verdi på 74 tegn er ikke en kjent opplysning.' });
  });

  it('a failure of the core is recorded with its own sentence, shown as the technical detail in English', async () => {
    const browser = newBrowser();
    const thrown = await finishVerification(app, browser, new URLSearchParams({ code: 'x', state: 'y', iss: `${APP_URL}/emulator` })).catch(
      (error: unknown) => error,
    );
    const { record } = await failurePageOf(browser, thrown);
    expect(record.code).toBe('state_mismatch');
    expect(record.detail).toEqual({ kind: 'core_message', message: 'The state does not match an authorization started in this browser' });
    expect(describeFailureDetail(record.detail!, 'nb')).toMatchObject({ label: 'Teknisk detalj (på engelsk)', lang: 'en' });
  });

  it('an unexpected failure is recorded without a detail: the page says the details are in the server log', async () => {
    const browser = newBrowser();
    vi.spyOn(console, 'error').mockImplementationOnce(() => {});
    const { record } = await failurePageOf(browser, new TypeError('secret internals'));
    expect(record.code).toBe('internal_error');
    expect(record.detail).toBeUndefined();
    expect(JSON.stringify(record)).not.toContain('secret internals');
  });

  it('a record kept before details were codes (an English message) still reads for its browser, without a detail', async () => {
    const browser = newBrowser();
    const old = {
      format: STORED_FORMAT,
      id: randomToken(24),
      browser,
      code: 'invalid_selection',
      message: '"x" is not a known claim',
      createdAt: Date.now(),
      trace: [],
    };
    expect(await app.failureRecorder.keep(old as unknown as FailureRecord, '192.0.2.7')).toBe(true);
    const failure = await getFailure(app, old.id, browser);
    expect(failure).toMatchObject({ own: true, record: { code: 'invalid_selection' } });
    expect(failure?.own && failure.record.detail).toBeUndefined();
  });

  // token_timeout and jwks_timeout hold their answer longer than the core waits (15 s): the core's
  // side of them is proven with a shortened timeout in faults-against-relying-party.test.ts. Each
  // test's app is new, with an empty JWKS cache, so jwks_error is reached.
  const refusals = FAULTS.filter(
    (fault): fault is Extract<(typeof FAULTS)[number], RefusalDefinition> =>
      fault.kind === 'refusal' && fault.id !== 'token_timeout' && fault.id !== 'jwks_timeout',
  );

  it.each(refusals.map((fault) => [fault.id, fault.expected] as const))(
    '%s armed on the panel → %s, recorded as the emulator’s doing',
    async (id, expected) => {
      const browser = newBrowser();
      await app.emulator!.control.armFault(id);
      const thrown = await verify(browser)
        .then(({ finish }) => finish())
        .catch((error: unknown) => error);
      const { link, record } = await failurePageOf(browser, thrown);

      expect(link.code).toBe(expected);
      expect(record.code).toBe(expected);
      expect(record.emulatorAnswer).toEqual({ faults: [id], chosen: 'panel' });
      const view = emulatorAnswerView(record.emulatorAnswer!, app.diagnostics!, 'nb');
      expect(view.faults).toEqual([{ id, label: expect.any(String), effect: expect.any(String), acceptance: false }]);
    },
  );
});

describe('“Try the same request again” (POST /failure/again): the same request, and against the emulator the same answer', () => {
  /** What POST /failure/again does with a failure record of this browser's: its request, answered as before. */
  async function again(
    browser: string,
    record: { request?: { selection: Selection; policy?: typeof OWN_SELECTION_POLICY }; emulatorAnswer?: DeliberateAnswer },
  ) {
    const url = await beginVerification(
      app,
      { browser, locale: 'en' },
      { selection: record.request!.selection, policy: record.request!.policy ?? OWN_SELECTION_POLICY },
      record.emulatorAnswer,
    );
    const callback = await approveInBrowser(app.emulator!, url);
    return finishVerification(app, browser, callback);
  }

  it('a wrong_nonce armed once on the panel spoils the flow asked for again, for that flow alone, and again after that', async () => {
    const browser = newBrowser();
    await app.emulator!.control.armFault('wrong_nonce');
    const first = await failurePageOf(
      browser,
      await verify(browser)
        .then(({ finish }) => finish())
        .catch((error: unknown) => error),
    );
    expect(first.record.emulatorAnswer).toEqual({ faults: ['wrong_nonce'], chosen: 'panel' });

    const second = await failurePageOf(browser, await again(browser, first.record).catch((error: unknown) => error));
    expect(second.record.code).toBe('id_token_nonce_mismatch');
    expect(second.record.emulatorAnswer).toEqual({ faults: ['wrong_nonce'], chosen: 'again' });
    // armed for the new flow only: nothing waits for the client's next flow
    expect(await app.emulator!.control.armedFaults()).toEqual([]);
    await expect(verify(newBrowser()).then(({ finish }) => finish())).resolves.toMatchObject({ selection: DEFAULT_SELECTION });

    const third = await failurePageOf(browser, await again(browser, second.record).catch((error: unknown) => error));
    expect(third.record.emulatorAnswer).toEqual({ faults: ['wrong_nonce'], chosen: 'again' });
  });

  it('an error chosen for the failed flow is chosen for the flow asked for again, with its description', async () => {
    const browser = newBrowser();
    const description = 'the face check failed: the face did not match the portrait on the document';
    const first = { request: { selection: DEFAULT_SELECTION }, emulatorAnswer: { faults: [], error: 'access_denied', errorDescription: description } };
    const thrown = await again(browser, first).catch((error: unknown) => error);
    const { record } = await failurePageOf(browser, thrown);
    expect(record).toMatchObject({ code: 'access_denied', serviceError: 'access_denied', description });
    expect(record.emulatorAnswer).toEqual({ faults: [], error: 'access_denied', errorDescription: description });
  });

  it('a PAR fault is armed again for our client just before the push: no flow exists before it', async () => {
    const browser = newBrowser();
    await app.emulator!.control.armFault('par_server_error');
    const thrown = await beginVerification(app, { browser, locale: 'en' }, { selection: DEFAULT_SELECTION, policy: OWN_SELECTION_POLICY }).catch(
      (error: unknown) => error,
    );
    const first = await failurePageOf(browser, thrown);
    expect(first.record).toMatchObject({ code: 'server_error', emulatorAnswer: { faults: ['par_server_error'], chosen: 'panel' } });
    const retried = await beginVerification(
      app,
      { browser, locale: 'en' },
      { selection: DEFAULT_SELECTION, policy: OWN_SELECTION_POLICY },
      first.record.emulatorAnswer,
    ).catch((error: unknown) => error);
    expect(failureCodeOf(retried)).toBe('server_error');
    expect(await app.emulator!.control.armedFaults()).toEqual([]);
  });

  it('without a diagnostics port (a real service: provider mode) the request asked again is the plain request', async () => {
    const browser = newBrowser();
    await app.emulator!.control.armFault('wrong_nonce');
    const first = await failurePageOf(
      browser,
      await verify(browser)
        .then(({ finish }) => finish())
        .catch((error: unknown) => error),
    );
    expect(first.record.emulatorAnswer).toEqual({ faults: ['wrong_nonce'], chosen: 'panel' });
    const url = await beginVerification(
      { ...app, diagnostics: undefined },
      { browser, locale: 'en' },
      { selection: first.record.request!.selection, policy: OWN_SELECTION_POLICY },
      first.record.emulatorAnswer,
    );
    await expect(finishVerification(app, browser, await approveInBrowser(app.emulator!, url))).resolves.toMatchObject({ selection: DEFAULT_SELECTION });
  });

  it('a failure no fault caused is asked again plainly, and answered normally', async () => {
    const browser = newBrowser();
    const first = await failurePageOf(
      browser,
      await verify(browser, { persona: 'tobias-hansen' })
        .then(({ finish }) => finish())
        .catch((error: unknown) => error),
    );
    expect(first.record).toMatchObject({ code: 'access_denied', request: { selection: DEFAULT_SELECTION } });
    expect(first.record.emulatorAnswer).toBeUndefined();
    await expect(again(browser, first.record)).resolves.toMatchObject({ selection: DEFAULT_SELECTION });
  });

  it('wrong_state: the record holds the request of the flow the emulator altered, this browser’s own, so it can be asked for again', async () => {
    const browser = newBrowser();
    const selection: Selection = { ...DEFAULT_SELECTION, claims: { given_name: { essential: true } } };
    await app.emulator!.control.armFault('wrong_state');
    await countStart(app, HEADERS);
    const url = await beginVerification(app, { browser, locale: 'en' }, { selection, policy: OWN_SELECTION_POLICY });
    const thrown = await finishVerification(app, browser, await approveInBrowser(app.emulator!, url)).catch((error: unknown) => error);
    const { record } = await failurePageOf(browser, thrown);
    expect(record.code).toBe('state_mismatch');
    expect(record.request).toEqual({ selection, policy: OWN_SELECTION_POLICY });
    expect(record.emulatorAnswer).toEqual({ faults: ['wrong_state'], chosen: 'panel' });
    // another browser's failure finds no flow of its own among those altered: no request to repeat
    const other = newBrowser();
    await app.emulator!.control.armFault('wrong_state');
    const url2 = await beginVerification(app, { browser: other, locale: 'en' }, { selection, policy: OWN_SELECTION_POLICY });
    const callback = await approveInBrowser(app.emulator!, url2);
    const stranger = newBrowser();
    const strangers = await failurePageOf(stranger, await finishVerification(app, stranger, callback).catch((error: unknown) => error));
    expect(strangers.record.request).toBeUndefined();
  });
});
