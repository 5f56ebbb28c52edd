import { createServer, request as httpRequest, Server } from 'node:http';
import { describe, expect, it } from 'vitest';
import { CLIENT_ADDRESS_HEADER, clientAddress, stampSocketAddresses } from './client-address';

const headers = (values: Record<string, string> = {}) => new Headers(values);

describe('clientAddress', () => {
  it('without a proxy, takes the connection’s address the server stamped, and never X-Forwarded-For, which the client writes', () => {
    expect(clientAddress(headers({ [CLIENT_ADDRESS_HEADER]: '203.0.113.7', 'x-forwarded-for': '198.51.100.1' }), 0)).toBe('203.0.113.7');
    expect(clientAddress(headers({ 'x-forwarded-for': '198.51.100.1' }), 0)).toBe('unknown');
  });

  it('behind one trusted proxy, takes what that proxy appended, not what the client wrote before it', () => {
    expect(clientAddress(headers({ 'x-forwarded-for': '198.51.100.1, 203.0.113.7', [CLIENT_ADDRESS_HEADER]: '10.0.0.2' }), 1)).toBe('203.0.113.7');
  });

  it('behind two trusted proxies, takes the entry the furthest one appended', () => {
    expect(clientAddress(headers({ 'x-forwarded-for': 'spoofed, 203.0.113.7, 10.0.0.2' }), 2)).toBe('203.0.113.7');
  });

  it('takes the leftmost entry when fewer proxies appended than are trusted, and says unknown without the header', () => {
    expect(clientAddress(headers({ 'x-forwarded-for': '203.0.113.7' }), 3)).toBe('203.0.113.7');
    expect(clientAddress(headers(), 0)).toBe('unknown');
    expect(clientAddress(headers({ 'x-forwarded-for': ' , ' }), 1)).toBe('unknown');
  });

  it('keeps a key short whatever the client writes', () => {
    expect(clientAddress(headers({ 'x-forwarded-for': 'x'.repeat(5000) }), 1)).toHaveLength(64);
    expect(clientAddress(headers({ [CLIENT_ADDRESS_HEADER]: 'x'.repeat(5000) }), 0)).toHaveLength(64);
  });
});

describe('stampSocketAddresses', () => {
  it('writes each request’s connection address into its headers, replacing a client’s own header of that name, once however often it is installed', async () => {
    class TestServer extends Server {}
    stampSocketAddresses(TestServer);
    stampSocketAddresses(TestServer);
    const seen: { parsed: unknown; raw: string[] }[] = [];
    const server = createServer();
    Object.setPrototypeOf(server, TestServer.prototype);
    server.on('request', (request, response) => {
      seen.push({
        parsed: request.headers[CLIENT_ADDRESS_HEADER],
        raw: request.rawHeaders.filter((_, i, all) => all[i - 1]?.toLowerCase() === CLIENT_ADDRESS_HEADER),
      });
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const get = (extra: Record<string, string>) =>
      new Promise<void>((resolve, reject) => {
        httpRequest({ host: '127.0.0.1', port, headers: extra }, (response) => response.resume().on('end', resolve))
          .on('error', reject)
          .end();
      });
    try {
      await get({});
      await get({ 'X-IDV-Client-Address': '203.0.113.99', 'X-Forwarded-For': '198.51.100.1' });
      expect(seen).toEqual([
        { parsed: '127.0.0.1', raw: ['127.0.0.1'] },
        { parsed: '127.0.0.1', raw: ['127.0.0.1'] },
      ]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
