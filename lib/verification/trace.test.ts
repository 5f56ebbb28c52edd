import { describe, expect, it } from 'vitest';
import type { TraceEvent } from '@/lib/oidc/trace';
import { isMaskedSecret, maskSecret, recordComparison, recordTrace } from './trace';

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const state = 's'.repeat(43);
const nonce = 'n'.repeat(43);
const code = 'c'.repeat(40);
const verifier = 'v'.repeat(43);
const signature = 'g'.repeat(86);
const request = `${b64({ alg: 'ES256', kid: 'k1', typ: 'JWT' })}.${b64({ iss: 'c', state, nonce })}.${signature}`;
const assertion = `${b64({ alg: 'ES256', kid: 'k1', typ: 'JWT' })}.${b64({ iss: 'c', sub: 'c', aud: 'https://idv.example', exp: 1 })}.${'a'.repeat(86)}`;

/** One flow's exchanges as the core records them: every secret of the protocol in the clear. */
const events: TraceEvent[] = [
  {
    type: 'http',
    step: 'par',
    method: 'POST',
    url: 'https://idv.example/par',
    requestForm: { client_id: 'c', client_assertion: assertion, request },
    status: 201,
    responseBody: '{"request_uri":"urn:x","expires_in":600}',
    startedAt: 0,
    durationMs: 3,
  },
  { type: 'note', step: 'callback', at: 1, detail: { parameters: { code, state, iss: 'https://idv.example' } } },
  {
    type: 'http',
    step: 'token',
    method: 'POST',
    url: 'https://idv.example/token',
    requestForm: { grant_type: 'authorization_code', code, code_verifier: verifier, client_assertion: assertion },
    status: 200,
    responseHeaders: { 'content-type': 'application/json' },
    responseBody: JSON.stringify({
      id_token: `${b64({ alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: 'e1' })}.k.i.c.t`,
      access_token: 'secret-access-token-1234',
      expires_in: 60,
    }),
    startedAt: 2,
    durationMs: 12,
  },
  {
    type: 'note',
    step: 'id_token',
    at: 3,
    detail: {
      jweHeader: { alg: 'RSA-OAEP-256' },
      jwsHeader: { kid: 's1' },
      payload: { nonce, sub: 'p1' },
      signingKey: { kid: 's1', kty: 'EC', crv: 'P-256', x: 'xx', y: 'yy', x5c: ['MIIB'] },
    },
  },
];

describe('the trace as a result or a failure keeps it', () => {
  const kept = recordTrace(events);
  const text = JSON.stringify(kept);

  it('holds none of the protocol’s secrets: codes, verifiers, state, nonce, tokens, signatures, a JWT as sent', () => {
    for (const secret of [state, nonce, code, verifier, signature, 'secret-access-token-1234', request, assertion, 'k.i.c.t'])
      expect(text).not.toContain(secret);
    expect(kept[1]).toMatchObject({ detail: { parameters: { code: maskSecret(code), state: maskSecret(state), iss: 'https://idv.example' } } });
    expect(kept[2]).toMatchObject({ requestForm: { grant_type: 'authorization_code', code: maskSecret(code), code_verifier: maskSecret(verifier) } });
  });

  it('holds facts, not words: JWTs decoded, the ID token summarised, the signing key named but not its material', () => {
    expect(kept[0]).toMatchObject({
      requestForm: { request: { header: { kid: 'k1' }, payload: { iss: 'c', state: maskSecret(state) }, signature: maskSecret(signature) } },
      response: { json: { request_uri: 'urn:x', expires_in: 600 } },
    });
    expect(kept[2]).toMatchObject({
      idToken: { parts: 5, length: expect.any(Number), header: { alg: 'RSA-OAEP-256', kid: 'e1' } },
      response: { json: { expires_in: 60 } },
    });
    expect(kept[2]).not.toHaveProperty('responseBody');
    expect(kept[3]).toMatchObject({ detail: { payload: { nonce: maskSecret(nonce), sub: 'p1' }, signingKey: { kid: 's1', kty: 'EC', crv: 'P-256' } } });
    expect(text).not.toContain('MIIB');
    expect(text).not.toMatch(/characters|decoded below|Form parameters/);
  });

  it('keeps a body that is not JSON as text, cut at 2,000 characters, and a JWT that does not decode as a masked secret', () => {
    const [html, broken] = recordTrace([
      {
        type: 'http',
        step: 'par',
        method: 'POST',
        url: 'https://idv.example/par',
        status: 502,
        responseBody: `<html>${'x'.repeat(3000)}`,
        startedAt: 0,
        durationMs: 1,
      },
      {
        type: 'http',
        step: 'par',
        method: 'POST',
        url: 'https://idv.example/par',
        requestForm: { request: 'not-a-jwt-at-all' },
        startedAt: 0,
        durationMs: 1,
        error: 'TimeoutError',
      },
    ]);
    expect(html).toMatchObject({ response: { text: expect.stringMatching(/^<html>x+$/) } });
    expect((html as { response: { text: string } }).response.text).toHaveLength(2000);
    expect(broken).toMatchObject({ requestForm: { request: maskSecret('not-a-jwt-at-all') }, error: 'TimeoutError' });
  });

  it('masks a secret to its first six characters when it is longer than eight, else to its length alone', () => {
    expect(maskSecret('0123456789')).toEqual({ masked: '012345', length: 10 });
    expect(maskSecret('01234567')).toEqual({ masked: '', length: 8 });
    expect(isMaskedSecret(maskSecret('x'))).toBe(true);
    expect(isMaskedSecret({ masked: 'x', length: 1, more: true })).toBe(false);
    expect(isMaskedSecret('x')).toBe(false);
  });
});

describe('the ID token’s checks as a trace keeps them', () => {
  it('keeps each check’s verdict and values, the nonce masked on both sides, a hostile long value cut', () => {
    const theirs = 'm'.repeat(43);
    const kept = recordTrace([
      { type: 'check', step: 'id_token', at: 5, check: 'nonce', passed: false, code: 'id_token_nonce_mismatch', expected: nonce, received: theirs },
      {
        type: 'check',
        step: 'id_token',
        at: 6,
        check: 'iss',
        passed: false,
        code: 'id_token_issuer_mismatch',
        expected: 'https://idv.example',
        received: 'x'.repeat(10_000),
      },
      {
        type: 'check',
        step: 'id_token',
        at: 7,
        check: 'exp',
        passed: true,
        received: 1764000000,
        detail: { now: 1763999000, toleranceSeconds: 30, limit: 1763998970 },
      },
    ]);
    expect(JSON.stringify(kept)).not.toContain(nonce);
    expect(JSON.stringify(kept)).not.toContain(theirs);
    expect(kept[0]).toMatchObject({ type: 'check', check: 'nonce', passed: false, expected: maskSecret(nonce), received: maskSecret(theirs) });
    expect(kept[1]).toMatchObject({ expected: 'https://idv.example', received: `${'x'.repeat(500)}… (10000)` });
    expect(kept[2]).toEqual({
      type: 'check',
      step: 'id_token',
      at: 7,
      check: 'exp',
      passed: true,
      received: 1764000000,
      detail: { now: 1763999000, toleranceSeconds: 30, limit: 1763998970 },
    });
    const published = Array.from({ length: 2000 }, (_, index) => `kid-${index}`);
    const [unknownKid] = recordTrace([{ type: 'check', step: 'id_token', at: 8, check: 'signing_key', passed: false, expected: 'x', detail: { published } }]);
    expect(JSON.stringify(unknownKid).length).toBeLessThan(1000);
  });

  it('keeps what a failure compared, a secret masked, nothing when the cause names nothing', () => {
    expect(recordComparison({ claim: 'iss', expected: 'https://idv.example', actual: 'https://impostor.invalid' })).toEqual({
      claim: 'iss',
      expected: 'https://idv.example',
      received: 'https://impostor.invalid',
    });
    expect(recordComparison({ claim: 'state', expected: state, actual: 'z'.repeat(43) })).toEqual({
      claim: 'state',
      expected: maskSecret(state),
      received: maskSecret('z'.repeat(43)),
    });
    expect(recordComparison({ claim: 'kid' })).toBeUndefined();
  });
});
