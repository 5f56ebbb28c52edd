import { describe, expect, it } from 'vitest';
import { APP_ADDRESS_HEADER, appAddressLocation, appAddressRedirect, appPath, ownInterfaceAddresses, type AddressFacts } from './app-address';

const LOCAL: AddressFacts = {
  host: '127.0.0.1:3000',
  appUrl: 'http://localhost:3000',
  clientAddress: '127.0.0.1',
  trustedProxies: 0,
  ownAddresses: ['127.0.0.1', '::1', '192.168.1.20'],
};

describe('appAddressRedirect', () => {
  it('sends a page opened at 127.0.0.1 to APP_URL at localhost, path and query kept', () => {
    expect(appAddressRedirect('/result?reveal=1', LOCAL)).toBe('http://localhost:3000/result?reveal=1');
  });

  it('sends [::1] and a name under .localhost there too', () => {
    expect(appAddressRedirect('/', { ...LOCAL, host: '[::1]:3000', clientAddress: '::1' })).toBe('http://localhost:3000/');
    expect(appAddressRedirect('/', { ...LOCAL, host: 'demo.localhost:3000' })).toBe('http://localhost:3000/');
  });

  it('sends the "Network:" address opened on this machine to APP_URL', () => {
    expect(appAddressRedirect('/', { ...LOCAL, host: '192.168.1.20:3000', clientAddress: '::ffff:192.168.1.20' })).toBe('http://localhost:3000/');
  });

  it('leaves a browser on another device that opened the network address where it is: its localhost is not this server', () => {
    expect(appAddressRedirect('/', { ...LOCAL, host: '192.168.1.20:3000', clientAddress: '192.168.1.33' })).toBeUndefined();
  });

  it('sends any device to a non-loopback APP_URL, which every device reaches', () => {
    const facts = { ...LOCAL, appUrl: 'http://192.168.1.20:3000', host: 'localhost:3000', clientAddress: '192.168.1.33' };
    expect(appAddressRedirect('/', facts)).toBe('http://192.168.1.20:3000/');
  });

  it('does nothing at APP_URL’s own host, whatever the case of the Host header', () => {
    expect(appAddressRedirect('/', { ...LOCAL, host: 'localhost:3000' })).toBeUndefined();
    expect(appAddressRedirect('/', { ...LOCAL, host: 'LOCALHOST:3000' })).toBeUndefined();
  });

  it('does nothing behind a trusted proxy, whose Host may be its own choice', () => {
    expect(appAddressRedirect('/', { ...LOCAL, trustedProxies: 1 })).toBeUndefined();
  });

  it('does nothing for another port: that may be another server, or a proxy in front of this one', () => {
    expect(appAddressRedirect('/', { ...LOCAL, host: '127.0.0.1:8080' })).toBeUndefined();
  });

  it('does nothing for a name that is not this machine’s', () => {
    expect(appAddressRedirect('/', { ...LOCAL, host: 'evil.example:3000' })).toBeUndefined();
    expect(appAddressRedirect('/', { ...LOCAL, host: '10.9.9.9:3000' })).toBeUndefined();
  });

  it('does nothing for a missing or malformed Host header', () => {
    expect(appAddressRedirect('/', { ...LOCAL, host: null })).toBeUndefined();
    expect(appAddressRedirect('/', { ...LOCAL, host: '' })).toBeUndefined();
    expect(appAddressRedirect('/', { ...LOCAL, host: '127.0.0.1:3000/evil' })).toBeUndefined();
    expect(appAddressRedirect('/', { ...LOCAL, host: 'user@127.0.0.1:3000' })).toBeUndefined();
    expect(appAddressRedirect('/', { ...LOCAL, host: '127.0.0.1:99999' })).toBeUndefined();
  });

  it('never redirects off APP_URL’s origin through the path', () => {
    expect(appAddressRedirect('//evil.example/x', LOCAL)).toBe('http://localhost:3000/');
    expect(appAddressRedirect('https://evil.example/', LOCAL)).toBe('http://localhost:3000/');
  });

  it('keeps https and its default port', () => {
    const facts = { ...LOCAL, appUrl: 'https://localhost', host: '127.0.0.1', clientAddress: '127.0.0.1' };
    expect(appAddressRedirect('/', facts)).toBe('https://localhost/');
    expect(appAddressRedirect('/', { ...facts, host: '127.0.0.1:443' })).toBeUndefined();
  });
});

describe('appAddressRedirect: a Location a header can carry', () => {
  it('keeps a percent-encoded path and query byte for byte', () => {
    for (const path of ['/?preset=%00', '/?preset=%FF', '/?claim=%E2%82%AC', '/%E2%82%AC?x=%2526']) {
      expect(appAddressRedirect(path, LOCAL), path).toBe(`http://localhost:3000${path}`);
    }
  });

  it('percent-encodes what a header cannot carry, should the path and query come decoded', () => {
    expect(appAddressRedirect('/?preset=\0x', LOCAL)).toBe('http://localhost:3000/?preset=%00x');
    expect(appAddressRedirect('/€?claim=€', LOCAL)).toBe('http://localhost:3000/%E2%82%AC?claim=%E2%82%AC');
    expect(appAddressRedirect('/?x=\uFFFD', LOCAL)).toBe('http://localhost:3000/?x=%EF%BF%BD');
  });
});

describe('appAddressLocation', () => {
  const headers = (location?: string) => new Headers(location === undefined ? {} : { [APP_ADDRESS_HEADER]: location });

  it('is the Location proxy.ts gave, at APP_URL', () => {
    expect(appAddressLocation(headers('http://localhost:3000/result?x=%E2%82%AC'), 'http://localhost:3000')).toBe('http://localhost:3000/result?x=%E2%82%AC');
  });

  it('is none without one, or for one anywhere but at APP_URL', () => {
    expect(appAddressLocation(headers(), 'http://localhost:3000')).toBeUndefined();
    for (const location of ['https://evil.example/', 'http://localhost:30000/', 'http://localhost:3000@evil.example/', 'http://localhost:3000', '/result']) {
      expect(appAddressLocation(headers(location), 'http://localhost:3000'), location).toBeUndefined();
    }
  });
});

describe('appPath', () => {
  it('keeps a path and its query', () => {
    expect(appPath('/result?reveal=1&x=%20')).toBe('/result?reveal=1&x=%20');
  });

  it('turns anything that could leave the origin into "/": a host, a backslash, a scheme, whitespace, nothing', () => {
    for (const path of ['//evil.example/x', '/\\evil.example', '/\\/evil.example', 'https://evil.example/', 'evil', '', '/a b', `/${'a'.repeat(2048)}`]) {
      expect(appPath(path), path).toBe('/');
    }
  });
});

describe('ownInterfaceAddresses', () => {
  it('includes the loopback address', () => {
    expect(ownInterfaceAddresses()).toContain('127.0.0.1');
  });
});
