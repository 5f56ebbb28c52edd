import { sealData, unsealData } from 'iron-session';
import { describe, expect, it, vi } from 'vitest';
import { bindingCookie, OPENED_SEALS_KEPT, openBinding, sealExpiry, SESSION_TTL_SECONDS, sessionCookie, type SessionData } from './session';

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

  it('opens again without iron-session, to the same binding; one it made, without opening it at all', async () => {
    const value = await sealData({ browser }, { password, ttl: SESSION_TTL_SECONDS });
    vi.mocked(unsealData).mockClear();
    expect(await openBinding(value, password)).toBe(browser);
    expect(await openBinding(value, password)).toBe(browser);
    expect(unsealData).toHaveBeenCalledTimes(1);
    const made = await bindingCookie(password, false);
    expect(await openBinding(made.value, password)).toBe(made.browser);
    expect(unsealData).toHaveBeenCalledTimes(1);
  });

  it('is still refused once expired, or under another secret', async () => {
    const value = await sealData({ browser }, { password, ttl: SESSION_TTL_SECONDS });
    expect(await openBinding(value, password)).toBe(browser);
    expect(await openBinding(value, password, Date.now() + SESSION_TTL_SECONDS * 1000 + 120_000)).toBeUndefined();
    expect(await openBinding(value, 'q'.repeat(32))).toBeUndefined();
    // And the other secret's turn did not make the first one's seals open without their key.
    expect(await openBinding(value, password)).toBe(browser);
  });

  it('does not make a seal that differs by one character open', async () => {
    const value = await sealData({ browser }, { password, ttl: SESSION_TTL_SECONDS });
    expect(await openBinding(value, password)).toBe(browser);
    const parts = value.split('*');
    parts[4] = `${parts[4]!.slice(0, -1)}${parts[4]!.endsWith('A') ? 'B' : 'A'}`;
    expect(await openBinding(parts.join('*'), password)).toBeUndefined();
  });

  it('keeps at most OPENED_SEALS_KEPT seals, the least recently used going first', async () => {
    const [first, second] = [await bindingCookie(password, false), await bindingCookie(password, false)];
    for (let i = 0; i < OPENED_SEALS_KEPT - 2; i += 1) await bindingCookie(password, false);
    // Used, the first is now the most recent: the next new one pushes the second out.
    expect(await openBinding(first.value, password)).toBe(first.browser);
    await bindingCookie(password, false);
    vi.mocked(unsealData).mockClear();
    expect(await openBinding(first.value, password)).toBe(first.browser);
    expect(unsealData).not.toHaveBeenCalled();
    // Forgotten, it is opened by iron-session again, and still opens: the memory is a shortcut, never the check.
    expect(await openBinding(second.value, password)).toBe(second.browser);
    expect(unsealData).toHaveBeenCalledTimes(1);
  });
});
