import { describe, expect, it } from 'vitest';
import { crossSiteRefusal, isSameOriginRequest, whereFrom } from './origin';

const APP = 'https://rp.example';
const check = (headers: Record<string, string>) => isSameOriginRequest(new Headers(headers), APP);

describe('isSameOriginRequest', () => {
  it('accepts a form posted from our own pages', () => {
    expect(check({ origin: APP, 'sec-fetch-site': 'same-origin' })).toBe(true);
  });

  it('refuses another origin, and the opaque origin "null"', () => {
    expect(check({ origin: 'https://evil.example' })).toBe(false);
    expect(check({ origin: 'null', 'sec-fetch-site': 'same-origin' })).toBe(false);
  });

  it('refuses a cross-site or same-site (sibling subdomain) fetch even without Origin', () => {
    expect(check({ 'sec-fetch-site': 'cross-site' })).toBe(false);
    expect(check({ 'sec-fetch-site': 'same-site' })).toBe(false);
  });

  it('lets a script without browser headers through: it cannot carry a user’s cookies by accident', () => {
    expect(check({})).toBe(true);
  });
});

describe('whereFrom', () => {
  it('names the page’s origin and the app’s address, so a page opened under another name explains itself', () => {
    expect(whereFrom('http://127.0.0.1:3000', 'http://localhost:3000')).toBe(
      '; it came from http://127.0.0.1:3000, and this app’s address is http://localhost:3000 (APP_URL): open the app there and start again',
    );
  });

  it('quotes an origin that is not a plain http(s) origin only by its length', () => {
    expect(whereFrom(`http://evil.example/${'<script>'.repeat(3)}`, 'http://localhost:3000')).toContain('it came from a value of 44 characters');
  });

  it('names only the app’s address without an Origin, or with the opaque origin "null"', () => {
    expect(whereFrom(null, 'http://localhost:3000')).toBe('; this app’s address is http://localhost:3000');
    expect(whereFrom('null', 'http://localhost:3000')).toBe('; this app’s address is http://localhost:3000');
  });
});

describe('crossSiteRefusal', () => {
  it('lets a same-origin request through, and refuses another with forbidden_origin, its detail as a code with values', () => {
    expect(crossSiteRefusal(new Headers({ origin: 'http://localhost:3000' }), 'http://localhost:3000/', 'start')).toBeUndefined();
    expect(crossSiteRefusal(new Headers({ origin: 'http://127.0.0.1:3000' }), 'http://localhost:3000/', 'sign_out')).toMatchObject({
      code: 'forbidden_origin',
      message: expect.stringMatching(/^Sign-out can only be requested from this app’s own pages; it came from http:\/\/127\.0\.0\.1:3000/),
      detail: { kind: 'cross_site', action: 'sign_out', from: { text: 'http://127.0.0.1:3000' }, app: 'http://localhost:3000' },
    });
  });

  it('keeps an origin that is not a plain http(s) origin only by its length, and none for "null" or a fetch without Origin', () => {
    const odd = `http://evil.example/${'<script>'.repeat(3)}`;
    expect(crossSiteRefusal(new Headers({ origin: odd }), APP, 'settings')?.detail).toEqual({
      kind: 'cross_site',
      action: 'settings',
      from: { length: 44 },
      app: APP,
    });
    expect(crossSiteRefusal(new Headers({ origin: 'null' }), APP, 'start')?.detail).toEqual({ kind: 'cross_site', action: 'start', app: APP });
    expect(crossSiteRefusal(new Headers({ 'sec-fetch-site': 'cross-site' }), APP, 'start')?.detail).toEqual({ kind: 'cross_site', action: 'start', app: APP });
  });
});
