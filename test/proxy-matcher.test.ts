import { describe, expect, it } from 'vitest';
import { LINK_FIELDS } from '@/lib/verification/selection';
import { config } from '../proxy';

describe('which requests proxy.ts sees', () => {
  it('sees `/` only with a field of a link to a request, each of them', () => {
    const root = config.matcher.filter((entry) => entry.source === '/');
    expect(root.flatMap((entry) => ('has' in entry ? entry.has : [])).map((condition) => [condition!.type, condition!.key])).toEqual(LINK_FIELDS.map((field) => ['query', field]));
  });

  it('sees every other page, and none of the route handlers that answer no page', () => {
    const [pages] = config.matcher;
    const matches = (path: string) => new RegExp(`^${pages!.source}$`).test(path);
    for (const page of ['/home-page', '/result', '/failure', '/doctor', '/no-such-page']) expect(matches(page), page).toBe(true);
    for (const route of ['/', '/emulator', '/emulator/auth', '/auth/start', '/result/portrait', '/result/trace', '/result/again', '/preferences', '/demo-logo', '/app-address', '/healthz', '/_next/static/chunks/a.js']) expect(matches(route), route).toBe(false);
  });
});
