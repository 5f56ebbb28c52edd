import { describe, expect, it } from 'vitest';
import { buildAuthorizationUrl } from './authorization-url.ts';
import type { ProviderMetadata } from './types.ts';

describe('buildAuthorizationUrl (4.2)', () => {
  it('carries only client_id and request_uri', () => {
    const metadata = { authorization_endpoint: 'https://flow.idv.example/auth' } as ProviderMetadata;
    const url = new URL(buildAuthorizationUrl(metadata, 'client-1', 'urn:ietf:params:oauth:request_uri:abc'));
    expect(url.origin + url.pathname).toBe('https://flow.idv.example/auth');
    expect([...url.searchParams]).toEqual([
      ['client_id', 'client-1'],
      ['request_uri', 'urn:ietf:params:oauth:request_uri:abc'],
    ]);
  });
});
