import { describe, expect, it } from 'vitest';
import { DEFAULT_SELECTION, type PendingAuthorization } from '@/lib/oidc';
import { addPending, PENDING_TTL_MS, takePending, type SessionData } from './session';

function pending(state: string, createdAt: number): PendingAuthorization {
  return { state, nonce: `n-${state}`, codeVerifier: `v-${state}`, issuer: 'https://idv.example', createdAt, selection: DEFAULT_SELECTION };
}

describe('pending authorizations in the session', () => {
  it('keeps several flows apart by state and hands each out once', () => {
    const session: SessionData = {};
    addPending(session, pending('a', 1), 2);
    addPending(session, pending('b', 2), 3);
    expect(takePending(session, 'b', 4)?.nonce).toBe('n-b');
    expect(takePending(session, 'b', 4)).toBeUndefined();
    expect(takePending(session, 'a', 4)?.nonce).toBe('n-a');
  });

  it('drops expired entries and keeps at most five', () => {
    const session: SessionData = {};
    for (let i = 0; i < 7; i++) addPending(session, pending(`s${i}`, 1000 + i), 1000 + i);
    expect(Object.keys(session.pending!)).toEqual(['s2', 's3', 's4', 's5', 's6']);
    expect(takePending(session, 's6', 1006 + PENDING_TTL_MS)).toBeUndefined();
  });

  it('does not resolve inherited property names as states', () => {
    const session: SessionData = { pending: {} };
    expect(takePending(session, '__proto__')).toBeUndefined();
    expect(takePending(session, 'constructor')).toBeUndefined();
    expect(takePending(session, null)).toBeUndefined();
  });
});
