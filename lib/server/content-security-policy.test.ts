import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, newNonce } from './content-security-policy';

describe('the pages’ Content-Security-Policy', () => {
  it('allows only scripts with this response’s nonce (and what they load), and no plugins, frames by others or foreign base URLs', () => {
    const policy = contentSecurityPolicy({ nonce: 'abc123==', development: false, https: true });
    const directives = Object.fromEntries(policy.split('; ').map((directive) => [directive.split(' ')[0], directive]));
    expect(directives['script-src']).toBe("script-src 'self' 'nonce-abc123==' 'strict-dynamic'");
    expect(directives['object-src']).toBe("object-src 'none'");
    expect(directives['frame-ancestors']).toBe("frame-ancestors 'none'");
    expect(directives['base-uri']).toBe("base-uri 'self'");
    expect(directives['upgrade-insecure-requests']).toBeDefined();
    expect(policy).not.toContain("'unsafe-eval'");
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    // The start redirects to the service's authorization endpoint: no form-action that would block it.
    expect(directives['form-action']).toBeUndefined();
  });

  it('adds unsafe-eval only for next dev, and upgrade-insecure-requests only on https', () => {
    const development = contentSecurityPolicy({ nonce: 'n', development: true, https: false });
    expect(development).toContain("script-src 'self' 'nonce-n' 'strict-dynamic' 'unsafe-eval'");
    expect(development).not.toContain('upgrade-insecure-requests');
  });

  it('makes a new 128-bit nonce each time', () => {
    const nonces = new Set(Array.from({ length: 100 }, () => newNonce()));
    expect(nonces.size).toBe(100);
    for (const nonce of nonces) expect(Buffer.from(nonce, 'base64')).toHaveLength(16);
  });
});
