import { describe, expect, it } from 'vitest';
import { clientAddress } from './client-address';

const headers = (forwardedFor?: string) => new Headers(forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor });

describe('clientAddress', () => {
  it('without a proxy, takes the address the server recorded (the last entry)', () => {
    expect(clientAddress(headers('203.0.113.7'), 0)).toBe('203.0.113.7');
  });

  it('behind one trusted proxy, takes what that proxy appended, not what the client wrote before it', () => {
    expect(clientAddress(headers('198.51.100.1, 203.0.113.7'), 1)).toBe('203.0.113.7');
  });

  it('behind two trusted proxies, takes the entry the furthest one appended', () => {
    expect(clientAddress(headers('spoofed, 203.0.113.7, 10.0.0.2'), 2)).toBe('203.0.113.7');
  });

  it('takes the leftmost entry when fewer proxies appended than are trusted, and says unknown without the header', () => {
    expect(clientAddress(headers('203.0.113.7'), 3)).toBe('203.0.113.7');
    expect(clientAddress(headers(), 0)).toBe('unknown');
    expect(clientAddress(headers(' , '), 1)).toBe('unknown');
  });

  it('keeps a key short whatever the client writes', () => {
    expect(clientAddress(headers('x'.repeat(5000)), 0)).toHaveLength(64);
  });
});
