// Which hosts are this machine, when a plain-http callback to one of them is allowed, and which
// callback URL `kct callbacks listen` suggests for the address it is bound to.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isLocalCallback, isLoopbackHost, loopbackCallbackUrl } from '../../src/cli/core/loopback.js';
import { checkCallbackUrl } from '../../src/commands/batch/refusals.js';
import { propertyRuns, propertySeed } from './property-runs.js';

describe('loopback callbacks', () => {
  it('names this machine only for loopback hosts', () => {
    for (const host of ['localhost', '127.0.0.1', '127.9.9.9', '[::1]', '::ffff:127.0.0.1', 'app.localhost'])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['10.0.0.1', 'example.org', '192.168.1.2', '::']) expect(isLoopbackHost(host), host).toBe(false);
  });

  it('allows plain http only when the callback and the API are both on loopback', () => {
    expect(isLocalCallback(new URL('http://127.0.0.1:8080/'), 'http://127.0.0.1:4010/v1')).toBe(true);
    expect(isLocalCallback(new URL('http://127.0.0.1:8080/'), 'https://api.example/v1')).toBe(false);
    expect(isLocalCallback(new URL('http://hooks.example/'), 'http://127.0.0.1:4010/v1')).toBe(false);
    expect(isLocalCallback(new URL('https://127.0.0.1/'), 'http://127.0.0.1:4010/v1')).toBe(false);
    expect(isLocalCallback(new URL('http://127.0.0.1/'), undefined)).toBe(false);
  });

  it('suggests for any bound address a URL kct batch takes, or none where it takes none', () => {
    const sandbox = 'http://127.0.0.1:4010/v1';
    const bound = fc.oneof(fc.ipV4(), fc.ipV6(), fc.constantFrom('0.0.0.0', '::', '127.0.0.1', '::1', '::ffff:127.0.0.1', '127.8.9.1'));
    fc.assert(
      fc.property(bound, fc.integer({ min: 1, max: 65535 }), (address, port) => {
        const url = loopbackCallbackUrl(address, port);
        const plain = `http://${address.includes(':') ? `[${address}]` : address}:${port}/`;
        if (url === undefined) expect(() => checkCallbackUrl(plain, sandbox)).toThrow(/https/);
        else {
          expect(() => checkCallbackUrl(url, sandbox)).not.toThrow();
          expect(new URL(url).port).toBe(port === 80 ? '' : String(port));
        }
        // a wildcard listens on loopback too: it always has one
        if (['0.0.0.0', '::'].includes(address) || isLoopbackHost(address)) expect(url).toBeDefined();
      }),
      { numRuns: propertyRuns(300), seed: propertySeed(5150) },
    );
    expect(loopbackCallbackUrl('0.0.0.0', 8080)).toBe('http://127.0.0.1:8080/');
    expect(loopbackCallbackUrl('::', 8080)).toBe('http://[::1]:8080/');
    expect(loopbackCallbackUrl('192.168.1.2', 8080)).toBeUndefined();
  });
});
