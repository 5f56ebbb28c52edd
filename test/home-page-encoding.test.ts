/**
 * `GET /` gzipped once: next.config.mjs gives the response `Content-Encoding: gzip` and app/route.ts
 * sends gzipped bytes, each deciding on its own. They must decide alike for every request, or a
 * browser gets gzip it cannot read as such, or plain HTML labelled gzip. Checked here with Next.js's
 * own matcher of `has` and `missing` conditions, the one its router runs.
 */
import { matchHas } from 'next/dist/shared/lib/router/utils/prepare-destination';
import { describe, expect, it } from 'vitest';
import { acceptsGzip, GZIP_ACCEPTED } from '@/lib/server/home-page';
import { LINK_FIELDS } from '@/lib/verification/selection';
import nextConfig, { homePageEncoding } from '../next.config.mjs';

/** Whether Next.js's router gives a request to `/` the rule's headers. */
function nextSaysGzip(acceptEncoding: string | undefined, query: Record<string, string> = {}): boolean {
  const headers: Record<string, string> = acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding };
  return matchHas({ headers } as never, query, homePageEncoding.has as never, homePageEncoding.missing as never) !== false;
}

const TAKE_GZIP = [
  'gzip',
  'gzip, deflate, br, zstd',
  'deflate, gzip',
  'deflate,gzip',
  'br;q=1.0, gzip;q=0.8, *;q=0.1',
  'gzip;q=1',
  'gzip;q=0.001',
  'gzip ; q=0.5, identity',
];
const REFUSE_GZIP = ['', 'identity', 'br', 'x-gzip', 'deflate, x-gzip', 'gzip;q=0', 'gzip;q=0.000', 'br, gzip;q=0, deflate', '*', 'gzipped', 'GZIP'];

describe('GET / gzipped once: next.config.mjs and app/route.ts decide alike', () => {
  it('is one of next.config.mjs’s headers rules, for `/`, saying Content-Encoding: gzip', async () => {
    expect(await nextConfig.headers()).toContainEqual(homePageEncoding);
    expect(homePageEncoding).toMatchObject({ source: '/', headers: [{ key: 'Content-Encoding', value: 'gzip' }] });
  });

  it('asks for gzip with the very pattern the route reads Accept-Encoding by', () => {
    expect(homePageEncoding.has).toEqual([{ type: 'header', key: 'accept-encoding', value: GZIP_ACCEPTED }]);
  });

  it('gzips for a browser that lists gzip without q=0, and for no other', () => {
    for (const value of TAKE_GZIP) {
      expect(acceptsGzip(value), value).toBe(true);
      expect(nextSaysGzip(value), value).toBe(true);
    }
    for (const value of REFUSE_GZIP) {
      expect(acceptsGzip(value), value).toBe(false);
      expect(nextSaysGzip(value), value).toBe(false);
    }
    expect(acceptsGzip(undefined)).toBe(false);
    expect(acceptsGzip(null)).toBe(false);
    expect(nextSaysGzip(undefined)).toBe(false);
  });

  it('leaves a link to a request alone (proxy.ts sends it to a page rendered for it), each field of one', () => {
    expect(homePageEncoding.missing).toEqual(LINK_FIELDS.map((key) => ({ type: 'query', key })));
    for (const field of LINK_FIELDS) expect(nextSaysGzip('gzip', { [field]: 'x' }), field).toBe(false);
    // A field left empty is no link (proxy.ts's matcher reads it alike): the route serves it.
    expect(nextSaysGzip('gzip', { preset: '' })).toBe(true);
    expect(nextSaysGzip('gzip', { signed_out: '1' })).toBe(true);
  });
});
