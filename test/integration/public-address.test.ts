import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { assertPublicUrl, BlockedAddressError, guardedAgent, isPublicAddress } from '../../packages/sandbox/src/net/public-address.js';

describe('isPublicAddress', () => {
  it.each([
    ['127.0.0.1', false],
    ['10.1.2.3', false],
    ['172.16.0.1', false],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['255.255.255.255', false],
    ['224.0.0.1', false],
    ['::1', false],
    ['fe80::1', false],
    ['fc00::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:10.0.0.1', false],
    ['::', false],
    ['8.8.8.8', true],
    ['1.1.1.1', true],
    ['2606:4700:4700::1111', true],
    ['::ffff:8.8.8.8', true],
    ['not an ip', false],
  ])('%s → %s', (ip, expected) => {
    expect(isPublicAddress(ip)).toBe(expected);
  });
});

describe('assertPublicUrl', () => {
  it('refuses loopback, private and mapped literals, plain http, and credentials', async () => {
    for (const url of [
      'https://127.0.0.1/hook',
      'https://[::1]/x',
      'https://[::ffff:127.0.0.1]/x',
      'https://10.0.0.8/x',
      'https://169.254.169.254/latest',
      'https://localhost/x',
      'http://8.8.8.8/x',
      'https://u:p@8.8.8.8/x',
      'ftp://8.8.8.8/x',
      'nonsense',
    ]) {
      await expect(assertPublicUrl(url, { allowPrivate: false }), url).rejects.toBeInstanceOf(BlockedAddressError);
    }
  });

  it('accepts a public https literal, and anything http(s) when private targets are allowed', async () => {
    await expect(assertPublicUrl('https://8.8.8.8/hook', { allowPrivate: false })).resolves.toBeInstanceOf(URL);
    await expect(assertPublicUrl('http://127.0.0.1:9/hook', { allowPrivate: true })).resolves.toBeInstanceOf(URL);
  });
});

describe('guardedAgent', () => {
  it('refuses to connect to a loopback server unless private targets are allowed', async () => {
    let hits = 0;
    const server = createServer((_, res) => {
      hits += 1;
      res.end('ok');
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    try {
      const blocked = await guardedAgent({ allowPrivate: false }, 2000);
      await expect(request(url, { dispatcher: blocked })).rejects.toThrow(/not a public address/);
      expect(hits).toBe(0);
      await blocked.close();
      const allowed = await guardedAgent({ allowPrivate: true }, 2000);
      const response = await request(url, { dispatcher: allowed });
      expect(await response.body.text()).toBe('ok');
      expect(hits).toBe(1);
      await allowed.close();
    } finally {
      server.close();
    }
  });
});
