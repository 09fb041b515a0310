// Outbound requests the sandbox makes on a caller's behalf (batch callbacks, `assets` URLs) must
// never reach loopback, private, link-local or otherwise non-public addresses (SSRF). Checked
// twice: when the URL is accepted, and on the address actually connected to, since DNS can
// change between the two. IP literals skip DNS, so the connector checks them as well.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, buildConnector } from 'undici';

export class BlockedAddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BlockedAddressError';
  }
}

/** Only globally routable unicast addresses are public; IPv4-mapped IPv6 is judged as IPv4. */
export function isPublicAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return false;
  let address = ipaddr.parse(ip);
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
    address = (address as ipaddr.IPv6).toIPv4Address();
  }
  return address.range() === 'unicast';
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
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [host] : await resolveAll(host);
  const blocked = addresses.find((address) => !isPublicAddress(address));
  if (blocked !== undefined) throw new BlockedAddressError(`${url.hostname} resolves to ${blocked}, which is not a public address`);
  return url;
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
 * An undici dispatcher whose every connection is checked on the address it really connects
 * to. No redirects are followed by callers using it (undici's `request` does not follow them).
 */
export function guardedAgent(policy: OutboundPolicy, timeoutMs: number): Agent {
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
      const pick = isIP(host) ? Promise.resolve([host]) : resolveAll(host);
      pick.then((addresses) => {
        const blocked = addresses.find((address) => !isPublicAddress(address));
        if (blocked !== undefined) throw new BlockedAddressError(`${host} resolves to ${blocked}, which is not a public address`);
        // Connect to the checked address; TLS still verifies the original host name.
        connect({ ...options, hostname: addresses[0], servername: options.servername ?? (isIP(host) ? undefined : host) } as typeof options, callback);
      }).catch((error: Error) => callback(error, null));
    },
  });
}
