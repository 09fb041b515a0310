// A test's own reading of where a request went, for the properties about routes under the base URL:
// segment by segment, as sent and with %XX decoded once, slashes and backslashes alike.

/** What generated routes are made of: dot segments as typed and encoded, separators, other hosts. */
export const ROUTE_PIECES = [
  '..',
  '.',
  '%2e%2e',
  '%2E.',
  '.%2e',
  '%2f',
  '%2F',
  '%5c',
  '\\',
  '/',
  '//',
  'credits',
  'models',
  'v1',
  'x',
  '?',
  '#',
  '@',
  ':',
  'evil.com',
  'https://evil.com/',
  '%25',
];

/** Whether `url` stays on the base's origin, under its path, as sent and as a server decoding %XX once reads it. */
export function staysUnder(url: URL, base: string): boolean {
  const root = new URL(base);
  if (url.origin !== root.origin) return false;
  const rootSegments = root.pathname.split('/').filter(Boolean);
  const walk = (path: string): boolean => {
    const segments = path.split(/[/\\]/).filter((segment) => segment !== '' && segment !== '.');
    const stack: string[] = [];
    for (const segment of segments) {
      if (segment === '..') stack.pop();
      else stack.push(segment);
    }
    return rootSegments.every((segment, i) => stack[i] === segment);
  };
  const decoded = url.pathname.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return walk(url.pathname) && walk(decoded.replace(/[?#].*$/, ''));
}
