import { sealData } from 'iron-session';
import { describe, expect, it } from 'vitest';
import { generateCodeVerifier, generateNonce, generateState } from '@/lib/oidc';
import { addPending, MAX_PENDING, PENDING_TTL_MS, takePending, type PendingSecrets, type SessionData } from './session';

const secrets = (createdAt: number, tag = ''): PendingSecrets => ({ nonce: `n${tag}`, codeVerifier: `v${tag}`, createdAt });

describe('pending authorizations in the session', () => {
  it('keeps several flows apart by state and hands each out once', () => {
    const session: SessionData = {};
    addPending(session, 'a', secrets(1, 'a'), 2);
    addPending(session, 'b', secrets(2, 'b'), 3);
    expect(takePending(session, 'b', 4)?.nonce).toBe('nb');
    expect(takePending(session, 'b', 4)).toBeUndefined();
    expect(takePending(session, 'a', 4)?.nonce).toBe('na');
  });

  it('drops expired entries and keeps at most five', () => {
    const session: SessionData = {};
    for (let i = 0; i < 7; i++) addPending(session, `s${i}`, secrets(1000 + i), 1000 + i);
    expect(Object.keys(session.pending!)).toEqual(['s2', 's3', 's4', 's5', 's6']);
    expect(takePending(session, 's6', 1006 + PENDING_TTL_MS)).toBeUndefined();
  });

  it('does not resolve inherited property names as states', () => {
    const session: SessionData = { pending: {} };
    expect(takePending(session, '__proto__')).toBeUndefined();
    expect(takePending(session, 'constructor')).toBeUndefined();
    expect(takePending(session, null)).toBeUndefined();
  });

  it('fits the most pending flows with a result id into one cookie, far below 4 KB', async () => {
    const session: SessionData = { resultId: 'r'.repeat(32) };
    for (let i = 0; i < MAX_PENDING; i++) {
      addPending(session, generateState(), { nonce: generateNonce(), codeVerifier: generateCodeVerifier(), createdAt: Date.now() });
    }
    const sealed = await sealData(session, { password: 'p'.repeat(32) });
    const cookie = `idv_rp_session=${sealed}; Max-Age=3540; Path=/; HttpOnly; SameSite=Lax; Secure`;
    expect(cookie.length).toBeLessThan(3000);
  });
});
