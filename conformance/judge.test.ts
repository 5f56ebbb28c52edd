import { describe, expect, it } from 'vitest';
import { BASELINE_CASE, CASES, CLOSING_CASE, type ConformanceCase } from './cases';
import { judge, type Observation } from './judge';

const byId = (id: string): ConformanceCase => CASES.find((testCase) => testCase.id === id)!;

/** What the kit sees when the relying party ended on its result page, with every case fault applied. */
function seen(testCase: ConformanceCase, more: Partial<Observation> = {}): Observation {
  return {
    reachedService: true,
    finalUrl: 'http://127.0.0.1:8000/callback?code=x',
    canarySeen: false,
    serverErrors: [],
    pictureUses: [],
    flowSeen: true,
    applied: [...testCase.faults],
    jwksFetches: 0,
    ...more,
  };
}

describe('judge', () => {
  const wrongNonce = byId('wrong_nonce');

  it('passes a refusal case when the canary never appears and nothing answered 5xx', () => {
    expect(judge(wrongNonce, seen(wrongNonce))).toEqual({ status: 'pass', reason: expect.stringMatching(/^Refused, without a server error/) });
  });

  it('fails a refusal case when the canary appears: the relying party accepted a spoiled token', () => {
    const verdict = judge(wrongNonce, seen(wrongNonce, { canarySeen: true }));
    expect(verdict.status).toBe('fail');
    expect(verdict.reason).toContain('Accepted what it must refuse');
    expect(verdict.reason).toContain(wrongNonce.what);
  });

  it('fails a refusal case when the relying party answered 5xx, even though it refused', () => {
    const verdict = judge(
      wrongNonce,
      seen(wrongNonce, {
        serverErrors: [
          { status: 500, url: 'http://127.0.0.1:8000/callback' },
          { status: 502, url: 'http://127.0.0.1:8000/x' },
        ],
      }),
    );
    expect(verdict).toEqual({ status: 'fail', reason: expect.stringContaining('crashed: it answered 500 at http://127.0.0.1:8000/callback (and 1 more 5xx)') });
  });

  it('says a flow the QA API could not read is unknown, not that the fault was left out', () => {
    const unread = 'the emulator answered reading the flow with 429 temporarily_unavailable';
    const verdict = judge(wrongNonce, seen(wrongNonce, { applied: [], flowSeen: false, flowUnread: unread }));
    expect(verdict.status).toBe('error');
    expect(verdict.reason).toContain(`could not say what it did to this flow (${unread}), so whether its fault was applied is unknown`);
    expect(verdict.reason).not.toContain('did not apply');
  });

  it('fails a case whose page the relying party dropped (the browser shows its own error page), though its fault was never applied', () => {
    const dropped = { url: 'http://127.0.0.1:8000/callback?code=x', errorText: 'net::ERR_EMPTY_RESPONSE', relyingParty: true };
    expect(judge(wrongNonce, seen(wrongNonce, { applied: [], finalUrl: 'chrome-error://chromewebdata/', browserFailure: dropped }))).toEqual({
      status: 'fail',
      reason:
        'The relying party did not answer the browser: loading http://127.0.0.1:8000/callback?code=x failed with net::ERR_EMPTY_RESPONSE. A failure must be answered with a page that explains it.',
    });
  });

  it('cannot decide a case whose page elsewhere the browser could not load, and says so rather than that the fault was not applied', () => {
    const refused = { url: 'http://127.0.0.1:9/auth?x', errorText: 'net::ERR_CONNECTION_REFUSED', relyingParty: false };
    expect(judge(wrongNonce, seen(wrongNonce, { applied: [], finalUrl: 'chrome-error://chromewebdata/', browserFailure: refused }))).toEqual({
      status: 'error',
      reason: 'The browser could not load http://127.0.0.1:9/auth?x (net::ERR_CONNECTION_REFUSED), so the case could not be driven to its end.',
    });
  });

  it('fails a case when the relying party never answered', () => {
    expect(judge(byId('token_timeout'), seen(byId('token_timeout'), { hung: 'The relying party did not answer within 60 s' }))).toEqual({
      status: 'fail',
      reason: 'The relying party did not answer within 60 s',
    });
  });

  it('passes an acceptance case when the canary appears, and fails it when it does not', () => {
    const aud = byId('aud_array');
    expect(judge(aud, seen(aud, { canarySeen: true })).status).toBe('pass');
    const refused = judge(aud, seen(aud));
    expect(refused.status).toBe('fail');
    expect(refused.reason).toContain('Refused a verification it must accept');
  });

  it('says a relying party that refused a rotated key did not fetch the JWKS again, when it did not', () => {
    const rotated = byId('key_rotated_unpublished');
    expect(judge(rotated, seen(rotated)).reason).toContain('did not fetch the JWKS for the new kid');
    expect(judge(rotated, seen(rotated, { jwksFetches: 1 })).reason).not.toContain('did not fetch');
    expect(judge(rotated, seen(rotated, { canarySeen: true, jwksFetches: 2 })).reason).toContain('fetched the JWKS 2 times');
  });

  describe('a refused normal verification', () => {
    const facts: Partial<Observation> = {
      startControl: 'button "Try it"',
      startPageUrl: 'http://127.0.0.1:8000/',
      finalUrl: 'http://127.0.0.1:8000/failure?code=id_token_invalid',
      finalTitle: 'Verification failed',
      finalText: 'The ID token could not be checked.',
    };

    it('says what the kit pressed, where, and the page it ended on, by its URL, title and text', () => {
      for (const testCase of [BASELINE_CASE, CLOSING_CASE]) {
        expect(judge(testCase, seen(testCase, facts))).toEqual({
          status: 'fail',
          reason:
            'Refused a verification it must accept: the kit pressed button "Try it" on http://127.0.0.1:8000/ and ended on ' +
            'http://127.0.0.1:8000/failure?code=id_token_invalid ("Verification failed": The ID token could not be checked.); the verified given name never appears there.',
        });
      }
    });

    it('gives the page as far as it is known: without a title, its text alone; without either, its URL', () => {
      expect(judge(BASELINE_CASE, seen(BASELINE_CASE, { ...facts, finalTitle: undefined })).reason).toContain(
        'failure?code=id_token_invalid (The ID token could not be checked.);',
      );
      expect(judge(BASELINE_CASE, seen(BASELINE_CASE, { finalUrl: 'http://127.0.0.1:8000/x' })).reason).toBe(
        'Refused a verification it must accept: it ended on http://127.0.0.1:8000/x; the verified given name never appears there.',
      );
    });

    it('says the relying party did not request given_name only when its pushed authorization request shows it', () => {
      const without = judge(BASELINE_CASE, seen(BASELINE_CASE, { ...facts, requestedClaims: ['family_name', 'birthdate'] })).reason;
      expect(without).toContain('did not ask for given_name (it asked for family_name, birthdate)');
      expect(judge(BASELINE_CASE, seen(BASELINE_CASE, { ...facts, requestedClaims: [] })).reason).toContain('(it asked for no verified claims)');
      for (const requestedClaims of [['given_name', 'family_name'], undefined]) {
        const reason = judge(BASELINE_CASE, seen(BASELINE_CASE, { ...facts, ...(requestedClaims ? { requestedClaims } : {}) })).reason;
        expect(reason).not.toContain('given_name');
        expect(reason).not.toContain('Does its page show');
      }
    });
  });

  it('says what the kit pressed when the relying party never called the service', () => {
    const verdict = judge(
      wrongNonce,
      seen(wrongNonce, {
        applied: [],
        reachedService: false,
        flowSeen: false,
        startControl: 'submit button "Use preset"',
        startPageUrl: 'http://127.0.0.1:8000/',
        finalUrl: 'http://127.0.0.1:8000/?preset=a',
        finalTitle: 'Home',
      }),
    );
    expect(verdict).toEqual({
      status: 'error',
      reason:
        'The relying party never sent the service a pushed authorization request (the emulator saw none): the kit pressed submit button "Use preset" on http://127.0.0.1:8000/ ' +
        'and ended on http://127.0.0.1:8000/?preset=a ("Home"). If that is not its start control, name it with --start-selector; else check --start-url.',
    });
  });

  it('cannot decide a case whose fault the emulator did not apply', () => {
    const verdict = judge(wrongNonce, seen(wrongNonce, { applied: [], canarySeen: false }));
    expect(verdict.status).toBe('error');
    expect(verdict.reason).toContain("did not apply 'wrong_nonce'");
  });

  it('cannot decide a JWKS variant applied without its key rotation', () => {
    const shuffled = byId('jwks_keys_shuffled');
    expect(judge(shuffled, seen(shuffled, { applied: ['jwks_keys_shuffled'], canarySeen: true })).status).toBe('error');
  });

  it('says when the relying party never called the service, instead of blaming the fault', () => {
    const verdict = judge(wrongNonce, seen(wrongNonce, { applied: [], reachedService: false, flowSeen: false, finalUrl: 'http://127.0.0.1:8000/' }));
    expect(verdict).toEqual({
      status: 'error',
      reason: expect.stringContaining('never sent the service a pushed authorization request (the emulator saw none), and ended on http://127.0.0.1:8000/'),
    });
    const par = CASES.find((testCase) => testCase.id === 'par_server_error')!;
    expect(judge(par, seen(par, { applied: [], reachedService: false, flowSeen: false })).reason).toContain(
      'never sent the service a pushed authorization request',
    );
  });

  it('says when the relying party stopped after its pushed authorization request', () => {
    const verdict = judge(wrongNonce, seen(wrongNonce, { applied: [], reachedService: false, flowSeen: true }));
    expect(verdict).toEqual({ status: 'error', reason: expect.stringContaining('stopped after its pushed authorization request') });
  });

  it('reports what went wrong driving the case before anything else', () => {
    expect(judge(wrongNonce, seen(wrongNonce, { driverError: 'no start control', canarySeen: true }))).toEqual({ status: 'error', reason: 'no start control' });
  });

  describe('a picture that is not an image', () => {
    const picture = byId('picture_not_image');

    it('passes when neither page nor browser used it, whether or not the verification completed', () => {
      expect(judge(picture, seen(picture, { canarySeen: true })).reason).toContain('completed the verification without it');
      expect(judge(picture, seen(picture, { canarySeen: false })).reason).toContain('refused the verification');
      expect(judge(picture, seen(picture)).status).toBe('pass');
    });

    it('fails when the page refers to it or the browser fetched it', () => {
      const verdict = judge(picture, seen(picture, { canarySeen: true, pictureUses: ['<img src="https://portrait.invalid/portrait.jpg">'] }));
      expect(verdict.status).toBe('fail');
      expect(verdict.reason).toContain('<img src="https://portrait.invalid/portrait.jpg">');
    });

    it('does not apply to a relying party that did not request picture', () => {
      expect(judge(picture, seen(picture, { applied: [], requestedClaims: ['given_name'] }))).toEqual({
        status: 'not_applicable',
        reason: 'The relying party did not request picture, so no picture could be spoiled.',
      });
      expect(judge(picture, seen(picture, { applied: [], requestedClaims: ['given_name', 'picture'] })).status).toBe('error');
      expect(judge(picture, seen(picture, { applied: [] })).status).toBe('error');
    });
  });
});
