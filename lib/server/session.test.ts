import { unsealData } from 'iron-session';
import { describe, expect, it } from 'vitest';
import { bindingCookie, sessionOptions, type SessionData } from './session';

const password = 'p'.repeat(32);

describe('the session binding cookie', () => {
  it('seals a fresh random binding that iron-session opens with the same secret', async () => {
    const first = await bindingCookie(password, false);
    const second = await bindingCookie(password, false);
    const opened = await unsealData<SessionData>(first.value, { password });
    expect(opened.browser).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await unsealData<SessionData>(second.value, { password })).browser).not.toBe(opened.browser);
    expect(await unsealData<SessionData>(first.value, { password: 'q'.repeat(32) })).toEqual({});
  });

  it('is HttpOnly and SameSite=Lax, Secure with the __Host- prefix on https, a browser-session cookie, and small', async () => {
    const plain = await bindingCookie(password, false);
    expect(plain).toMatchObject({ name: 'idv_rp_session', options: { httpOnly: true, sameSite: 'lax', secure: false, path: '/' } });
    const secure = await bindingCookie(password, true);
    expect(secure).toMatchObject({ name: '__Host-idv_rp_session', options: { httpOnly: true, secure: true, path: '/' } });
    // No Max-Age: the browser drops it when it closes; the seal itself expires after its ttl.
    expect(secure.options.maxAge).toBeUndefined();
    expect(sessionOptions(password, true).cookieOptions?.maxAge).toBeUndefined();
    expect(secure.value.length).toBeLessThan(400);
  });
});
