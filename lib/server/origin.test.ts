import { describe, expect, it } from 'vitest';
import { isSameOriginRequest } from './origin';

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
