// Which hosts are this machine, and when a plain-http callback to one of them is allowed.
import { describe, expect, it } from 'vitest';
import { isLocalCallback, isLoopbackHost } from '../../src/cli/core/loopback.js';

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
});
