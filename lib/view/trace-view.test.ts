import { describe, expect, it } from 'vitest';
import type { TraceEvent } from '@/lib/oidc/trace';
import { maskPersonal } from './masking';
import { maskSecret, maskTrace, presentTrace, shortenPortraits } from './trace-view';

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
