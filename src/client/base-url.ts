// What a base URL may be, and where a route under it goes: the one place that decides both, so a
// request that carries the key goes only under the base URL the user set (network.md, "Any route").
import { UsageError } from '../api/errors.js';

/**
 * The base URL, checked: http or https, with no query or fragment (each route is added after its
 * path, so `?x=1` would end up in front of the route). `name` is what the message calls it, `form` its
 * example, and `suggestion` how to give another (kct config set says its own command).
 */
export function checkBaseUrl(value: string, name = 'the base URL', form = 'https://host/v1', suggestion = `Use the form ${form}`): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${name} must be a URL such as ${form}, not "${value}"`, { suggestion });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new UsageError(`${name} must use http or https, not ${url.protocol.replace(/:$/, '')}`, { suggestion });
  const at = value.search(/[?#]/);
  if (at >= 0) {
    const query = value[at] === '?';
    throw new UsageError(
      `${name} ${value} has ${query ? 'a query' : 'a fragment'} (${value.slice(at)}): kct adds each route after its path, so it takes none`,
      { suggestion: `Use ${value.slice(0, at).replace(/\/+$/, '')}${query ? ' (a query belongs to one request, e.g. /models?x=1)' : ''}.` },
    );
  }
  return url;
}

/** A route whose segments hold no dot, percent sign, backslash or empty segment: under its base URL by construction. */
const PLAIN_ROUTE = /^(?:\/[A-Za-z0-9_~-]+)*\/?(?:\?[^#]*)?$/;

/**
 * Where `path` (from the base URL, e.g. /credits) goes: refused, before anything is sent, when it
 * leads outside the base URL: another origin, or out of its path by `..` (as typed or percent-encoded).
 */
export function routeUrl(baseUrl: string, path: string): URL {
  const url = new URL(baseUrl.replace(/\/+$/, '') + path);
  // a route of plain segments (every one kct builds, once per request) cannot leave: nothing more to read
  if (PLAIN_ROUTE.test(path)) return url;
  const base = new URL(baseUrl);
  if (!isUnder(url, base)) {
    // "credits" is joined as /v1credits: said as what it is, not as a route that leaves
    if (/^[A-Za-z0-9_~-]/.test(path) && url.origin === base.origin)
      throw new UsageError(`the route ${path} does not start with /`, { suggestion: `Give it from the base URL: /${path}` });
    const where = url.origin === base.origin ? url.pathname : url.origin;
    throw new UsageError(`the route ${path} leads outside the base URL ${baseUrl} (to ${where}): the key is sent only under it`, {
      suggestion: 'Give a route under the base URL without .. segments, e.g. /credits; for another API, change the base URL.',
    });
  }
  return url;
}

/**
 * Same origin, and the path under the base path: as sent, and as a server that merges repeated
 * slashes, reads a backslash as / or decodes %2F, %5C or %2E once would read it.
 */
function isUnder(url: URL, base: URL): boolean {
  if (url.origin !== base.origin) return false;
  const merged = (path: string) => path.replace(/[/\\]+/g, '/');
  const root = merged(base.pathname).replace(/\/+$/, '');
  const inside = (path: string) => root === '' || path === root || path.startsWith(`${root}/`);
  // decoded byte by byte (only / \ . matter here); a decoded ? or # is part of the path, not the query
  const decoded = url.pathname
    .replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
    .replace(/[?#]/g, '_');
  return inside(url.pathname) && [url.pathname, decoded].every((path) => inside(new URL(merged(path), base.origin).pathname));
}
