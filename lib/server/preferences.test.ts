import { describe, expect, it } from 'vitest';
import { parsePreferenceForm, preferenceCookies, returnPath } from './preferences';

describe('preferences', () => {
  it('reads the switches’ form and refuses anything else with invalid_preference', () => {
    expect(parsePreferenceForm(new URLSearchParams('presenter=on'))).toEqual({ presenter: true });
    expect(parsePreferenceForm(new URLSearchParams('presenter=off'))).toEqual({ presenter: false });
    expect(parsePreferenceForm(new URLSearchParams(''))).toEqual({});
    expect(parsePreferenceForm(new URLSearchParams('theme=dark'))).toEqual({ theme: 'dark' });
    expect(parsePreferenceForm(new URLSearchParams('lang=nb'))).toEqual({ locale: 'nb' });
    expect(() => parsePreferenceForm(new URLSearchParams('lang=nn'))).toThrow(expect.objectContaining({ code: 'invalid_preference' }));
    expect(() => parsePreferenceForm(new URLSearchParams('theme=sepia'))).toThrow(expect.objectContaining({ code: 'invalid_preference' }));
    expect(() => parsePreferenceForm(new URLSearchParams('presenter=maybe'))).toThrow(expect.objectContaining({ code: 'invalid_preference' }));
    expect(() => parsePreferenceForm(new URLSearchParams('admin=on'))).toThrow(expect.objectContaining({ code: 'invalid_preference' }));
    // the detail keeps what was sent as a code with values: a short plain token as it is, anything else by its length
    expect(() => parsePreferenceForm(new URLSearchParams(`theme=${'<b>'.repeat(30)}`))).toThrow(
      expect.objectContaining({ detail: { kind: 'unknown_preference', name: { text: 'theme' }, value: { length: 90 } } }),
    );
  });

  it('remembers a change for a year in an HttpOnly cookie, Secure on https', () => {
    const [cookie] = preferenceCookies({ presenter: true }, true);
    expect(cookie).toMatchObject({
      name: 'idv_presenter',
      value: 'on',
      options: { httpOnly: true, secure: true, sameSite: 'lax', path: '/', maxAge: 31_536_000 },
    });
    expect(preferenceCookies({}, false)).toEqual([]);
    expect(preferenceCookies({ locale: 'nb' }, false)).toEqual([expect.objectContaining({ name: 'idv_lang', value: 'nb' })]);
    expect(preferenceCookies({ theme: 'light' }, false)).toEqual([
      expect.objectContaining({ name: 'idv_theme', value: 'light', options: expect.objectContaining({ secure: false }) }),
    ]);
  });

  it('sends the browser back to the page it came from, on this origin only', () => {
    const app = 'https://rp.example';
    expect(returnPath('https://rp.example/result?reveal=numbers', app)).toBe('/result?reveal=numbers');
    expect(returnPath('https://evil.example/phish', app)).toBe('/');
    // a path of ours that a URL parser reads as another host
    expect(returnPath('https://rp.example//evil.example/phish', app)).toBe('/');
    expect(returnPath('https://rp.example/%2F%2Fevil.example', app)).toBe('/%2F%2Fevil.example');
    expect(returnPath('not a url', app)).toBe('/');
    expect(returnPath(null, app)).toBe('/');
  });
});
