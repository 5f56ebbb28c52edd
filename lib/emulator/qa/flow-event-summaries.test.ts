import { describe, expect, it } from 'vitest';
import { summaryOf } from './flow-event-summaries';
import { MAX_TRACE_STRING, type FlowEvent } from './flow-trace';

const at = 0;

describe('summaryOf', () => {
  it.each<[string, Omit<FlowEvent, 'at'>, string]>([
    [
      'an accepted PAR, naming the trace’s client',
      { step: 'par', outcome: 'ok', details: { expires_in: 600 } },
      'The pushed authorization request of client demo-client was accepted.',
    ],
    [
      'a refused PAR',
      { step: 'par', outcome: 'refused', details: { status: 400, error: 'invalid_scope' } },
      'The pushed authorization request was refused with 400 invalid_scope.',
    ],
    [
      'a PAR fault',
      { step: 'par', outcome: 'fault', details: { fault: 'par_server_error', status: 500, error: 'server_error' } },
      'The fault par_server_error answered the pushed authorization request with 500 server_error.',
    ],
    [
      'the chooser’s fault',
      { step: 'flow_answer', outcome: 'ok', details: { chosen_with: 'chooser', faults: ['wrong_nonce'] } },
      'QA chose the fault wrong_nonce for this flow on its own pages.',
    ],
    [
      'the chooser’s error',
      { step: 'flow_answer', outcome: 'ok', details: { chosen_with: 'chooser', faults: [], error: 'server_error' } },
      'QA chose the error server_error for this flow on its own pages.',
    ],
    [
      'the chooser’s normal answer',
      { step: 'flow_answer', outcome: 'ok', details: { chosen_with: 'chooser', faults: [] } },
      'QA chose the normal answer for this flow on its own pages.',
    ],
    [
      'the QA API’s choice',
      { step: 'flow_answer', outcome: 'ok', details: { chosen_with: 'qa_api', faults: ['aud_array', 'wrong_state'], given_name: 'Canary' } },
      'QA chose aud_array, wrong_state and a given name for this flow through the QA API.',
    ],
    [
      'the QA API’s choice of nothing',
      { step: 'flow_answer', outcome: 'ok', details: { chosen_with: 'qa_api', faults: [], given_name: 'persona' } },
      "QA chose no fault and the persona's given name for this flow through the QA API.",
    ],
    ['a denial', { step: 'decision', outcome: 'refused', details: { error: 'access_denied' } }, 'The verification was denied with access_denied.'],
    [
      'a redirect changed by a fault',
      {
        step: 'redirect',
        outcome: 'fault',
        details: { redirect_uri: 'https://rp.example/callback?x=1', parameters: ['code', 'state', 'iss'], faults: ['wrong_state'] },
      },
      'The browser was sent back to https://rp.example with code, state, iss, changed by wrong_state.',
    ],
    [
      'a redirect with the error QA chose',
      {
        step: 'redirect',
        outcome: 'fault',
        details: { redirect_uri: 'https://rp.example/callback', parameters: ['error', 'error_description', 'state'], faults: [] },
      },
      'The browser was sent back to https://rp.example with error, error_description, state, an error QA chose for this flow.',
    ],
    [
      'a token request refused by a fault',
      { step: 'token', outcome: 'fault', details: { status: 500, error: 'server_error', faults: ['token_error'] } },
      'The token request was answered 500 server_error by the fault token_error.',
    ],
    [
      'a token request accepted with a fault',
      { step: 'token', outcome: 'fault', details: { status: 200, faults: ['no_expires_in'] } },
      'The token request was accepted, with no_expires_in.',
    ],
    [
      'an unencrypted ID token',
      { step: 'id_token', outcome: 'fault', details: { alg: 'ES256', encryption: 'not encrypted', faults: ['unencrypted'] } },
      'An ID token was issued, signed ES256 and not encrypted, with unencrypted.',
    ],
    [
      'an ID token',
      { step: 'id_token', outcome: 'ok', details: { alg: 'ES256', jwe_alg: 'RSA-OAEP-256', jwe_enc: 'A256GCM', faults: [] } },
      'An ID token was issued, signed ES256 and encrypted RSA-OAEP-256 / A256GCM.',
    ],
    [
      'a response that is not JSON',
      { step: 'token_response', outcome: 'fault', details: { status: 200, members: [] } },
      'The token endpoint answered 200 with no JSON members.',
    ],
  ])('words %s', (_name, event, sentence) => {
    expect(summaryOf({ at, ...event }, 'demo-client')).toBe(sentence);
  });

  it('cuts a long sentence as the trace cuts its strings', () => {
    const faults = Array.from({ length: 40 }, (_, index) => `fault_number_${index}`);
    const summary = summaryOf({ at, step: 'flow_answer', outcome: 'ok', details: { chosen_with: 'qa_api', faults, given_name: 'persona' } }, 'demo-client');
    expect(summary).toHaveLength(MAX_TRACE_STRING);
    expect(summary.endsWith('…')).toBe(true);
  });
});
