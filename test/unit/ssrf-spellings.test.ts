// SSRF: the verdict on every spelling of an address a caller may put in a callback_url or an
// asset URL (decimal, hex, octal, short forms, bracketed IPv6 with embedded IPv4, credentials,
// trailing dots), at acceptance (assertPublicUrl) and on the address a connection would use
// (classifyAddress of the host the URL parser produced, which is what the connector checks).
// The same spellings refused by a running sandbox's batch route: test/integration/ssrf-batch-route.test.ts.
import { request } from 'undici';
import { describe, expect, test } from 'vitest';
import { assertPublicUrl, BlockedAddressError, classifyAddress, guardedAgent } from '../../packages/sandbox/src/net/public-address.js';

type Verdict = 'public' | 'blocked';

// [URL, verdict, what it is]
const SPELLINGS: [string, Verdict, string][] = [
  // IPv4 loopback, every way the URL parser accepts it
  ['https://127.0.0.1/', 'blocked', 'loopback'],
  ['https://127.1/', 'blocked', 'loopback, short form'],
  ['https://127.0.1/', 'blocked', 'loopback, short form'],
  ['https://2130706433/', 'blocked', 'loopback, decimal'],
  ['https://0x7f000001/', 'blocked', 'loopback, hex'],
  ['https://0x7f.0x0.0x0.0x1/', 'blocked', 'loopback, hex parts'],
  ['https://0x7f.1/', 'blocked', 'loopback, hex short'],
  ['https://0177.0.0.1/', 'blocked', 'loopback, octal'],
  ['https://017700000001/', 'blocked', 'loopback, octal whole'],
  ['https://0177.1/', 'blocked', 'loopback, octal short'],
  ['https://127.000.000.001/', 'blocked', 'loopback, zero padded'],
  ['https://127.0.0.1./', 'blocked', 'loopback, trailing dot'],
  ['https://127.255.255.254/', 'blocked', 'loopback, end of 127/8'],
  ['https://%31%32%37.0.0.1/', 'blocked', 'loopback, percent-encoded'],
  ['https://127\u30020\u30020\u30021/', 'blocked', 'loopback, ideographic full stops'],
  ['https://localhost/', 'blocked', 'name resolving to loopback'],
  ['https://LOCALHOST./', 'blocked', 'name, upper case, trailing dot'],
  ['https://localhost:8443/cb', 'blocked', 'name with port'],
  ['https://127.0.0.1:443/cb?x=1', 'blocked', 'loopback with port and query'],
  // unspecified, private, link-local, CGNAT
  ['https://0/', 'blocked', '0.0.0.0, one number'],
  ['https://0.0.0.0/', 'blocked', 'unspecified'],
  ['https://0x0/', 'blocked', 'unspecified, hex'],
  ['https://10.0.0.1/', 'blocked', 'private 10/8'],
  ['https://10.255.255.255/', 'blocked', 'private 10/8, end'],
  ['https://012.0.0.1/', 'blocked', 'private 10/8, octal'],
  ['https://167772161/', 'blocked', 'private 10/8, decimal'],
  ['https://172.16.0.1/', 'blocked', 'private 172.16/12'],
  ['https://172.31.255.255/', 'blocked', 'private 172.16/12, end'],
  ['https://192.168.0.1/', 'blocked', 'private 192.168/16'],
  ['https://0xc0a80001/', 'blocked', 'private 192.168/16, hex'],
  ['https://169.254.169.254/', 'blocked', 'link-local (cloud metadata)'],
  ['https://2852039166/', 'blocked', 'link-local, decimal'],
  ['https://100.64.0.1/', 'blocked', 'CGNAT 100.64/10'],
  ['https://100.127.255.255/', 'blocked', 'CGNAT, end'],
  // special-purpose IPv4
  ['https://192.0.0.8/', 'blocked', 'IETF protocol assignments 192.0.0/24'],
  ['https://192.0.2.1/', 'blocked', 'TEST-NET-1'],
  ['https://198.51.100.7/', 'blocked', 'TEST-NET-2'],
  ['https://203.0.113.9/', 'blocked', 'TEST-NET-3'],
  ['https://198.18.0.1/', 'blocked', 'benchmarking 198.18/15'],
  ['https://198.19.255.255/', 'blocked', 'benchmarking, end'],
  ['https://224.0.0.1/', 'blocked', 'multicast'],
  ['https://239.255.255.250/', 'blocked', 'multicast (SSDP)'],
  ['https://240.0.0.1/', 'blocked', 'reserved 240/4'],
  ['https://255.255.255.255/', 'blocked', 'broadcast'],
  ['https://192.88.99.1/', 'blocked', '6to4 relay anycast'],
  // IPv6
  ['https://[::1]/', 'blocked', 'IPv6 loopback'],
  ['https://[0:0:0:0:0:0:0:1]/', 'blocked', 'IPv6 loopback, long form'],
  ['https://[::]/', 'blocked', 'IPv6 unspecified'],
  ['https://[::127.0.0.1]/', 'blocked', 'IPv4-compatible loopback (the reported bypass)'],
  ['https://[::7f00:1]/', 'blocked', 'IPv4-compatible loopback, hex'],
  ['https://[::10.0.0.1]/', 'blocked', 'IPv4-compatible private'],
  ['https://[::8.8.8.8]/', 'blocked', 'IPv4-compatible, deprecated even for a public IPv4'],
  ['https://[::ffff:127.0.0.1]/', 'blocked', 'IPv4-mapped loopback'],
  ['https://[::ffff:7f00:1]/', 'blocked', 'IPv4-mapped loopback, hex'],
  ['https://[0:0:0:0:0:ffff:127.0.0.1]/', 'blocked', 'IPv4-mapped loopback, long form'],
  ['https://[::ffff:10.0.0.1]/', 'blocked', 'IPv4-mapped private'],
  ['https://[::ffff:169.254.169.254]/', 'blocked', 'IPv4-mapped link-local'],
  ['https://[::ffff:0:127.0.0.1]/', 'blocked', 'IPv4-translated loopback'],
  ['https://[64:ff9b::127.0.0.1]/', 'blocked', 'NAT64 of loopback'],
  ['https://[64:ff9b::a00:1]/', 'blocked', 'NAT64 of 10.0.0.1'],
  ['https://[64:ff9b:1::808:808]/', 'blocked', 'local-use NAT64'],
  ['https://[2002:7f00:1::]/', 'blocked', '6to4 of loopback'],
  ['https://[2002:c0a8:101::1]/', 'blocked', '6to4 of 192.168.1.1'],
  ['https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', 'blocked', 'Teredo'],
  ['https://[2001::1]/', 'blocked', 'Teredo prefix'],
  ['https://[fec0::1]/', 'blocked', 'site-local (deprecated)'],
  ['https://[fc00::1]/', 'blocked', 'unique-local'],
  ['https://[fd12:3456:789a::1]/', 'blocked', 'unique-local fd00::/8'],
  ['https://[fe80::1]/', 'blocked', 'link-local'],
  ['https://[ff02::1]/', 'blocked', 'multicast'],
  ['https://[2001:db8::1]/', 'blocked', 'documentation'],
  ['https://[3fff::1]/', 'blocked', 'documentation (RFC 9637)'],
  ['https://[100::1]/', 'blocked', 'discard-only'],
  ['https://[5f00::1]/', 'blocked', 'segment routing'],
  ['https://[4000::1]/', 'blocked', 'outside global unicast 2000::/3'],
  ['https://[2001:2::1]/', 'blocked', 'benchmarking'],
  // refused for what else they are
  ['http://8.8.8.8/', 'blocked', 'plain http'],
  ['https://user:pass@8.8.8.8/', 'blocked', 'credentials'],
  ['https://user@8.8.8.8/', 'blocked', 'user name'],
  ['https://8.8.8.8:443@127.0.0.1/', 'blocked', 'credentials hiding the real host'],
  ['ftp://8.8.8.8/', 'blocked', 'another scheme'],
  ['https://[fe80::1%25eth0]/', 'blocked', 'zone id (not a valid URL)'],
  ['not a url', 'blocked', 'not a URL'],
  ['https://name.invalid/', 'blocked', 'a name that does not resolve'],
  // public
  ['https://8.8.8.8/', 'public', 'public IPv4'],
  ['https://134744072/', 'public', 'public, decimal'],
  ['https://0x08080808/', 'public', 'public, hex'],
  ['https://0x8.0x8.0x8.0x8/', 'public', 'public, hex parts'],
  ['https://010.010.010.010/', 'public', 'public, octal'],
  ['https://1.1.1.1./', 'public', 'public, trailing dot'],
  ['https://8.8.8.8:8443/cb', 'public', 'public with port'],
  ['https://[2606:4700:4700::1111]/', 'public', 'public IPv6'],
  ['https://[2001:4860:4860::8888]/', 'public', 'public IPv6'],
  ['https://[::ffff:8.8.8.8]/', 'public', 'IPv4-mapped public'],
  ['https://[64:ff9b::808:808]/', 'public', 'NAT64 of a public IPv4'],
  ['https://[2002:808:808::1]/', 'public', '6to4 of a public IPv4'],
  ['https://100.63.255.255/', 'public', 'just below CGNAT'],
  ['https://100.128.0.0/', 'public', 'just above CGNAT'],
  ['https://172.15.255.255/', 'public', 'just below 172.16/12'],
  ['https://172.32.0.0/', 'public', 'just above 172.16/12'],
  ['https://192.167.255.255/', 'public', 'just below 192.168/16'],
  ['https://11.0.0.1/', 'public', 'just above 10/8'],
  ['https://169.253.255.255/', 'public', 'just below link-local'],
  ['https://223.255.255.254/', 'public', 'just below multicast'],
];

describe('SSRF verdicts on URL spellings', () => {
  test('the table holds at least 80 spellings', () => {
    expect(SPELLINGS.length).toBeGreaterThanOrEqual(80);
  });

  test.each(SPELLINGS)('%s → %s (%s)', async (url, verdict) => {
    const accepted = await assertPublicUrl(url, { allowPrivate: false }).then(
      () => 'public' as const,
      (err: unknown) => {
        expect(err).toBeInstanceOf(BlockedAddressError);
        return 'blocked' as const;
      },
    );
    expect(accepted).toBe(verdict);
    // What the connector checks: the host as the URL parser gives it.
    let host: string | undefined;
    try {
      host = new URL(url).hostname;
    } catch {
      host = undefined;
    }
    const literal = host !== undefined && /^[\d.]+$|^\[/.test(host);
    if (literal && verdict === 'public') expect(classifyAddress(host!).public).toBe(true);
    if (literal && verdict === 'blocked' && url.startsWith('https://') && !url.includes('@'))
      expect(classifyAddress(host!).public).toBe(false);
  });

  test('the connector refuses every blocked literal before opening a socket', async () => {
    const agent = await guardedAgent({ allowPrivate: false }, 2_000);
    try {
      const literals = SPELLINGS.filter(
        ([url, verdict]) => verdict === 'blocked' && /^https:\/\/(\[|[\d.]+[/:])/.test(url) && !url.includes('@') && !url.includes('%25'),
      );
      expect(literals.length).toBeGreaterThan(50);
      for (const [url] of literals) {
        const err = await request(url.replace('https:', 'http:'), { dispatcher: agent }).catch((e: unknown) => e);
        expect(err, url).toBeInstanceOf(BlockedAddressError);
      }
    } finally {
      await agent.close();
    }
  });

  test('a refusal says what the address is', async () => {
    await expect(assertPublicUrl('https://[::127.0.0.1]/cb', { allowPrivate: false })).rejects.toThrow(
      '::7f00:1 is not a public address (IPv4-compatible IPv6 (deprecated))',
    );
    await expect(assertPublicUrl('https://[64:ff9b::a00:1]/cb', { allowPrivate: false })).rejects.toThrow('(NAT64 of private IPv4)');
    await expect(assertPublicUrl('https://localhost/cb', { allowPrivate: false })).rejects.toThrow(
      'localhost resolves to 127.0.0.1, which is not a public address (loopback)',
    );
  });
});
