// Whether a URL points at this machine: kct lets a batch callback be plain http only when both
// the API (a local sandbox) and the receiver are on loopback (README, "Callbacks").
import ipaddr from 'ipaddr.js';

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (!ipaddr.isValid(host)) return false;
  let address = ipaddr.parse(host);
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) address = (address as ipaddr.IPv6).toIPv4Address();
  return address.range() === 'loopback';
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
