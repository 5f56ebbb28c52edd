import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { gunzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FRESH_MS, HomePages, ownOrigin, renderForRequest, sharedRenderer, type HomeVariant, type ServedPage } from './home-page';
import { insertingScript, scriptHash, UnhashablePage } from './hashed-page';

const english: HomeVariant = { locale: 'en', theme: 'system', presenter: false, signedOut: false, health: '{"state":"ok"}' };
const page = (body: string): ServedPage => ({ status: 200, headers: { 'content-type': 'text/html' }, body });

/** A renderer that counts its renders and answers each with its number, or as `next` says. */
function renderer() {
  const renders: HomeVariant[] = [];
  let next: (() => Promise<ServedPage>) | undefined;
  const render = (variant: HomeVariant) => {
    renders.push(variant);
    return next ? next() : Promise.resolve(page(`render ${renders.length}`));
  };
  return { render, renders, answerWith: (answer: () => Promise<ServedPage>) => (next = answer) };
}

describe('the home page kept for every visitor who sees the same page', () => {
  afterEach(() => vi.restoreAllMocks());

  it('renders a variant once and serves that render until it is FRESH_MS old', async () => {
    let now = 0;
    const { render, renders } = renderer();
    const pages = new HomePages(render, FRESH_MS, () => now);
    expect((await pages.page(english))?.body).toBe('render 1');
    now = FRESH_MS - 1;
    expect((await pages.page(english))?.body).toBe('render 1');
    expect(renders).toHaveLength(1);
  });

  it('renders each variant apart: language, theme, presenter mode, a sign-out and the service’s health each change the page', async () => {
    const { render, renders } = renderer();
    const pages = new HomePages(render);
    const variants: HomeVariant[] = [
      english,
      { ...english, locale: 'nb' },
      { ...english, theme: 'dark' },
      { ...english, presenter: true },
      { ...english, signedOut: true },
      { ...english, health: '{"state":"down"}' },
    ];
    const bodies = await Promise.all(variants.map(async (variant) => (await pages.page(variant))?.body));
    expect(new Set(bodies).size).toBe(variants.length);
    expect(renders).toEqual(variants);
  });

  it('renders once for visitors who arrive together, before the first render ends', async () => {
    const { render, renders, answerWith } = renderer();
    let finish!: (page: ServedPage) => void;
    answerWith(() => new Promise((resolve) => (finish = resolve)));
    const pages = new HomePages(render);
    const waiting = Promise.all([pages.page(english), pages.page(english), pages.page(english)]);
    finish(page('the one render'));
    expect((await waiting).map((served) => served?.body)).toEqual(['the one render', 'the one render', 'the one render']);
    expect(renders).toHaveLength(1);
  });

  it('serves an older render at once while the next one renders, then the new one', async () => {
    let now = 0;
    const { render, renders, answerWith } = renderer();
    const pages = new HomePages(render, FRESH_MS, () => now);
    await pages.page(english);
    now = FRESH_MS;
    let finish!: (page: ServedPage) => void;
    answerWith(() => new Promise((resolve) => (finish = resolve)));
    expect((await pages.page(english))?.body).toBe('render 1');
    expect((await pages.page(english))?.body).toBe('render 1');
    expect(renders).toHaveLength(2);
    finish(page('render 2'));
    await vi.waitFor(async () => expect((await pages.page(english))?.body).toBe('render 2'));
  });

  it('keeps serving the older render when the next one fails, and tries again on a later request', async () => {
    let now = 0;
    const { render, renders, answerWith } = renderer();
    const pages = new HomePages(render, FRESH_MS, () => now);
    await pages.page(english);
    now = FRESH_MS;
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    answerWith(() => Promise.reject(new Error('the server is stopping')));
    expect((await pages.page(english))?.body).toBe('render 1');
    await vi.waitFor(() => expect(logged).toHaveBeenCalledWith(expect.stringContaining('the server is stopping')));
    answerWith(() => Promise.resolve(page('render 3')));
    await pages.page(english);
    await vi.waitFor(async () => expect((await pages.page(english))?.body).toBe('render 3'));
    expect(renders).toHaveLength(3);
  });

  it('throws the render’s error when there is no older render to serve', async () => {
    const { render, answerWith } = renderer();
    answerWith(() => Promise.reject(new Error('/home-page answered HTTP 500')));
    await expect(new HomePages(render).page(english)).rejects.toThrow('HTTP 500');
  });

  it('answers undefined for a page that cannot be served with hashes, and does not try again for a while', async () => {
    let now = 0;
    const { render, renders, answerWith } = renderer();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    answerWith(() => Promise.reject(new UnhashablePage('a script has type')));
    const pages = new HomePages(render, FRESH_MS, () => now);
    expect(await pages.page(english)).toBeUndefined();
    expect(await pages.page(english)).toBeUndefined();
    expect(renders).toHaveLength(1);
    expect(logged).toHaveBeenCalledTimes(1);
    now = FRESH_MS;
    answerWith(() => Promise.resolve(page('hashable again')));
    expect((await pages.page(english))?.body).toBe('hashable again');
  });

  it('renders every request under next dev (freshMs 0), so that an edited page shows at once', async () => {
    const { render, renders } = renderer();
    const pages = new HomePages(render, 0);
    expect((await pages.page(english))?.body).toBe('render 1');
    expect((await pages.page(english))?.body).toBe('render 2');
    expect(renders).toHaveLength(2);
  });
});

describe('this server’s own address, to render its home page', () => {
  it('is the loopback address for a server listening on every interface or on localhost', () => {
    expect(ownOrigin({ HOSTNAME: '0.0.0.0', PORT: '4000' })).toBe('http://127.0.0.1:4000');
    expect(ownOrigin({ HOSTNAME: '::', PORT: '4000' })).toBe('http://127.0.0.1:4000');
    expect(ownOrigin({ HOSTNAME: 'localhost', PORT: '4000' })).toBe('http://127.0.0.1:4000');
    expect(ownOrigin({ PORT: '4000' })).toBe('http://127.0.0.1:4000');
  });

  it('is the one address the server listens on otherwise, an IPv6 one in brackets; port 3000 by default', () => {
    expect(ownOrigin({ HOSTNAME: '192.168.1.20', PORT: '8080' })).toBe('http://192.168.1.20:8080');
    expect(ownOrigin({ HOSTNAME: '::1', PORT: '8080' })).toBe('http://[::1]:8080');
    expect(ownOrigin({ HOSTNAME: '127.0.0.1' })).toBe('http://127.0.0.1:3000');
  });
});

describe('asking this server for its home page', () => {
  /** A stand-in for the server: answers every request as `answer` says, and keeps what it was asked. */
  async function server(answer: (response: ServerResponse) => void) {
    const asked: IncomingMessage[] = [];
    const listening = createServer((request, response) => {
      asked.push(request);
      answer(response);
    });
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
    return { origin, asked, close: () => new Promise((resolve) => listening.close(resolve)) };
  }
  const context = (origin: string) => ({ origin, host: 'app.example:3000', development: false, https: true });

  it('renders it to be served with hashes: asked without a nonce, for the variant, served with the policy of its scripts’ hashes', async () => {
    const own = await server((response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', link: '</a.css>; rel=preload; as="style"', 'set-cookie': 'x=1', 'content-security-policy': "script-src 'self' 'strict-dynamic'" });
      response.end('<html><head><script src="/_next/a.js" async=""></script></head><body><script>self.x=1</script></body></html>');
    });
    try {
      const page = await sharedRenderer(context(own.origin))({ ...english, locale: 'nb', theme: 'dark', presenter: true, signedOut: true });
      const [asked] = own.asked;
      expect(asked!.url).toBe('/home-page?signed_out=1');
      expect(asked!.headers).toMatchObject({ host: 'app.example:3000', 'x-idv-shared-render': '1', 'accept-encoding': 'identity', cookie: 'idv_lang=nb; idv_theme=dark; idv_presenter=on' });
      expect(page.body).toBe(`<html><head><script>${insertingScript('/_next/a.js')}</script></head><body><script>self.x=1</script></body></html>`);
      expect(page.headers['content-security-policy']).toContain(`script-src 'self' ${scriptHash(insertingScript('/_next/a.js'))} ${scriptHash('self.x=1')} 'strict-dynamic'`);
      expect(page.headers['content-security-policy']).toContain('upgrade-insecure-requests');
      // Its type and preloads kept; no cookie of the render's, and not to be kept by any shared cache.
      expect(page.headers).toMatchObject({ 'content-type': 'text/html; charset=utf-8', link: '</a.css>; rel=preload; as="style"', 'cache-control': 'private, no-cache, no-store, max-age=0, must-revalidate' });
      expect(page.headers['set-cookie']).toBeUndefined();
      // Kept gzipped too, compressed once: the very page, for every browser that accepts gzip.
      expect(gunzipSync(page.gzipped!).toString('utf8')).toBe(page.body);
    } finally {
      await own.close();
    }
  });

  it('refuses a render that failed, and one that cannot be served with hashes', async () => {
    for (const [status, body, error] of [
      [500, '<html>error</html>', /HTTP 500/],
      [200, '<script src="/a.js"></script>', UnhashablePage],
    ] as const) {
      const own = await server((response) => response.writeHead(status, { 'content-type': 'text/html' }).end(body));
      try {
        await expect(sharedRenderer(context(own.origin))(english)).rejects.toThrow(error);
      } finally {
        await own.close();
      }
    }
  });

  it('renders it for one request with the policy and nonce it came with; refuses one without a policy', async () => {
    const policy = "default-src 'self'; script-src 'self' 'nonce-abc' 'strict-dynamic'";
    const own = await server((response) => response.writeHead(200, { 'content-type': 'text/html', 'content-security-policy': policy }).end('<script nonce="abc">x()</script>'));
    try {
      const page = await renderForRequest(english, context(own.origin));
      expect(page).toMatchObject({ status: 200, body: '<script nonce="abc">x()</script>', headers: { 'content-security-policy': policy } });
      expect(own.asked[0]!.headers['x-idv-shared-render']).toBeUndefined();
    } finally {
      await own.close();
    }
    const unguarded = await server((response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<script>x()</script>'));
    try {
      await expect(renderForRequest(english, context(unguarded.origin))).rejects.toThrow('without a Content-Security-Policy');
    } finally {
      await unguarded.close();
    }
  });
});
