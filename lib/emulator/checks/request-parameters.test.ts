import { describe, expect, it } from 'vitest';
import { isCodeChallenge, isCodeVerifier } from './pkce';
import { onlyListedParameters, queryParameters, readFormBody, RequestParameters } from './request-parameters';

const FORM = 'application/x-www-form-urlencoded';

/** A request whose body arrives in the given chunks, as a slow client's would. */
function chunked(chunks: string[], headers: Record<string, string> = { 'content-type': FORM }): Request {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  return new Request('https://idv.example/par', { method: 'POST', body, headers, duplex: 'half' } as RequestInit);
}

describe('readFormBody', () => {
  it('reassembles a body that arrives in several chunks, in order', async () => {
    const parameters = await readFormBody(chunked(['client_id=cli', 'ent-1&req', 'uest=abc.def', '.ghi']));
    expect(parameters.get('client_id')).toBe('client-1');
    expect(parameters.get('request')).toBe('abc.def.ghi');
  });

  it('takes a body of exactly the limit, and refuses one byte more, declared or streamed', async () => {
    await expect(readFormBody(chunked(['a=', '1234567']), 9)).resolves.toBeDefined();
    await expect(readFormBody(chunked(['a=', '12345678']), 9)).rejects.toMatchObject({ status: 413 });
    await expect(readFormBody(chunked(['a=1'], { 'content-type': FORM, 'content-length': '10' }), 9)).rejects.toMatchObject({ status: 413 });
    await expect(readFormBody(chunked(['a=1'], { 'content-type': FORM, 'content-length': '9' }), 9)).resolves.toBeDefined();
  });

  it('takes a charset parameter of utf-8 however it is quoted or spaced, and refuses another', async () => {
    for (const type of [`${FORM}; charset=utf-8`, `${FORM};charset="utf-8"`, `${FORM} ; Charset = UTF-8`, `${FORM}; boundary=x`]) {
      await expect(readFormBody(chunked(['a=1'], { 'content-type': type })), type).resolves.toBeDefined();
    }
    await expect(readFormBody(chunked(['a=1'], { 'content-type': `${FORM}; charset=latin1` }))).rejects.toThrow(/UTF-8/);
  });
});

describe('RequestParameters', () => {
  it('treats a parameter sent without a value as absent, for get, has and names', () => {
    const parameters = RequestParameters.from(new URLSearchParams('a=1&b=&c'));
    expect(parameters.get('a')).toBe('1');
    expect(parameters.get('b')).toBeUndefined();
    expect(parameters.has('b')).toBe(false);
    expect(parameters.names()).toEqual(['a']);
    expect(() => parameters.require('b')).toThrow("required parameter 'b' is empty");
    expect(() => parameters.require('d')).toThrow("required parameter 'd' is missing");
  });

  it('refuses a repeated parameter, in a query too', () => {
    expect(() => queryParameters(new URL('https://idv.example/auth?a=1&a=2'))).toThrow(/included more than once/);
  });

  it('at the strict level, an empty unlisted parameter counts as omitted; a listed set passes', () => {
    expect(() => onlyListedParameters(RequestParameters.from(new URLSearchParams('a=1&extra=')), ['a'], '4.1')).not.toThrow();
    expect(() => onlyListedParameters(RequestParameters.from(new URLSearchParams('a=1')), ['a', 'b'], '4.1')).not.toThrow();
    expect(() => onlyListedParameters(RequestParameters.from(new URLSearchParams('a=1&extra=2')), ['a'], '4.1')).toThrow(/unexpected parameter/);
  });
});

describe('PKCE shapes', () => {
  it('a challenge is exactly 43 base64url characters: not 42, not 44, nothing around it', () => {
    const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
    expect(isCodeChallenge(challenge)).toBe(true);
    for (const bad of [challenge.slice(1), `${challenge}A`, `=${challenge}`, `${challenge}=`, `${challenge.slice(0, 42)}+`]) {
      expect(isCodeChallenge(bad), bad).toBe(false);
    }
  });

  it('a verifier is 43 to 128 unreserved characters', () => {
    expect(isCodeVerifier('a'.repeat(43))).toBe(true);
    expect(isCodeVerifier('a'.repeat(128))).toBe(true);
    expect(isCodeVerifier('a'.repeat(42))).toBe(false);
    expect(isCodeVerifier('a'.repeat(129))).toBe(false);
    expect(isCodeVerifier(`${'a'.repeat(43)} `)).toBe(false);
  });
});
