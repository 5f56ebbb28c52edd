import { describe, expect, it } from 'vitest';
import type { TraceEvent } from '@/lib/oidc/trace';
import type { Locale } from '@/lib/i18n/locale';
import type { CertificateSummary } from '@/lib/verification/signing-certificate';
import { maskSecret, recordTrace } from '@/lib/verification/trace';
import { discloseTrace } from './disclosure';
import { maskPersonal } from './masking';
import { TRACE_MESSAGES } from './trace-messages';
import { describeSecret, presentTrace, shortenPortraits, traceSummary, type TraceEntryView } from './trace-view';

/** A flow's events as the core records them, kept (lib/verification/trace.ts), then read in `locale`. */
const present = (events: TraceEvent[], { locale = 'en', certificate }: { locale?: Locale; certificate?: CertificateSummary } = {}) =>
  presentTrace(recordTrace(events), { locale, certificate });
/** The trace as it leaves the server, its numbers masked unless `reveal`. */
const maskTrace = (entries: TraceEntryView[], reveal: boolean) => discloseTrace(entries, { numbersRevealed: reveal, presenter: false });
const worded = (secret: string) => describeSecret(maskSecret(secret));

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const assertion = `${b64({ alg: 'ES256', kid: 'k1', typ: 'JWT' })}.${b64({ iss: 'c', sub: 'c', aud: 'https://idv.example', exp: 1 })}.${'s'.repeat(86)}`;

describe('presentTrace', () => {
  it('masks state and nonce in the decoded request object as it masks them as form fields', () => {
    const state = 's'.repeat(43);
    const nonce = 'n'.repeat(43);
    const request = `${b64({ alg: 'ES256', kid: 'k1', typ: 'JWT' })}.${b64({ iss: 'c', state, nonce, code_challenge: 'x'.repeat(43) })}.${'g'.repeat(86)}`;
    const [entry] = present([
      {
        type: 'http',
        step: 'par',
        method: 'POST',
        url: 'https://idv.example/par',
        requestForm: { client_id: 'c', request },
        status: 201,
        responseBody: '{}',
        startedAt: 0,
        durationMs: 1,
      },
    ]);
    const text = JSON.stringify(entry);
    expect(text).not.toContain(state);
    expect(text).not.toContain(nonce);
    const payload = entry!.sections.find((section) => section.label === 'Request object: payload')!.content;
    expect(payload).toContain(`"state": "${worded(state)}"`);
    expect(payload).toContain(`"nonce": "${worded(nonce)}"`);
    expect(payload).toContain('x'.repeat(43)); // not a secret: a hash of the verifier
  });

  it('masks the personal number a register lookup asks for in the request object, unless revealed', () => {
    const claims = {
      id_token: { verified_claims: { verification: { evidence: [{ type: { value: 'electronic_record' }, record: { personal_number: '14038726421' } }] } } },
    };
    const request = `${b64({ alg: 'ES256', kid: 'k1', typ: 'JWT' })}.${b64({ iss: 'c', claims })}.${'g'.repeat(86)}`;
    const stored = present([
      {
        type: 'http',
        step: 'par',
        method: 'POST',
        url: 'https://idv.example/par',
        requestForm: { client_id: 'c', request },
        status: 201,
        responseBody: '{}',
        startedAt: 0,
        durationMs: 1,
      },
    ]);
    const payloadOf = (entries: ReturnType<typeof maskTrace>) => entries[0]!.sections.find((section) => section.label === 'Request object: payload')!.content;
    expect(payloadOf(maskTrace(stored, false))).toContain(`"personal_number": "${maskPersonal('14038726421')}"`);
    expect(payloadOf(maskTrace(stored, true))).toContain('"personal_number": "14038726421"');
  });

  it('masks the nonce of the ID token for good, and its national identity and document numbers on the way out, as the cards do', () => {
    const nonce = 'n'.repeat(43);
    const payload = {
      nonce,
      verified_claims: {
        verification: {
          evidence: [{ type: 'document', document_details: { document_number: 'NP1234567', personal_number: { type: 'no-fnr', value: '01017012345' } } }],
        },
        claims: { name: 'Ingrid' },
      },
    };
    const stored = present([{ type: 'note', step: 'id_token', at: 0, detail: { jweHeader: {}, jwsHeader: {}, payload } }]);
    expect(JSON.stringify(stored)).not.toContain(nonce);

    const payloadOf = (entries: ReturnType<typeof maskTrace>) => entries[0]!.sections.find((section) => section.label === 'Signed ID token: payload')!;
    const masked = payloadOf(maskTrace(stored, false));
    expect(masked.content).not.toContain('01017012345');
    expect(masked.content).not.toContain('NP1234567');
    expect(masked.content).toContain(`"value": "${maskPersonal('01017012345')}"`);
    expect(masked.content).toContain(`"document_number": "${maskPersonal('NP1234567')}"`);
    expect(masked).not.toHaveProperty('personal');

    const revealed = payloadOf(maskTrace(stored, true));
    expect(revealed.content).toContain('"value": "01017012345"');
    expect(revealed.content).toContain('"document_number": "NP1234567"');
    expect(revealed.content).not.toContain(nonce);
    expect(revealed).not.toHaveProperty('personal');
  });

  it('decodes the client assertion and request object and masks code, verifier and signatures', () => {
    const events: TraceEvent[] = [
      {
        type: 'http',
        step: 'token',
        method: 'POST',
        url: 'https://idv.example/token',
        requestForm: { client_id: 'c', client_assertion: assertion, code: 'abcdefghijklmnopqrstuvwxyz', code_verifier: 'v'.repeat(43) },
        status: 200,
        responseBody: JSON.stringify({ id_token: `${b64({ alg: 'RSA-OAEP-256', enc: 'A256GCM' })}.a.b.c.d`, expires_in: 3600 }),
        startedAt: 0,
        durationMs: 12,
      },
    ];
    const [entry] = present(events);
    const text = JSON.stringify(entry);
    expect(text).not.toContain('abcdefghijklmnopqrstuvwxyz');
    expect(text).not.toContain('v'.repeat(43));
    expect(text).not.toContain('s'.repeat(86));
    expect(entry?.sections.map((s) => s.label)).toEqual([
      'Form parameters sent',
      'Client assertion: header',
      'Client assertion: payload',
      'Response body',
      'ID token: JWE header',
    ]);
    expect(entry?.sections[2]?.content).toContain('"aud": "https://idv.example"');
    expect(entry?.sections[4]?.content).toContain('RSA-OAEP-256');
  });

  it('shows a response body nested too deeply to print as not displayable, rather than throw', () => {
    const nested = `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`;
    const events: TraceEvent[] = [
      {
        type: 'http',
        step: 'par',
        method: 'POST',
        url: 'https://idv.example/par',
        status: 400,
        responseBody: `{"error":"invalid_request","x":${nested}}`,
        startedAt: 0,
        durationMs: 1,
      },
    ];
    const [entry] = present(events);
    expect(entry?.sections).toEqual([{ label: 'Response body', content: '(not displayable: nested too deeply)' }]);
  });

  it('masks the code and state of the callback', () => {
    const [entry] = present([
      { type: 'note', step: 'callback', at: 0, detail: { parameters: { code: 'c'.repeat(40), state: 't'.repeat(43), iss: 'https://idv.example' } } },
    ]);
    expect(entry?.sections[0]?.content).not.toContain('c'.repeat(40));
    expect(entry?.sections[0]?.content).toContain('https://idv.example');
  });

  it('shortens the portrait and describes the signing certificate', () => {
    const picture = `data:image/jpeg;base64,${'A'.repeat(5000)}`;
    const [entry] = present(
      [
        {
          type: 'note',
          step: 'id_token',
          at: 0,
          detail: { jweHeader: {}, jwsHeader: { kid: 'k' }, payload: { verified_claims: { claims: { picture } } }, signingKey: { x5c: ['MIIB'] } },
        },
      ],
      { certificate: { subject: 'CN=Signer', issuer: 'CN=CA', serialNumber: 'k', notBefore: '', notAfter: '', sha256Fingerprint: '' } },
    );
    expect(JSON.stringify(entry)).not.toContain('A'.repeat(100));
    expect(entry?.sections.at(-1)).toMatchObject({ label: 'Signing certificate (x5c[0])', content: expect.stringContaining('CN=Signer') });
  });
});

describe('a masked secret and a shortened portrait', () => {
  it('keep a recognisable prefix only, their length in the reader’s words', () => {
    expect(worded('0123456789abcdef')).toBe('012345…•••• (16 characters)');
    expect(worded('short')).toBe('•••••');
    expect(describeSecret(maskSecret('0123456789abcdef'), TRACE_MESSAGES.nb)).toBe('012345…•••• (16 tegn)');
    expect(shortenPortraits({ a: ['data:image/png;base64,' + 'x'.repeat(100)] })).toEqual({ a: [expect.stringMatching(/… \(122 characters\)$/)] });
  });
});

describe('a trace read in the reader’s language', () => {
  const request = `${b64({ alg: 'ES256', kid: 'k1', typ: 'JWT' })}.${b64({ iss: 'c', state: 's'.repeat(43) })}.${'g'.repeat(86)}`;
  const fnr = '01017012345';
  /** One flow's trace, every kind of step and section, as the core records it. */
  const events: TraceEvent[] = [
    { type: 'note', step: 'discovery', at: 0, fromCache: true, url: 'https://idv.example/.well-known/openid-configuration' },
    { type: 'note', step: 'discovery', at: 0, detail: { endpoints: { pushed_authorization_request_endpoint: 'assumed' } } },
    {
      type: 'http',
      step: 'par',
      method: 'POST',
      url: 'https://idv.example/par',
      requestForm: { client_id: 'c', request },
      status: 201,
      responseBody: '{"request_uri":"urn:x"}',
      startedAt: 0,
      durationMs: 3,
    },
    { type: 'note', step: 'authorization_redirect', at: 1, url: 'https://idv.example/auth?request_uri=urn:x' },
    { type: 'note', step: 'callback', at: 2, detail: { parameters: { code: 'c'.repeat(40), iss: 'https://idv.example' } } },
    {
      type: 'http',
      step: 'token',
      method: 'POST',
      url: 'https://idv.example/token',
      requestForm: { client_id: 'c', client_assertion: assertion, code: 'c'.repeat(40) },
      status: 200,
      responseBody: JSON.stringify({ id_token: `${b64({ alg: 'RSA-OAEP-256', enc: 'A256GCM' })}.a.b.c.d` }),
      startedAt: 3,
      durationMs: 12,
    },
    { type: 'http', step: 'jwks', method: 'GET', url: 'https://idv.example/jwks', error: 'timeout after 5000 ms', startedAt: 4, durationMs: 5000 },
    {
      type: 'note',
      step: 'id_token',
      at: 5,
      detail: {
        jweHeader: { alg: 'RSA-OAEP-256' },
        jwsHeader: { kid: 'k' },
        payload: { verified_claims: { verification: { evidence: [{ personal_number: { value: fnr } }] } } },
        signingKey: { x5c: ['MIIB'] },
      },
    },
  ];
  const certificate = { subject: 'CN=Signer', issuer: 'CN=CA', serialNumber: '1', notBefore: '', notAfter: '', sha256Fingerprint: '' };
  const english = present(events, { certificate });
  const norwegian = present(events, { locale: 'nb', certificate });
  const labels = (entries: TraceEntryView[]) => entries.map((entry) => [entry.title, entry.sections.map((section) => section.label)]);

  it('names every step and section in English', () => {
    expect(labels(english)).toEqual([
      ['Discovery, from cache', []],
      ['Endpoints: some not in the discovery document', ['Detail']],
      ['Pushed authorization request', ['Form parameters sent', 'Request object: header', 'Request object: payload', 'Response body']],
      ['Redirect to the identity app', ['Query parameters sent']],
      ['Callback', ['Query parameters received']],
      ['Token request', ['Form parameters sent', 'Client assertion: header', 'Client assertion: payload', 'Response body', 'ID token: JWE header']],
      ['Signing keys (JWKS)', []],
      ['ID token decrypted and verified', ['JWE header', 'Signed ID token: header', 'Signed ID token: payload', 'Signing certificate (x5c[0])']],
    ]);
  });

  it('gives every step its Norwegian title and every section its Norwegian label', () => {
    expect(labels(norwegian)).toEqual([
      ['Discovery, fra cache', []],
      ['Endepunkter: noen står ikke i discovery-dokumentet', ['Detaljer']],
      [
        'Pushed authorization request (PAR)',
        ['Skjemaparametere sendt', 'Forespørselsobjekt: header', 'Forespørselsobjekt: payload (nyttelast)', 'Svarinnhold'],
      ],
      ['Omdirigering til identitetsappen', ['Spørreparametere sendt']],
      ['Tilbakekall (callback)', ['Spørreparametere mottatt']],
      ['Tokenforespørsel', ['Skjemaparametere sendt', 'Klientpåstand: header', 'Klientpåstand: payload (nyttelast)', 'Svarinnhold', 'ID-token: JWE-header']],
      ['Signeringsnøkler (JWKS)', []],
      [
        'ID-token dekryptert og verifisert',
        ['JWE-header', 'Signert ID-token: header', 'Signert ID-token: payload (nyttelast)', 'Signeringssertifikat (x5c[0])'],
      ],
    ]);
  });

  it('words what it adds in the reader’s language, and translates nothing an exchange carries', () => {
    const withoutWords = (entries: TraceEntryView[]) => entries.map((entry) => ({ ...entry, title: '', sections: [] }));
    expect(withoutWords(norwegian)).toEqual(withoutWords(english));
    expect(norwegian[2]).toMatchObject({ method: 'POST', url: 'https://idv.example/par', status: 201 });
    expect(norwegian[6]).toMatchObject({ method: 'GET', error: 'timeout after 5000 ms' });
    expect(english[2]!.sections[0]!.content).toContain('"request": "(signed JWT, decoded below)"');
    expect(norwegian[2]!.sections[0]!.content).toContain('"request": "(signert JWT, dekodet nedenfor)"');
    expect(norwegian[2]!.sections[2]!.content).toContain('(43 tegn)');
    // the exchanges' own content is the same in both: headers, the certificate
    expect(norwegian[2]!.sections[1]!.content).toBe(english[2]!.sections[1]!.content);
    expect(norwegian[7]!.sections[3]!.content).toBe(english[7]!.sections[3]!.content);
  });

  it('makes an entry with nothing to show a plain row, and gives the redirect the query it sent', () => {
    expect(english.map((entry) => [entry.step, entry.expandable])).toEqual([
      ['discovery', false],
      ['discovery', true],
      ['par', true],
      ['authorization_redirect', true],
      ['callback', true],
      ['token', true],
      ['jwks', true], // no answer, but its error to show
      ['id_token', true],
    ]);
    expect(JSON.parse(english[3]!.sections[0]!.content)).toEqual({ request_uri: 'urn:x' });
  });

  it('never puts brackets beside brackets, in either language, even for a step a cache answered whose title has some', () => {
    const cached: TraceEvent[] = [...events, { type: 'note', step: 'jwks', at: 6, fromCache: true, url: 'https://idv.example/jwks' }];
    for (const locale of ['en', 'nb'] as const) {
      const entries = present(cached, { locale, certificate });
      expect(entries.at(-1)!.title).toBe(locale === 'en' ? 'Signing keys (JWKS), from cache' : 'Signeringsnøkler (JWKS), fra cache');
      const words = entries.flatMap((entry) => [entry.title, ...entry.sections.flatMap((section) => [section.label, section.content])]);
      for (const text of words) expect(text).not.toMatch(/\)\s*\(|\(\(|\)\)/);
    }
  });

  it('words the NumericDates of every JWT payload in the reader’s language, beside the number', () => {
    const times = (entries: TraceEntryView[], label: RegExp) => entries.flatMap((entry) => entry.sections).find((section) => label.test(section.label))?.times;
    const withDates: TraceEvent[] = [
      {
        type: 'http',
        step: 'token',
        method: 'POST',
        url: 'https://idv.example/token',
        requestForm: { client_id: 'c', client_assertion: assertion },
        status: 200,
        responseBody: '{}',
        startedAt: 0,
        durationMs: 1,
      },
      {
        type: 'note',
        step: 'id_token',
        at: 1,
        detail: { jweHeader: {}, jwsHeader: {}, payload: { iss: 'x', exp: 1_795_572_782, iat: 1_795_569_182, auth_time: 1_795_569_182, nbf: 'not a number' } },
      },
    ];
    expect(times(present(withDates), /^Signed ID token: payload/)).toEqual([
      { claim: 'exp', seconds: 1_795_572_782, text: '25 November 2026, 02:13:02\u00a0UTC' },
      { claim: 'iat', seconds: 1_795_569_182, text: '25 November 2026, 01:13:02\u00a0UTC' },
      { claim: 'auth_time', seconds: 1_795_569_182, text: '25 November 2026, 01:13:02\u00a0UTC' },
    ]);
    expect(times(present(withDates, { locale: 'nb' }), /^Signert ID-token: payload/)![0]).toEqual({
      claim: 'exp',
      seconds: 1_795_572_782,
      text: '25. november 2026 kl.\u00a002:13:02\u00a0UTC',
    });
    // the client assertion's exp (1: one second after the epoch), and the number itself kept in the JSON
    expect(times(present(withDates), /^Client assertion: payload/)).toEqual([{ claim: 'exp', seconds: 1, text: '1 January 1970, 00:00:01\u00a0UTC' }]);
    expect(present(withDates)[1]!.sections[2]!.content).toContain('"exp": 1795572782');
    // a header has none
    expect(times(present(withDates), /^Signed ID token: header/)).toBeUndefined();
  });

  it('lists the numbers to mask in any language, so a Norwegian trace leaves the server masked as an English one does', () => {
    const payload = (entries: TraceEntryView[]) => entries[7]!.sections[2]!;
    expect(payload(maskTrace(norwegian, false)).content).toContain(`"value": "${maskPersonal(fnr)}"`);
    expect(payload(maskTrace(norwegian, false)).content).not.toContain(fnr);
    expect(payload(maskTrace(norwegian, true)).content).toContain(fnr);
  });
});

describe('the ID token’s checks in the trace', () => {
  const nonce = 'n'.repeat(43);
  const checks: TraceEvent[] = [
    { type: 'http', step: 'token', method: 'POST', url: 'https://idv.example/token', status: 200, responseBody: '{}', startedAt: 0, durationMs: 1 },
    {
      type: 'check',
      step: 'id_token',
      at: 1,
      check: 'jwe_header',
      passed: true,
      expected: ['RSA-OAEP-256 / A256GCM'],
      received: { alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: 'e1' },
    },
    {
      type: 'check',
      step: 'id_token',
      at: 1,
      check: 'signing_key',
      passed: true,
      expected: 's1',
      received: { kid: 's1', kty: 'EC', crv: 'P-256' },
      detail: { source: 'refetched', jwksUri: 'https://idv.example/jwks' },
    },
    {
      type: 'check',
      step: 'id_token',
      at: 1,
      check: 'exp',
      passed: false,
      code: 'id_token_expired',
      received: 1763999400,
      detail: { now: 1764000000, toleranceSeconds: 30, limit: 1763999970, reason: 'The ID token has expired' },
    },
    { type: 'check', step: 'id_token', at: 1, check: 'nonce', passed: false, code: 'id_token_nonce_mismatch', expected: nonce, received: 'm'.repeat(43) },
  ];

  it('lists them as one entry after the token request, titled by the check that failed, each with its expected and received values', () => {
    const entries = present(checks);
    expect(entries.map((entry) => entry.index)).toEqual([1, 2]);
    const [, entry] = entries;
    expect(entry).toMatchObject({ step: 'id_token', title: 'ID token checks: Expiry (exp) failed', sections: [] });
    expect(entry!.checks!.map((check) => [check.check, check.passed])).toEqual([
      ['jwe_header', true],
      ['signing_key', true],
      ['exp', false],
      ['nonce', false],
    ]);
    const [jwe, key, exp, nonceCheck] = entry!.checks!;
    expect(jwe).toMatchObject({
      label: 'Encryption (JWE header)',
      expected: 'one of RSA-OAEP-256 / A256GCM',
      received: '{"alg":"RSA-OAEP-256","enc":"A256GCM","kid":"e1"}',
    });
    expect(key!.notes).toEqual(['From the key set fetched again for this kid, which the cached set lacked (key rotation).']);
    expect(exp).toMatchObject({
      code: 'id_token_expired',
      expected: 'later than 2025-11-24 15:59:30 UTC (now, 2025-11-24 16:00:00 UTC, minus 30 s of clock tolerance)',
      received: '1763999400 (2025-11-24 15:50:00 UTC)',
      notes: [],
      reason: 'The ID token has expired',
    });
    expect(nonceCheck).toMatchObject({ expected: `the nonce we sent: ${worded(nonce)}`, received: worded('m'.repeat(43)) });
  });

  it('says whether every one passed, and the summary a page first shows leaves them out only then', () => {
    const failing = present(checks);
    const passing = present(checks.map((event) => (event.type === 'check' ? { ...event, passed: true } : event)));
    expect(failing[1]!.checksPassed).toBe(false);
    expect(passing[1]!.checksPassed).toBe(true);
    // Failed checks stay with the entry (shown open); passed ones are loaded with the detail.
    const [failedSummary, passedSummary] = [traceSummary(failing)[1]!, traceSummary(passing)[1]!];
    expect(failedSummary.checks).toEqual(failing[1]!.checks);
    expect(failedSummary.checksPassed).toBe(false);
    expect(passedSummary).not.toHaveProperty('checks');
    expect(passedSummary).toMatchObject({ checksPassed: true, expandable: true, sections: [] });
    // Every entry loses its sections, and keeps the rest.
    expect(traceSummary(passing).map((entry) => entry.sections)).toEqual([[], []]);
    expect(traceSummary(passing)[0]).toEqual({ ...passing[0]!, sections: [] });
    expect(present(checks.slice(0, 1))[0]).not.toHaveProperty('checksPassed');
  });

  it('stand where the last of them was made, after the JWKS fetch choosing the key needed, with its time: the trace stays in time order', () => {
    const jwks: TraceEvent = {
      type: 'http',
      step: 'jwks',
      method: 'GET',
      url: 'https://idv.example/jwks',
      status: 200,
      responseBody: '{}',
      startedAt: 2,
      durationMs: 30,
    };
    const timed = checks.map((event, position) => (event.type === 'check' ? { ...event, at: position < 2 ? 1 : 40 } : event));
    const entries = present([...timed.slice(0, 2), jwks, ...timed.slice(2)]);
    expect(entries.map((entry) => entry.step)).toEqual(['token', 'jwks', 'id_token']);
    expect(entries.map((entry) => entry.at)).toEqual([0, 2, 40].map((ms) => new Date(ms).toISOString()));
  });

  it('words them in Norwegian, values as they are', () => {
    const [, entry] = present(checks, { locale: 'nb' });
    expect(entry!.title).toBe('Kontroller av ID-tokenet: Utløp (exp) feilet');
    expect(entry!.checks![2]!.expected).toBe('senere enn 2025-11-24 15:59:30 UTC (nå, 2025-11-24 16:00:00 UTC, minus 30 s klokketoleranse)');
  });

  it('names what verified_claims dropped, with the reason in words', () => {
    const [entry] = present([
      {
        type: 'check',
        step: 'id_token',
        at: 1,
        check: 'verified_claims',
        passed: true,
        detail: { elements: 1, dropped: [{ path: 'verified_claims.claims.birthdate', reason: 'not_a_date' }] },
      },
    ]);
    expect(entry!.checks![0]).toMatchObject({
      notes: ['One element read.', 'One member dropped:'],
      dropped: [{ path: 'verified_claims.claims.birthdate', reason: 'not a date (YYYY-MM-DD)' }],
    });
  });
});
