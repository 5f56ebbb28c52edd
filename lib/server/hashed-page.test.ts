import { createHash } from 'node:crypto';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { hashPage, insertingScript, scriptHash, UnhashablePage } from './hashed-page';

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

describe('a page made to be served with hashes instead of a nonce', () => {
  it('hashes each inline script’s text as a browser does (its UTF-8 bytes), and leaves the script as it was', () => {
    const html = '<head><script id="_R_">self.a=1</script></head><body><script>self.b="ø—€"</script></body>';
    const { html: hashed, scriptHashes } = hashPage(html);
    expect(hashed).toBe(html);
    expect(scriptHashes).toEqual([sha256('self.a=1'), sha256('self.b="ø—€"')]);
    expect(scriptHash('')).toBe("'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='");
  });

  it('replaces an async external script, where it stands, by a hashed inline one that inserts it', () => {
    const html = '<head><link rel="x"/><script src="/_next/static/chunks/a.js" async=""></script><title>t</title></head>';
    const { html: hashed, scriptHashes } = hashPage(html);
    const inserting = insertingScript('/_next/static/chunks/a.js');
    expect(hashed).toBe(`<head><link rel="x"/><script>${inserting}</script><title>t</title></head>`);
    expect(scriptHashes).toEqual([sha256(inserting)]);
    expect(inserting).toContain('e.src="/_next/static/chunks/a.js"');
    expect(inserting).toContain('e.async=true');
    expect(hashed).not.toMatch(/<script[^>]*src=/);
  });

  it('keeps the document’s order of scripts and hashes', () => {
    const html = '<script src="/one.js" async></script><script>two()</script><script async src=\'/three.js\'></script>';
    const { scriptHashes } = hashPage(html);
    expect(scriptHashes).toEqual([sha256(insertingScript('/one.js')), sha256('two()'), sha256(insertingScript('/three.js'))]);
  });

  it('drops a nomodule script: every supported browser runs modules and skips it', () => {
    const { html, scriptHashes } = hashPage('<script src="/_next/polyfills.js" noModule=""></script><p>x</p>');
    expect(html).toBe('<p>x</p>');
    expect(scriptHashes).toEqual([]);
  });

  it('drops a script’s preload, which only a nonce could allow, and keeps a style’s', () => {
    const html = '<link rel="stylesheet" href="/a.css" data-precedence="next"/><link rel="preload" as="script" fetchPriority="low" href="/b.js"/><link rel="modulepreload" href="/c.js"><link rel="preload" as="style" href="/a.css"/>';
    expect(hashPage(html).html).toBe('<link rel="stylesheet" href="/a.css" data-precedence="next"/><link rel="preload" as="style" href="/a.css"/>');
  });

  it('ends a script’s text where the HTML parser ends it', () => {
    const { scriptHashes } = hashPage('<script>a()</script ><script>b()</SCRIPT>');
    expect(scriptHashes).toEqual([sha256('a()'), sha256('b()')]);
  });

  it('inserts, run, exactly the script it replaced, async, right after itself', () => {
    for (const src of ['/_next/static/chunks/a.js', '/x</script><script>alert(1)//', '/quote"and\\backslash.js']) {
      const inserted: { src?: string; async?: boolean }[] = [];
      const self = { parentNode: { insertBefore: (element: object, next: unknown) => inserted.push({ ...element, next } as never) }, nextSibling: 'next' };
      runInNewContext(insertingScript(src), { document: { currentScript: self, createElement: (tag: string) => ({ tag }) } });
      expect(inserted).toEqual([{ tag: 'script', src, async: true, next: 'next' }]);
      // Written so that no URL can end the script it is in.
      expect(insertingScript(src)).not.toContain('</script');
    }
  });

  it('reads attributes as the HTML parser does: quoted either way, bare, or with spaces around the equals sign', () => {
    const html = '<script src=/a.js async></script><script async src = "/b.js"></script><script src=\'/c.js\' async=""> </script>';
    expect(hashPage(html).scriptHashes).toEqual(['/a.js', '/b.js', '/c.js'].map((src) => sha256(insertingScript(src))));
  });

  it('keeps a link that preloads no script: a stylesheet, a font without `as`, a prefetch, one without rel', () => {
    const html = '<link href="/x"/><link rel="preload" href="/font.woff2"/><link rel="prefetch" as="script" href="/later.js"/><link rel="icon" href="/icon.svg"/>';
    expect(hashPage(html).html).toBe(html);
  });

  it.each([
    ['a script that is not async (inserted, it would run at another time)', '<script src="/a.js"></script>', /not async/],
    ['a script from another origin', '<script src="https://cdn.example/a.js" async></script>', /not a path of this origin/],
    ['a protocol-relative script', '<script src="//cdn.example/a.js" async></script>', /not a path of this origin/],
    ['a script with a nonce', '<script nonce="abc">x()</script>', /nonce/],
    ['an external script with a nonce', '<script src="/a.js" async nonce="abc"></script>', /nonce/],
    ['a module script', '<script type="module" src="/a.js" async></script>', /type/],
    ['a script with other attributes, each named', '<script src="/a.js" async defer crossorigin></script>', /a script has defer, crossorigin/],
    ['an inline script with other attributes, each named', '<script type="text/x" data-x="1">x()</script>', /an inline script has type, data-x/],
    ['a script whose path has a space or a quote', '<script src="/a.js x" async></script>', /not a path of this origin/],
    ['an element with a nonce written with spaces', '<link rel="stylesheet" href="/a.css" nonce = "abc"/>', /nonce/],
    ['an inline script of another type', '<script type="application/ld+json">{}</script>', /type/],
    ['a script with both a src and a text', '<script src="/a.js" async>x()</script>', /both a src and a text/],
    ['a repeated attribute', '<script src="/a.js" src="/b.js" async></script>', /repeats/],
    ['a script that is not closed', '<p></p><script>x()', /not closed/],
    ['another element that carries a nonce', '<link rel="stylesheet" href="/a.css" nonce="abc"/>', /nonce/],
  ])('refuses %s', (_what, html, reason) => {
    expect(() => hashPage(html)).toThrow(UnhashablePage);
    expect(() => hashPage(html)).toThrow(reason);
  });

  it('does not mistake the word nonce in the text for an attribute', () => {
    expect(() => hashPage('<p>the request object has a nonce = a random value</p>')).not.toThrow();
  });
});
