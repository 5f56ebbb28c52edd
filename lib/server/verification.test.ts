import { describe, expect, it } from 'vitest';
import type { ValidatedIdToken } from '@/lib/oidc';
import { storedIdToken } from './verification';

describe('storedIdToken', () => {
  it('keeps the headers and claims a result shows, without verified_claims (kept parsed) and the signing key', () => {
    const validated: ValidatedIdToken = {
      jweHeader: { alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: 'enc-1' },
      jwsHeader: { alg: 'ES256', kid: 'sig-1' },
      claims: { iss: 'https://idv.example', sub: 's', aud: 'c', exp: 2, iat: 1, nonce: 'n', acr: 'urn:x', verified_claims: { claims: { picture: 'data:image/jpeg;base64,AAAA' } } },
      signingKey: { kty: 'EC', kid: 'sig-1', x5c: ['MIIB…'] },
    };
    const stored = storedIdToken(validated);
    expect(stored).toEqual({
      jweHeader: validated.jweHeader,
      jwsHeader: validated.jwsHeader,
      claims: { iss: 'https://idv.example', sub: 's', aud: 'c', exp: 2, iat: 1, nonce: 'n', acr: 'urn:x' },
    });
    // The validated token itself is left as it was.
    expect(validated.claims.verified_claims).toBeDefined();
  });
});
