/**
 * Loads @peculiar/x509 for the signing certificates of spec 2.7 (`x5c`). The library resolves its
 * algorithms through tsyringe, which needs the Reflect metadata API, so `reflect-metadata` is
 * loaded first.
 * @see spec 2.7
 */
type X509Module = typeof import('@peculiar/x509');

let loaded: Promise<X509Module> | undefined;

/** @peculiar/x509, ready to use with the platform's WebCrypto. @see spec 2.7 */
export function loadX509(): Promise<X509Module> {
  loaded ??= (async () => {
    await import('reflect-metadata');
    const x509 = await import('@peculiar/x509');
    x509.cryptoProvider.set(globalThis.crypto);
    return x509;
  })();
  return loaded;
}
