import { afterEach, describe, expect, it, vi } from 'vitest';
import { FRESH_MS, HomePages, ownOrigin, type HomeVariant, type ServedPage } from './home-page';
import { UnhashablePage } from './hashed-page';

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
