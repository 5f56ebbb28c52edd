import { describe, expect, it } from 'vitest';
import { headersToDrop, isRouterStateTree, refusalOf, validByteRanges } from './request-guard';

describe('refusalOf: what Next.js would answer with a 500 of its own', () => {
  it('refuses a method no route has with 405 and Allow, whatever the path', () => {
    for (const method of ['TRACE', 'TRACK', 'CONNECT', 'PROPFIND']) {
      expect(refusalOf(method, '/')).toMatchObject({ status: 405, body: { error: 'method_not_allowed' }, headers: { Allow: expect.stringContaining('GET') } });
    }
    for (const method of ['GET', 'head', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) expect(refusalOf(method, '/')).toBeUndefined();
  });

  it('refuses an emulator path that is not percent-encoded UTF-8 with the emulator’s 400, and only there', () => {
    for (const url of ['/emulator/%E0', '/emulator/app/%E0?x=1', '/emulator/%2', '/emulator%E0'.replace('%E0', '/%C3%28')]) {
      expect(refusalOf('GET', url), url).toEqual({
        status: 400,
        body: { error: 'invalid_request', error_description: 'the path is not percent-encoded UTF-8' },
      });
    }
    for (const url of ['/emulator/app/%C3%A6', '/emulator/jwks?x=%E0', '/%E0', '/emulatorx/%E0']) expect(refusalOf('GET', url), url).toBeUndefined();
  });
});

describe('headersToDrop', () => {
  it('drops a Range with no satisfiable form and keeps a valid one (RFC 9110 §14.1.1)', () => {
    for (const range of ['bytes=5-1', 'bytes=-', 'bytes=x-y', 'lines=1-2', 'bytes=0-1,5-1']) expect(validByteRanges(range), range).toBe(false);
    for (const range of ['bytes=0-9', 'bytes=5-', 'bytes=-5', 'bytes=0-0, 4-9']) expect(validByteRanges(range), range).toBe(true);
    expect(headersToDrop({ range: 'bytes=5-1' })).toEqual(['range']);
    expect(headersToDrop({ range: 'bytes=0-9' })).toEqual([]);
  });

  it('drops the router’s headers with a state tree Next.js cannot read, and keeps a tree its router sends', () => {
    const sent = encodeURIComponent(JSON.stringify(['', { children: ['__PAGE__', {}, null, null] }, null, null, 1]));
    const dynamic = encodeURIComponent(JSON.stringify(['', { children: [['id', 'x', 'd', null], {}] }]));
    expect(isRouterStateTree(sent)).toBe(true);
    expect(isRouterStateTree(dynamic)).toBe(true);
    for (const tree of [
      '%7Bbad',
      '%5B%5D',
      encodeURIComponent('["",{"children":[1,{}]}]'),
      encodeURIComponent('["",{},null,"nonsense"]'),
      'x'.repeat(50_000),
    ]) {
      expect(isRouterStateTree(tree), tree.slice(0, 20)).toBe(false);
    }
    expect(headersToDrop({ rsc: '1', 'next-router-state-tree': '%7Bbad' })).toEqual([
      'next-router-state-tree',
      'rsc',
      'next-router-prefetch',
      'next-router-segment-prefetch',
    ]);
    expect(headersToDrop({ rsc: '1', 'next-router-state-tree': sent })).toEqual([]);
  });
});
