// Whether a URL points at this machine: kct lets a batch callback be plain http only when both
// the API (a local sandbox) and the receiver are on loopback (docs/guides/batch-and-callbacks.md). The ranges are
// Node's own (net.BlockList): 127.0.0.0/8, ::1, and IPv4 loopback written as IPv4-mapped IPv6.
import { BlockList, isIP } from 'node:net';

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');
LOOPBACK.addSubnet('::ffff:127.0.0.0', 104, 'ipv6');

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const family = isIP(host);
  if (family === 0) return false;
  return LOOPBACK.check(host, family === 4 ? 'ipv4' : 'ipv6');
}

/** A plain-http callback to this machine, for a sandbox that also runs here. */
export function isLocalCallback(callback: URL, baseUrl: string | undefined): boolean {
  if (callback.protocol !== 'http:' || baseUrl === undefined) return false;
  try {
    return isLoopbackHost(callback.hostname) && isLoopbackHost(new URL(baseUrl).hostname);
  } catch {
    return false;
  }
}

/** Addresses that listen on every address of their family, loopback included. */
const WILDCARD = new BlockList();
WILDCARD.addAddress('0.0.0.0', 'ipv4');
WILDCARD.addAddress('::', 'ipv6');

/**
 * The plain-http callback URL of a receiver bound to this address that isLocalCallback lets a batch
 * use: its own address when loopback; a wildcard (0.0.0.0, ::) listens on loopback too, so that of its
 * family; none for any other address (plain http there is refused).
 */
export function loopbackCallbackUrl(address: string, port: number): string | undefined {
  const host = address.replace(/^\[|\]$/g, '').toLowerCase();
  const family = isIP(host);
  const wildcard = family !== 0 && WILDCARD.check(host, family === 4 ? 'ipv4' : 'ipv6');
  const reachable = wildcard ? (family === 4 ? '127.0.0.1' : '::1') : isLoopbackHost(host) ? host : undefined;
  if (reachable === undefined) return undefined;
  return `http://${isIP(reachable) === 6 ? `[${reachable}]` : reachable}:${port}/`;
}
