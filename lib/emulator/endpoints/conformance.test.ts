import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_BASE_URL, createTestClient, createTestEmulator, type TestClient } from '@/test/support/emulator';
import type { ConformanceHost, ConformanceRunInput, ConformanceRunStatus, Emulator, EmulatorOptions } from '..';
import { CONFORMANCE_MESSAGES } from '../views/conformance-messages';
import { runInput } from './conformance';

const ORIGIN = new URL(TEST_BASE_URL).origin;
const PAGE_URL = `${TEST_BASE_URL}/conformance`;
const PASSWORD = 'a panel password of some length';
const SAME_ORIGIN = { Origin: ORIGIN, 'Sec-Fetch-Site': 'same-origin' };

let client: TestClient;

beforeAll(async () => {
  client = await createTestClient({ clientId: 'my-rp' });
});

/** A host in memory: one run at a time, its files a fixed set; what it was asked is kept. */
function memoryHost() {
  const runs = new Map<string, ConformanceRunStatus>();
  const started: ConformanceRunInput[] = [];
  const fileNames: string[] = [];
  const host: ConformanceHost = {
    defaults: () => ({ clientId: 'my-rp', startUrl: 'http://rp.example/', startSelector: '[data-testid="start"]' }),
    async start(input) {
      const going = [...runs].find(([, status]) => status.state === 'running');
      if (going) return { refused: 'a run is going', runId: going[0] };
      started.push(input);
      const runId = `run-${started.length}`;
      runs.set(runId, { state: 'running', lines: ['[1/3] pass  normal (1.0 s)'], done: 1, total: 3 });
      return { runId };
    },
    status: (runId) => runs.get(runId),
    async file(runId, name) {
      fileNames.push(name);
      if (!runs.has(runId) || !['index.html', 'junit.xml', 'normal.png'].includes(name)) return undefined;
      return { body: new TextEncoder().encode(`<p>${name}</p>`), contentType: name.endsWith('.html') ? 'text/html; charset=utf-8' : 'application/octet-stream' };
    },
  };
  return { host, runs, started, fileNames };
}

function newEmulator(options: Partial<EmulatorOptions> = {}): Emulator {
  return createTestEmulator({ clients: [client], ...options });
}

function startPost(fields: Record<string, string>, headers: Record<string, string> = SAME_ORIGIN) {
  return new Request(PAGE_URL, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

const FORM = { client_id: 'my-rp', start_url: 'http://rp.example/', start_selector: '', cases: 'wrong_nonce, expired', jwks_cooldown: '30' };

async function signIn(emulator: Emulator): Promise<string> {
  const response = await emulator.handle(
    new Request(`${TEST_BASE_URL}/panel`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ action: 'sign_in', password: PASSWORD }),
    }),
  );
  expect(response.status).toBe(303);
  return response.headers.get('set-cookie')!.split(';')[0]!;
}

describe('GET {base}/conformance', () => {
  it('shows the form prefilled with the host’s defaults: the registered clients, 30 s for the app’s own client', async () => {
    const { host } = memoryHost();
    const response = await newEmulator({ conformance: host }).handle(new Request(PAGE_URL));
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(html).toContain('<option value="my-rp" selected>');
    expect(html).toContain('value="http://rp.example/"');
    expect(html).toContain('value="[data-testid=&#34;start&#34;]"');
    expect(html).toContain('name="jwks_cooldown" type="number" min="0" max="3600" step="1" required value="30"');
    expect(html).toContain('Run the conformance kit</button>');
  });

  it('without a host: says the kit is not available here and how to run npm run conformance', async () => {
    const response = await newEmulator().handle(new Request(PAGE_URL));
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(html).toContain('data-testid="conformance-unavailable"');
    expect(html).toContain('npm run conformance -- --client-id');
    expect(html).not.toContain('<form method="post" action="/emulator/conformance"');
    // A start is refused too (404), saying so, and nothing runs.
    const start = await newEmulator().handle(startPost(FORM));
    expect(start.status).toBe(404);
    expect(await start.text()).toContain('data-testid="conformance-unavailable"');
  });

  it('speaks Norwegian to a browser that asks for it', async () => {
    const { host } = memoryHost();
    const response = await newEmulator({ conformance: host }).handle(new Request(PAGE_URL, { headers: { 'Accept-Language': 'nb' } }));
    expect(await response.text()).toContain('Kjør samsvarstestene</button>');
  });

  it('is linked from the QA panel', async () => {
    const html = await (await newEmulator().handle(new Request(TEST_BASE_URL))).text();
    expect(html).toContain('<a href="/emulator/conformance" data-testid="conformance-link">Conformance kit</a>');
  });
});

describe('the QA panel’s access rule', () => {
  it('a panel with a password: every page and file 403 until signed in, and nothing starts', async () => {
    const { host, started } = memoryHost();
    const emulator = newEmulator({ conformance: host, panel: { mode: 'password', password: PASSWORD } });
    await host.start({ clientId: 'my-rp', startUrl: 'http://rp.example/', jwksCooldownSeconds: 30 });
    for (const url of [PAGE_URL, `${PAGE_URL}/runs/run-1`, `${PAGE_URL}/runs/run-1/index.html`]) {
      const response = await emulator.handle(new Request(url));
      expect(response.status).toBe(403);
      expect(await response.text()).toContain('sign in on the panel first');
    }
    expect((await emulator.handle(startPost(FORM))).status).toBe(403);
    expect(started).toHaveLength(1);

    const cookie = await signIn(emulator);
    expect((await emulator.handle(new Request(PAGE_URL, { headers: { Cookie: cookie } }))).status).toBe(200);
    expect((await emulator.handle(new Request(`${PAGE_URL}/runs/run-1`, { headers: { Cookie: cookie } }))).status).toBe(200);
    expect((await emulator.handle(new Request(`${PAGE_URL}/runs/run-1/index.html`, { headers: { Cookie: cookie } }))).status).toBe(200);
  });

  it('a read-only panel: 403 with its reason', async () => {
    const { host } = memoryHost();
    const emulator = newEmulator({ conformance: host, panel: { mode: 'read-only', reason: 'no password here' } });
    const response = await emulator.handle(new Request(PAGE_URL));
    expect(response.status).toBe(403);
    expect(await response.text()).toContain('The panel is read-only: no password here');
  });
});

describe('POST {base}/conformance', () => {
  it('starts a run with what the form says and answers 303 to its page', async () => {
    const { host, started } = memoryHost();
    const response = await newEmulator({ conformance: host }).handle(startPost(FORM));
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/emulator/conformance/runs/run-1');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(started).toEqual([{ clientId: 'my-rp', startUrl: 'http://rp.example/', cases: ['wrong_nonce', 'expired'], jwksCooldownSeconds: 30 }]);
  });

  it('passes a start selector on to the run', async () => {
    const { host, started } = memoryHost();
    expect((await newEmulator({ conformance: host }).handle(startPost({ ...FORM, start_selector: '#go' }))).status).toBe(303);
    expect(started[0]!.startSelector).toBe('#go');
  });

  it('refuses a post from another site, as the panel does, and starts nothing', async () => {
    const { host, started } = memoryHost();
    const emulator = newEmulator({ conformance: host });
    const fromElsewhere = await emulator.handle(startPost(FORM, { Origin: 'https://evil.example' }));
    expect(fromElsewhere.status).toBe(403);
    expect(await fromElsewhere.text()).toContain('https://evil.example');
    expect((await emulator.handle(startPost(FORM, { 'Sec-Fetch-Site': 'cross-site' }))).status).toBe(403);
    expect(started).toHaveLength(0);
  });

  it('refuses a body that is not a form with 4xx and the reason, and starts nothing', async () => {
    const { host, started } = memoryHost();
    const response = await newEmulator({ conformance: host }).handle(
      new Request(PAGE_URL, { method: 'POST', headers: { 'Content-Type': 'application/json', ...SAME_ORIGIN }, body: JSON.stringify(FORM) }),
    );
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toContain('application/x-www-form-urlencoded');
    expect(started).toHaveLength(0);
  });

  it('refuses a body over 4 KiB', async () => {
    const { host, started } = memoryHost();
    const response = await newEmulator({ conformance: host }).handle(startPost({ ...FORM, start_selector: 'x'.repeat(5000) }));
    expect(response.status).toBe(413);
    expect(started).toHaveLength(0);
  });

  it.each([
    [{ client_id: 'someone-else' }, 'is not registered'],
    [{ start_url: 'javascript:alert(1)' }, 'absolute http or https URL'],
    [{ cases: 'wrong_nonce,../x' }, 'case ids or patterns'],
    [{ jwks_cooldown: '-1' }, 'whole number of seconds'],
    [{ jwks_cooldown: '3601' }, 'whole number of seconds'],
  ])('refuses bad input %j with the form again (400)', async (fields, words) => {
    const { host, started } = memoryHost();
    const response = await newEmulator({ conformance: host }).handle(startPost({ ...FORM, ...fields }));
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(words);
    expect(started).toHaveLength(0);
  });

  it('a second run while one goes: 409, the page says so and links the run that goes; never two at once', async () => {
    const { host, started } = memoryHost();
    const emulator = newEmulator({ conformance: host });
    expect((await emulator.handle(startPost(FORM))).status).toBe(303);
    const second = await emulator.handle(startPost(FORM));
    expect(second.status).toBe(409);
    const html = await second.text();
    expect(html).toContain('A conformance run is going already');
    expect(html).toContain('href="/emulator/conformance/runs/run-1"');
    expect(started).toHaveLength(1);
    // In Norwegian, nothing of the host's English reason.
    const norwegian = await (await emulator.handle(startPost(FORM, { ...SAME_ORIGIN, 'Accept-Language': 'nb' }))).text();
    expect(norwegian).toContain('En samsvarskjøring pågår allerede');
    expect(norwegian).not.toContain('a run is going');
  });
});

describe('GET {base}/conformance/runs/{id}', () => {
  it('while running: the lines, n of total, and a refresh every 2 s', async () => {
    const { host } = memoryHost();
    const emulator = newEmulator({ conformance: host });
    await emulator.handle(startPost(FORM));
    const html = await (await emulator.handle(new Request(`${PAGE_URL}/runs/run-1`))).text();
    expect(html).toContain('<meta http-equiv="refresh" content="2">');
    expect(html).toContain('data-state="running"');
    expect(html).toContain('1 of 3 cases ended');
    expect(html).toContain('[1/3] pass  normal (1.0 s)');
  });

  it('done: the verdict and links to the HTML report, the JUnit XML and the screenshots; no refresh', async () => {
    const { host, runs } = memoryHost();
    const emulator = newEmulator({ conformance: host });
    await emulator.handle(startPost(FORM));
    runs.set('run-1', { state: 'done', lines: [], done: 3, total: 3, passed: true, summary: '3 passed, 0 failed', files: ['index.html', 'junit.xml', 'normal.png'] });
    const html = await (await emulator.handle(new Request(`${PAGE_URL}/runs/run-1`))).text();
    expect(html).not.toContain('http-equiv="refresh"');
    expect(html).toContain('data-passed="true"');
    expect(html).toContain('3 passed, 0 failed');
    for (const file of ['index.html', 'junit.xml', 'normal.png']) expect(html).toContain(`href="/emulator/conformance/runs/run-1/${file}"`);
  });

  it('failed: the reason', async () => {
    const { host, runs } = memoryHost();
    const emulator = newEmulator({ conformance: host });
    runs.set('run-9', { state: 'failed', lines: [], done: 0, total: 0, error: 'Chromium could not be started' });
    expect(await (await emulator.handle(new Request(`${PAGE_URL}/runs/run-9`))).text()).toContain('Chromium could not be started');
  });

  it('an unknown run: 404', async () => {
    const { host } = memoryHost();
    const emulator = newEmulator({ conformance: host });
    const unknownRun = 'No such run: it was never started here, or it is older than the last five.';
    for (const response of [
      await emulator.handle(new Request(`${PAGE_URL}/runs/nothing-here`)),
      await emulator.handle(new Request(`${PAGE_URL}/runs/run-1/index.html`)),
      await newEmulator().handle(new Request(`${PAGE_URL}/runs/run-1`)),
      await newEmulator().handle(new Request(`${PAGE_URL}/runs/run-1/index.html`)),
    ]) {
      expect(response.status).toBe(404);
      expect(await response.text()).toContain(unknownRun);
    }
  });
});

describe('GET {base}/conformance/runs/{id}/{file}', () => {
  it('serves the report files with their type, never cached, under a policy that runs no script', async () => {
    const { host } = memoryHost();
    const emulator = newEmulator({ conformance: host });
    await emulator.handle(startPost(FORM));
    const response = await emulator.handle(new Request(`${PAGE_URL}/runs/run-1/index.html`));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    // Its screenshots are never sniffed as something else, never framed, and no link from the report leaks its address.
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await response.text()).toBe('<p>index.html</p>');
    expect((await emulator.handle(new Request(`${PAGE_URL}/runs/run-1/normal.png`))).status).toBe(200);
  });

  it('asks the host only for index.html, junit.xml and <case>.png: no path traversal', async () => {
    const { host, fileNames } = memoryHost();
    const emulator = newEmulator({ conformance: host });
    await emulator.handle(startPost(FORM));
    for (const name of ['..%2F..%2Fetc%2Fpasswd', '..%2Findex.html', '%2E%2E', 'index.htm', 'Normal.png', 'normal.png.exe', '.png', 'a%00.png', 'report.json']) {
      const response = await emulator.handle(new Request(`${PAGE_URL}/runs/run-1/${name}`));
      expect(response.status, name).toBe(404);
    }
    // A raw `..` is resolved by the URL before routing: it never names a file of the run.
    expect((await emulator.handle(new Request(`${PAGE_URL}/runs/run-1/../../panel`))).status).not.toBe(200);
    expect(fileNames).toEqual([]);
    // A valid name the run does not have: 404 from the host.
    const missing = await emulator.handle(new Request(`${PAGE_URL}/runs/run-1/expired.png`));
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('No such file in this run.');
    expect(fileNames).toEqual(['expired.png']);
  });
});

describe('runInput: the run a form asks for, or what is wrong with it', () => {
  const CLIENTS = new Set(['my-rp']);
  const VALUES = { clientId: 'my-rp', startUrl: 'https://rp.example/start', startSelector: '', cases: '', jwksCooldownSeconds: '30' };
  const problemOf = (values: Partial<typeof VALUES>) => {
    const input = runInput({ ...VALUES, ...values }, CLIENTS);
    return 'problem' in input ? input.problem(CONFORMANCE_MESSAGES.en) : undefined;
  };

  it('keeps what was given, trimmed; an empty selector or case list is left out (the kit’s defaults)', () => {
    expect(runInput({ ...VALUES, startSelector: '  #go  ', cases: ' wrong_nonce , ,expired* ', jwksCooldownSeconds: ' 0 ' }, CLIENTS)).toEqual({
      clientId: 'my-rp',
      startUrl: 'https://rp.example/start',
      startSelector: '#go',
      cases: ['wrong_nonce', 'expired*'],
      jwksCooldownSeconds: 0,
    });
    expect(runInput({ ...VALUES, startSelector: '   ', cases: ' , ' }, CLIENTS)).toEqual({ clientId: 'my-rp', startUrl: 'https://rp.example/start', jwksCooldownSeconds: 30 });
  });

  it.each([
    [{ clientId: '' }, 'Choose a client.'],
    [{ clientId: 'nobody' }, 'is not registered'],
    [{ startUrl: '' }, 'The start URL must be an absolute http or https URL.'],
    [{ startUrl: '/relative' }, 'The start URL must be an absolute http or https URL.'],
    [{ startUrl: 'ftp://rp.example/' }, 'The start URL must be an absolute http or https URL.'],
    [{ startSelector: 'x'.repeat(201) }, 'The start selector may be at most 200 characters.'],
    [{ cases: Array.from({ length: 101 }, (_, index) => `case_${index}`).join(',') }, 'separated by commas (at most 100)'],
    [{ cases: 'Wrong_Nonce' }, 'separated by commas (at most 100)'],
    [{ cases: 'wrong_nonce!' }, 'separated by commas (at most 100)'],
    [{ jwksCooldownSeconds: '' }, 'The JWKS cooldown must be a whole number of seconds from 0 to 3600.'],
    [{ jwksCooldownSeconds: '30s' }, 'The JWKS cooldown must be a whole number of seconds from 0 to 3600.'],
    [{ jwksCooldownSeconds: '3601' }, 'The JWKS cooldown must be a whole number of seconds from 0 to 3600.'],
  ])('refuses %j', (values, words) => {
    expect(problemOf(values)).toContain(words);
  });

  it('a form without a selector, cases or cooldown field: the kit’s defaults, or the cooldown asked for, never a crash', () => {
    expect(runInput({ clientId: 'my-rp', startUrl: 'https://rp.example/start', jwksCooldownSeconds: '30' }, CLIENTS)).toEqual({ clientId: 'my-rp', startUrl: 'https://rp.example/start', jwksCooldownSeconds: 30 });
    expect(problemOf({ jwksCooldownSeconds: undefined })).toContain('The JWKS cooldown must be a whole number');
    expect(problemOf({ startUrl: undefined })).toContain('The start URL must be an absolute http or https URL.');
  });

  it('accepts the limits themselves: a 200-character selector, 100 cases, 3600 s, an http URL', () => {
    expect(problemOf({ startSelector: 'x'.repeat(200) })).toBeUndefined();
    expect(problemOf({ cases: Array.from({ length: 100 }, (_, index) => `case_${index}`).join(',') })).toBeUndefined();
    expect(problemOf({ jwksCooldownSeconds: '3600' })).toBeUndefined();
    expect(problemOf({ startUrl: 'http://localhost:3000/' })).toBeUndefined();
  });
});
