import { describe, expect, it } from 'vitest';
import type { TraceEvent } from '@/lib/oidc/trace';
import { maskPersonal } from './masking';
import { TRACE_MESSAGES } from './trace-messages';
import { localizeTrace, maskSecret, maskTrace, presentTrace, shortenPortraits, type TraceEntryView } from './trace-view';

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const assertion = `${b64({ alg: 'ES256', kid: 'k1', typ: 'JWT' })}.${b64({ iss: 'c', sub: 'c', aud: 'https://idv.example', exp: 1 })}.${'s'.repeat(86)}`;

describe('presentTrace', () => {
  it('masks state and nonce in the decoded request object as it masks them as form fields', () => {
    const state = 's'.repeat(43);
    const nonce = 'n'.repeat(43);
    const request = `${b64({ alg: 'ES256', kid: 'k1', typ: 'JWT' })}.${b64({ iss: 'c', state, nonce, code_challenge: 'x'.repeat(43) })}.${'g'.repeat(86)}`;
    const [entry] = presentTrace([
      { type: 'http', step: 'par', method: 'POST', url: 'https://idv.example/par', requestForm: { client_id: 'c', request }, status: 201, responseBody: '{}', startedAt: 0, durationMs: 1 },
    ]);
    const text = JSON.stringify(entry);
    expect(text).not.toContain(state);
    expect(text).not.toContain(nonce);
    const payload = entry!.sections.find((section) => section.label === 'Request object: payload')!.content;
    expect(payload).toContain(`"state": "${maskSecret(state)}"`);
    expect(payload).toContain(`"nonce": "${maskSecret(nonce)}"`);
    expect(payload).toContain('x'.repeat(43)); // not a secret: a hash of the verifier
  });

  it('masks the personal number a register lookup asks for in the request object, unless revealed', () => {
    const claims = { id_token: { verified_claims: { verification: { evidence: [{ type: { value: 'electronic_record' }, record: { personal_number: '14038726421' } }] } } } };
    const request = `${b64({ alg: 'ES256', kid: 'k1', typ: 'JWT' })}.${b64({ iss: 'c', claims })}.${'g'.repeat(86)}`;
    const stored = presentTrace([
      { type: 'http', step: 'par', method: 'POST', url: 'https://idv.example/par', requestForm: { client_id: 'c', request }, status: 201, responseBody: '{}', startedAt: 0, durationMs: 1 },
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
        verification: { evidence: [{ type: 'document', document_details: { document_number: 'NP1234567', personal_number: { type: 'no-fnr', value: '01017012345' } } }] },
        claims: { name: 'Ingrid' },
      },
    };
    const stored = presentTrace([{ type: 'note', step: 'id_token', at: 0, detail: { jweHeader: {}, jwsHeader: {}, payload } }]);
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
    const [entry] = presentTrace(events);
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
      { type: 'http', step: 'par', method: 'POST', url: 'https://idv.example/par', status: 400, responseBody: `{"error":"invalid_request","x":${nested}}`, startedAt: 0, durationMs: 1 },
    ];
    const [entry] = presentTrace(events);
    expect(entry?.sections).toEqual([{ label: 'Response body', content: '(not displayable: nested too deeply)' }]);
  });

  it('masks the code and state of the callback', () => {
    const [entry] = presentTrace([{ type: 'note', step: 'callback', at: 0, detail: { parameters: { code: 'c'.repeat(40), state: 't'.repeat(43), iss: 'https://idv.example' } } }]);
    expect(entry?.sections[0]?.content).not.toContain('c'.repeat(40));
    expect(entry?.sections[0]?.content).toContain('https://idv.example');
  });

  it('shortens the portrait and describes the signing certificate', () => {
    const picture = `data:image/jpeg;base64,${'A'.repeat(5000)}`;
    const [entry] = presentTrace(
      [{ type: 'note', step: 'id_token', at: 0, detail: { jweHeader: {}, jwsHeader: { kid: 'k' }, payload: { verified_claims: { claims: { picture } } }, signingKey: { x5c: ['MIIB'] } } }],
      (x5c) => (x5c === 'MIIB' ? { subject: 'CN=Signer', issuer: 'CN=CA', serialNumber: 'k', notBefore: '', notAfter: '', sha256Fingerprint: '' } : undefined),
    );
    expect(JSON.stringify(entry)).not.toContain('A'.repeat(100));
    expect(entry?.sections.at(-1)).toMatchObject({ label: 'Signing certificate (x5c[0])', content: expect.stringContaining('CN=Signer') });
  });
});

describe('maskSecret and shortenPortraits', () => {
  it('keeps a recognisable prefix only', () => {
    expect(maskSecret('0123456789abcdef')).toBe('012345…•••• (16 characters)');
    expect(maskSecret('short')).toBe('•••••');
    expect(shortenPortraits({ a: ['data:image/png;base64,' + 'x'.repeat(100)] })).toEqual({ a: [expect.stringMatching(/… \(122 characters\)$/)] });
  });
});

describe('localizeTrace', () => {
  const request = `${b64({ alg: 'ES256', kid: 'k1', typ: 'JWT' })}.${b64({ iss: 'c', state: 's'.repeat(43) })}.${'g'.repeat(86)}`;
  const fnr = '01017012345';
  /** One flow's trace, every kind of step and section, as presentTrace records it. */
  const recorded = presentTrace(
    [
      { type: 'note', step: 'discovery', at: 0, fromCache: true, url: 'https://idv.example/.well-known/openid-configuration' },
      { type: 'note', step: 'discovery', at: 0, detail: { endpoints: { pushed_authorization_request_endpoint: 'assumed' } } },
      { type: 'http', step: 'par', method: 'POST', url: 'https://idv.example/par', requestForm: { client_id: 'c', request }, status: 201, responseBody: '{"request_uri":"urn:x"}', startedAt: 0, durationMs: 3 },
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
        detail: { jweHeader: { alg: 'RSA-OAEP-256' }, jwsHeader: { kid: 'k' }, payload: { verified_claims: { verification: { evidence: [{ personal_number: { value: fnr } }] } } }, signingKey: { x5c: ['MIIB'] } },
      },
    ],
    () => ({ subject: 'CN=Signer', issuer: 'CN=CA', serialNumber: '1', notBefore: '', notAfter: '', sha256Fingerprint: '' }),
  );
  const labels = (entries: TraceEntryView[]) => entries.map((entry) => [entry.title, entry.sections.map((section) => section.label)]);

  it('leaves the English trace exactly as recorded', () => {
    expect(localizeTrace(recorded, 'en')).toEqual(recorded);
    expect(labels(recorded)).toEqual([
      ['Discovery (from cache)', []],
      ['Endpoints: some not in the discovery document', ['Detail']],
      ['Pushed authorization request', ['Form parameters sent', 'Request object: header', 'Request object: payload', 'Response body']],
      ['Redirect to the identity app', []],
      ['Callback', ['Query parameters received']],
      ['Token request', ['Form parameters sent', 'Client assertion: header', 'Client assertion: payload', 'Response body', 'ID token: JWE header']],
      ['Signing keys (JWKS)', []],
      ['ID token decrypted and verified', ['JWE header', 'Signed ID token: header', 'Signed ID token: payload', 'Signing certificate (x5c[0])']],
    ]);
  });

  it('gives every step its Norwegian title and every section its Norwegian label', () => {
    expect(labels(localizeTrace(recorded, 'nb'))).toEqual([
      ['Discovery (fra cache)', []],
      ['Endepunkter: noen står ikke i discovery-dokumentet', ['Detaljer']],
      ['Pushed authorization request (PAR)', ['Skjemaparametere sendt', 'Forespørselsobjekt: header', 'Forespørselsobjekt: payload (nyttelast)', 'Svarinnhold']],
      ['Omdirigering til identitetsappen', []],
      ['Tilbakekall (callback)', ['Spørreparametere mottatt']],
      ['Tokenforespørsel', ['Skjemaparametere sendt', 'Klientpåstand: header', 'Klientpåstand: payload (nyttelast)', 'Svarinnhold', 'ID-token: JWE-header']],
      ['Signeringsnøkler (JWKS)', []],
      ['ID-token dekryptert og verifisert', ['JWE-header', 'Signert ID-token: header', 'Signert ID-token: payload (nyttelast)', 'Signeringssertifikat (x5c[0])']],
    ]);
  });

  it('translates nothing an exchange carries: contents, methods, URLs, statuses, errors', () => {
    const withoutWords = (entries: TraceEntryView[]) =>
      entries.map((entry) => ({ ...entry, title: '', sections: entry.sections.map((section) => ({ ...section, label: '' })) }));
    const norwegian = localizeTrace(recorded, 'nb');
    expect(withoutWords(norwegian)).toEqual(withoutWords(recorded));
    expect(norwegian[2]).toMatchObject({ method: 'POST', url: 'https://idv.example/par', status: 201 });
    expect(norwegian[6]).toMatchObject({ method: 'GET', error: 'timeout after 5000 ms' });
    expect(norwegian[2]!.sections[0]!.content).toContain('"request": "(signed JWT, decoded below)"');
  });

  it('keeps the numbers to mask, so a localized trace leaves the server masked as an English one does', () => {
    const payload = (entries: TraceEntryView[]) => entries[7]!.sections[2]!;
    expect(payload(maskTrace(localizeTrace(recorded, 'nb'), false)).content).toContain(`"value": "${maskPersonal(fnr)}"`);
    expect(payload(maskTrace(localizeTrace(recorded, 'nb'), false)).content).not.toContain(fnr);
    expect(localizeTrace(maskTrace(recorded, false), 'nb')).toEqual(maskTrace(localizeTrace(recorded, 'nb'), false));
  });

  it('knows every title and label it records, in every language', () => {
    for (const [key, label] of Object.entries(TRACE_MESSAGES.en.sections)) {
      const [entry] = localizeTrace([{ index: 1, step: 'token', title: 'Token request', at: '', sections: [{ label, content: '{}' }] }], 'nb');
      expect(entry!.sections[0]!.label).toBe(TRACE_MESSAGES.nb.sections[key as keyof typeof TRACE_MESSAGES.nb.sections]);
    }
    for (const [step, title] of Object.entries(TRACE_MESSAGES.en.steps)) {
      const [entry] = localizeTrace([{ index: 1, step: step as TraceEntryView['step'], title, at: '', sections: [] }], 'nb');
      expect(entry!.title).toBe(TRACE_MESSAGES.nb.steps[step as TraceEntryView['step']]);
    }
  });

  it('keeps a title or label it did not write as it is', () => {
    const [entry] = localizeTrace([{ index: 1, step: 'id_token', title: 'ID token', at: '', sections: [{ label: 'payload', content: '{}' }] }], 'nb');
    expect(entry).toMatchObject({ title: 'ID token', sections: [{ label: 'payload' }] });
  });
});
