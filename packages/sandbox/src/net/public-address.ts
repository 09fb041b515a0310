// Outbound requests the sandbox makes on a caller's behalf (batch callbacks, `assets` URLs) must
// never reach loopback, private, link-local or otherwise non-public addresses (SSRF). Checked
// twice: when the URL is accepted, and on the address actually connected to, since DNS can
// change between the two. IP literals skip DNS, so the connector checks them as well.
//
// Public or not is decided by one range table (RANGES below, with the RFC of each entry), on
// top of ipaddr.js's own table of special ranges; IPv6 forms that carry an IPv4 address
// (IPv4-mapped, IPv4-translated, NAT64, 6to4) are judged by the IPv4 address they carry.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Agent } from 'undici';

export class BlockedAddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BlockedAddressError';
  }
}

export interface AddressVerdict {
  public: boolean;
  /** What the address is, e.g. "loopback", "IPv4-compatible IPv6 (deprecated)", "unicast". */
  range: string;
}

type Rule = { cidr: string; range: string } & ({ verdict: 'blocked' } | { verdict: 'embedded'; ipv4: (a: ipaddr.IPv6) => ipaddr.IPv4 });

const lastTwo = (a: ipaddr.IPv6) => ipaddr.IPv4.parse(`${a.parts[6] >> 8}.${a.parts[6] & 0xff}.${a.parts[7] >> 8}.${a.parts[7] & 0xff}`);
const sixToFour = (a: ipaddr.IPv6) => ipaddr.IPv4.parse(`${a.parts[1] >> 8}.${a.parts[1] & 0xff}.${a.parts[2] >> 8}.${a.parts[2] & 0xff}`);

/**
 * IPv6 ranges decided here, most specific first; the first that matches decides. Everything
 * else must be global unicast (2000::/3) and outside ipaddr.js's special ranges.
 */
const RANGES: readonly Rule[] = [
  { cidr: '::/128', range: 'unspecified', verdict: 'blocked' },
  { cidr: '::1/128', range: 'loopback', verdict: 'blocked' },
  { cidr: '::ffff:0:0/96', range: 'IPv4-mapped IPv6', verdict: 'embedded', ipv4: lastTwo }, // RFC 4291
  { cidr: '::ffff:0:0:0/96', range: 'IPv4-translated IPv6', verdict: 'embedded', ipv4: lastTwo }, // RFC 6145
  // Some stacks still route these to the IPv4 address inside: ::127.0.0.1 is loopback there.
  { cidr: '::/96', range: 'IPv4-compatible IPv6 (deprecated)', verdict: 'blocked' }, // RFC 4291 2.5.5.1
  { cidr: '64:ff9b::/96', range: 'NAT64', verdict: 'embedded', ipv4: lastTwo }, // RFC 6052
  { cidr: '64:ff9b:1::/48', range: 'local-use NAT64', verdict: 'blocked' }, // RFC 8215
  { cidr: '2002::/16', range: '6to4', verdict: 'embedded', ipv4: sixToFour }, // RFC 3056
  // The client's address inside is obfuscated and sits behind a NAT: never a callback target.
  { cidr: '2001::/32', range: 'Teredo', verdict: 'blocked' }, // RFC 4380
  { cidr: 'fec0::/10', range: 'site-local (deprecated)', verdict: 'blocked' }, // RFC 3879
  { cidr: 'fc00::/7', range: 'unique-local', verdict: 'blocked' }, // RFC 4193
  { cidr: 'fe80::/10', range: 'link-local', verdict: 'blocked' }, // RFC 4291
  { cidr: 'ff00::/8', range: 'multicast', verdict: 'blocked' }, // RFC 4291
  { cidr: '2001:db8::/32', range: 'documentation', verdict: 'blocked' }, // RFC 3849
  { cidr: '3fff::/20', range: 'documentation', verdict: 'blocked' }, // RFC 9637
  { cidr: '100::/64', range: 'discard-only', verdict: 'blocked' }, // RFC 6666
  { cidr: '5f00::/16', range: 'segment routing', verdict: 'blocked' }, // RFC 9602
];

const PARSED = RANGES.map((rule) => ({ rule, cidr: ipaddr.IPv6.parseCIDR(rule.cidr) }));
const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');

/** Whether an address (as text) is public, and what it is. Anything unparsable is not public. */
export function classifyAddress(ip: string): AddressVerdict {
  const text = ip.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(text)) return { public: false, range: 'not an IP address' };
  return classify(ipaddr.parse(text));
}

function classify(address: ipaddr.IPv4 | ipaddr.IPv6): AddressVerdict {
  if (address.kind() === 'ipv4') {
    // ipaddr.js: unspecified 0/8, broadcast, multicast 224/4, link-local, loopback, CGNAT
    // 100.64/10, private, reserved (192.0.0/24, TEST-NETs, 192.88.99/24, 198.18/15, 240/4), AS112, AMT.
    const range = (address as ipaddr.IPv4).range();
    return { public: range === 'unicast', range };
  }
  const v6 = address as ipaddr.IPv6;
  if (v6.zoneId) return { public: false, range: 'scoped (zone id)' };
  for (const { rule, cidr } of PARSED) {
    if (!v6.match(cidr)) continue;
    if (rule.verdict === 'blocked') return { public: false, range: rule.range };
    const inner = classify(rule.ipv4(v6));
    return { public: inner.public, range: `${rule.range} of ${inner.range} IPv4` };
  }
  if (!v6.match(GLOBAL_UNICAST)) return { public: false, range: 'reserved by IANA' };
  const range = v6.range();
  return { public: range === 'unicast', range };
}

/** Only globally routable unicast addresses are public (see classifyAddress). */
export function isPublicAddress(ip: string): boolean {
  return classifyAddress(ip).public;
}

export interface OutboundPolicy {
  /** Allow loopback/private targets and plain http (local test receivers). */
  allowPrivate: boolean;
}

/** Checks scheme and resolved addresses of a URL; throws BlockedAddressError with the reason. */
export async function assertPublicUrl(raw: string, policy: OutboundPolicy): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BlockedAddressError(`not a URL: ${raw}`);
  }
  if (url.protocol !== 'https:' && !(policy.allowPrivate && url.protocol === 'http:')) {
    throw new BlockedAddressError(`${url.protocol.replace(':', '')} is not allowed: the URL must be https`);
  }
  if (url.username || url.password) throw new BlockedAddressError('URLs with credentials are not allowed');
  if (policy.allowPrivate) return url;
  await publicAddresses(url.hostname);
  return url;
}

/** Every address a host name (or literal) stands for, all public, or a BlockedAddressError naming the first that is not. */
async function publicAddresses(hostname: string): Promise<string[]> {
  const host = hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [host] : await resolveAll(host);
  for (const address of addresses) {
    const verdict = classifyAddress(address);
    if (!verdict.public) {
      const what = address === host ? host : `${hostname} resolves to ${address}, which`;
      throw new BlockedAddressError(`${what} is not a public address (${verdict.range})`);
    }
  }
  return addresses;
}

async function resolveAll(host: string): Promise<string[]> {
  try {
    const found = await lookup(host, { all: true, verbatim: true });
    if (found.length === 0) throw new Error('no addresses');
    return found.map((entry) => entry.address);
  } catch (error) {
    throw new BlockedAddressError(`cannot resolve ${host} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}

/**
 * An undici dispatcher whose every connection is checked: the name is resolved and every
 * address checked, the socket is opened to the checked address, and the address it really
 * reached is checked once more. No redirects are followed by callers using it (undici's
 * `request` does not follow them).
 */
export async function guardedAgent(policy: OutboundPolicy, timeoutMs: number): Promise<Agent> {
  // undici is loaded with the first outbound request: most sandboxes never make one, and loading it
  // at start was a quarter of the sandbox's start-up CPU (docs/benchmarks.md, "Sandbox start-up")
  const { Agent, buildConnector } = await import('undici');
  const connect = buildConnector({ timeout: timeoutMs });
  return new Agent({
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connect(options, callback) {
      if (policy.allowPrivate) {
        connect(options, callback);
        return;
      }
      const host = options.hostname.replace(/^\[|\]$/g, '');
      publicAddresses(options.hostname)
        .then((addresses) => {
          // Connect to the checked address; TLS still verifies the original host name.
          connect(
            { ...options, hostname: addresses[0], servername: options.servername ?? (isIP(host) ? undefined : host) } as typeof options,
            (err, socket) => {
              if (err || !socket) {
                callback(err ?? new Error('no socket'), null);
                return;
              }
              const reached = socket.remoteAddress;
              if (reached === undefined || !isPublicAddress(reached)) {
                socket.destroy();
                callback(
                  new BlockedAddressError(`the connection reached ${reached ?? 'an unknown address'}, which is not a public address`),
                  null,
                );
                return;
              }
              callback(null, socket);
            },
          );
        })
        .catch((error: Error) => callback(error, null));
    },
  });
}
