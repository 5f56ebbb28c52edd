import { sealData, unsealData } from 'iron-session';
import { describe, expect, it, vi } from 'vitest';
import { bindingCookie, OPENED_SEALS_KEPT, openBinding, PENDING_TTL_MS, sealExpiry, SESSION_TTL_SECONDS, sessionCookie, type SessionData } from './session';

// iron-session as it is, its opening counted: what the session remembers is never opened again.
vi.mock('iron-session', async (original) => {
  const real = await original<typeof import('iron-session')>();
  return { ...real, unsealData: vi.fn(real.unsealData) };
});

const password = 'p'.repeat(32);

describe('the session binding cookie', () => {
  it('seals a fresh random binding that iron-session opens with the same secret', async () => {
    const first = await bindingCookie(password, false);
    const second = await bindingCookie(password, false);
    const opened = await unsealData<SessionData>(first.value, { password });
    expect(opened.browser).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(opened.browser).toBe(first.browser);
    expect((await unsealData<SessionData>(second.value, { password })).browser).not.toBe(opened.browser);
    expect(await unsealData<SessionData>(first.value, { password: 'q'.repeat(32) })).toEqual({});
  });

  it('is HttpOnly and SameSite=Lax, Secure with the __Host- prefix on https, a browser-session cookie, and small', async () => {
    const plain = await bindingCookie(password, false);
    expect(plain).toMatchObject({ name: 'idv_rp_session', options: { httpOnly: true, sameSite: 'lax', secure: false, path: '/' } });
    const secure = await bindingCookie(password, true);
    expect(secure).toMatchObject({ name: '__Host-idv_rp_session', options: { httpOnly: true, secure: true, path: '/' } });
    // No Max-Age: the browser drops it when it closes; the seal itself expires after a day.
    expect(secure.options).not.toHaveProperty('maxAge');
    expect(sessionCookie(true).options).not.toHaveProperty('maxAge');
    expect(secure.value.length).toBeLessThan(400);
  });

  it('carries its expiry in the seal: a day from now', async () => {
    const before = Date.now();
    const { value } = await bindingCookie(password, false);
    const expiry = sealExpiry(value);
    expect(expiry).toBeGreaterThanOrEqual(before + SESSION_TTL_SECONDS * 1000);
    expect(expiry).toBeLessThanOrEqual(Date.now() + SESSION_TTL_SECONDS * 1000);
  });
});

describe('opening a binding', () => {
  const browser = 'b'.repeat(43);

  it('opens a binding sealed for a day with the same secret', async () => {
    const value = await sealData({ browser }, { password, ttl: SESSION_TTL_SECONDS });
    expect(await openBinding(value, password)).toBe(browser);
  });

  it('refuses a seal without an expiry (what iron-session seals for a cookie without Max-Age): such a binding would never end', async () => {
    const permanent = await sealData({ browser }, { password, ttl: 0 });
    expect(sealExpiry(permanent)).toBeUndefined();
    expect(await unsealData<SessionData>(permanent, { password })).toEqual({ browser });
    expect(await openBinding(permanent, password)).toBeUndefined();
  });

  it('refuses a seal that expires later than a binding may (iron-session’s default of 14 days)', async () => {
    const long = await sealData({ browser }, { password, ttl: 14 * 24 * 3600 });
    expect(await openBinding(long, password)).toBeUndefined();
  });

  it('refuses an expired seal, another secret’s seal, a malformed binding and garbage', async () => {
    const value = await sealData({ browser }, { password, ttl: SESSION_TTL_SECONDS });
    expect(await openBinding(value, password, Date.now() + SESSION_TTL_SECONDS * 1000 + 120_000)).toBeUndefined();
    expect(await openBinding(value, 'q'.repeat(32))).toBeUndefined();
    expect(await openBinding(await sealData({ browser: 'short' }, { password, ttl: SESSION_TTL_SECONDS }), password)).toBeUndefined();
    expect(await openBinding(await sealData({ other: browser }, { password, ttl: SESSION_TTL_SECONDS }), password)).toBeUndefined();
    expect(await openBinding('Fe26.2*1*a*b*c*9999999999999*d*e~2', password)).toBeUndefined();
    expect(await openBinding('x'.repeat(5000), password)).toBeUndefined();
    expect(await openBinding(undefined, password)).toBeUndefined();
    expect(await openBinding('', password)).toBeUndefined();
  });
});

describe('a seal this process opened or made, remembered', () => {
  const browser = 'c'.repeat(43);
  // A secret of each test's own: what the process remembers is per secret, and starts empty for a new one.
  let secrets = 0;
  const newSecret = () => `${'s'.repeat(31)}${(secrets += 1)}`;

  it('opens again without iron-session, to the same binding; one it made, without opening it at all', async () => {
    const secret = newSecret();
    const value = await sealData({ browser }, { password: secret, ttl: SESSION_TTL_SECONDS });
    vi.mocked(unsealData).mockClear();
    expect(await openBinding(value, secret)).toBe(browser);
    expect(await openBinding(value, secret)).toBe(browser);
    expect(unsealData).toHaveBeenCalledTimes(1);
    const made = await bindingCookie(secret, false);
    expect(await openBinding(made.value, secret)).toBe(made.browser);
    expect(unsealData).toHaveBeenCalledTimes(1);
  });

  it('is still refused once expired, or under another secret', async () => {
    const secret = newSecret();
    const value = await sealData({ browser }, { password: secret, ttl: SESSION_TTL_SECONDS });
    expect(await openBinding(value, secret)).toBe(browser);
    expect(await openBinding(value, secret, Date.now() + SESSION_TTL_SECONDS * 1000 + 120_000)).toBeUndefined();
    expect(await openBinding(value, newSecret())).toBeUndefined();
    expect(await openBinding(value, secret)).toBe(browser);
  });

  it('does not make a seal that differs by one character open', async () => {
    const secret = newSecret();
    const value = await sealData({ browser }, { password: secret, ttl: SESSION_TTL_SECONDS });
    expect(await openBinding(value, secret)).toBe(browser);
    const parts = value.split('*');
    parts[4] = `${parts[4]!.slice(0, -1)}${parts[4]!.endsWith('A') ? 'B' : 'A'}`;
    expect(await openBinding(parts.join('*'), secret)).toBeUndefined();
  });

  it('does not remember a seal that did not open', async () => {
    const secret = newSecret();
    const foreign = await sealData({ browser }, { password: newSecret(), ttl: SESSION_TTL_SECONDS });
    vi.mocked(unsealData).mockClear();
    expect(await openBinding(foreign, secret)).toBeUndefined();
    expect(await openBinding(foreign, secret)).toBeUndefined();
    expect(unsealData).toHaveBeenCalledTimes(2);
  });

  it('keeps OPENED_SEALS_KEPT seals, the least recently used going first', async () => {
    const secret = newSecret();
    const made = [];
    for (let i = 0; i < OPENED_SEALS_KEPT; i += 1) made.push(await bindingCookie(secret, false));
    const [first, second] = made as [(typeof made)[0], (typeof made)[0]];
    // All of them are remembered; used, the first is now the most recent.
    vi.mocked(unsealData).mockClear();
    expect(await openBinding(first.value, secret)).toBe(first.browser);
    expect(unsealData).not.toHaveBeenCalled();
    // One more pushes out the least recently used: the second.
    await bindingCookie(secret, false);
    expect(await openBinding(first.value, secret)).toBe(first.browser);
    expect(unsealData).not.toHaveBeenCalled();
    // Forgotten, it is opened by iron-session again, and still opens: the memory is a shortcut, never the check.
    expect(await openBinding(second.value, secret)).toBe(second.browser);
    expect(unsealData).toHaveBeenCalledTimes(1);
  });
});

describe('the edges of a binding', () => {
  const browser = 'd'.repeat(43);
  /** iron-session's allowance for clocks (60 s), which openBinding applies too */
  const SKEW_MS = 60_000;

  it('lasts a day; a pending flow fifteen minutes', () => {
    expect(SESSION_TTL_SECONDS).toBe(86_400);
    expect(PENDING_TTL_MS).toBe(15 * 60_000);
  });

  it('is valid until its expiry, with the clock skew allowed, and not a millisecond after', async () => {
    const secret = 'e'.repeat(32);
    const value = await sealData({ browser }, { password: secret, ttl: SESSION_TTL_SECONDS });
    const expiry = sealExpiry(value)!;
    expect(await openBinding(value, secret, expiry + SKEW_MS - 1)).toBe(browser);
    expect(await openBinding(value, secret, expiry + SKEW_MS)).toBeUndefined();
    // Sealed at most a day (and the skew) ahead of now: the earliest moment it was made.
    expect(await openBinding(value, secret, expiry - SESSION_TTL_SECONDS * 1000 - SKEW_MS)).toBe(browser);
    expect(await openBinding(value, secret, expiry - SESSION_TTL_SECONDS * 1000 - SKEW_MS - 1)).toBeUndefined();
  });

  it('reads an expiry only from a field of digits alone', () => {
    const seal = (expiry: string) => `Fe26.2*1*salt*iv*data*${expiry}*salt*mac~2`;
    expect(sealExpiry(seal('1795665390172'))).toBe(1_795_665_390_172);
    expect(sealExpiry(seal('x1795665390172'))).toBeUndefined();
    expect(sealExpiry(seal('1795665390172x'))).toBeUndefined();
    expect(sealExpiry(seal('1'.repeat(16)))).toBeUndefined();
    expect(sealExpiry('Fe26.2*1*salt*iv*data')).toBeUndefined();
  });

  it('refuses a cookie longer than a binding’s seal without opening it, and a binding that is not a string', async () => {
    const secret = 'f'.repeat(32);
    const long = await sealData({ browser, padding: 'x'.repeat(1024) }, { password: secret, ttl: SESSION_TTL_SECONDS });
    expect(long.length).toBeGreaterThan(1024);
    vi.mocked(unsealData).mockClear();
    expect(await openBinding(long, secret)).toBeUndefined();
    expect(unsealData).not.toHaveBeenCalled();
    expect(await openBinding(await sealData({ browser: [browser] }, { password: secret, ttl: SESSION_TTL_SECONDS }), secret)).toBeUndefined();
    // 32 random bytes are 43 base64url characters: one more or less, or another alphabet, is not a binding.
    for (const other of [`${browser}d`, browser.slice(1), `${browser.slice(1)}=`, `${browser.slice(1)}+`]) {
      expect(await openBinding(await sealData({ browser: other }, { password: secret, ttl: SESSION_TTL_SECONDS }), secret), other).toBeUndefined();
    }
  });
});
