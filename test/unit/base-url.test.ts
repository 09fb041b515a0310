// Where a route goes under the base URL, and what a base URL may be: a route leading outside the
// base URL (.., %2e%2e, another origin) is refused before anything is sent, so the key stays under it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/api/errors.js';
import { routePath } from '../../src/cli/core/api-request.js';
import { checkConfigValue } from '../../src/cli/core/config-keys.js';
import { checkBaseUrl, routeUrl } from '../../src/client/base-url.js';
import { propertyRuns, propertySeed } from './property-runs.js';
import { ROUTE_PIECES, staysUnder } from './route-reading.js';

const RUNS = propertyRuns(300);
const SEED = propertySeed(13);
const BASE = 'http://127.0.0.1:4010/v1';

const route = fc
  .tuple(fc.constantFrom('', '/'), fc.array(fc.constantFrom(...ROUTE_PIECES, `${BASE}/`), { minLength: 1, maxLength: 8 }))
  .map(([lead, pieces]) => lead + pieces.join(''));

describe('routes under the base URL', () => {
  it('refuses routes that leave it, as typed or encoded; keeps those that stay', () => {
    for (const path of [
      '/../credits',
      '/..',
      '/%2e%2e/credits',
      '/.%2E/credits',
      '/x/../../credits',
      '/%2F..%2Fcredits',
      '/x/..%5C..%5Ccredits',
      '\\..\\credits',
    ])
      expect(() => routeUrl(BASE, path), path).toThrow(/leads outside the base URL/);
    expect(() => routeUrl('http://h', '@evil.com/x')).toThrow(UsageError);
    expect(() => routeUrl('http://h', '.evil.com/x')).toThrow(/to http:\/\/h.evil.com/);
    expect(routeUrl(BASE, '/credits').href).toBe(`${BASE}/credits`);
    expect(routeUrl(BASE, '/models/../credits?x=1').href).toBe(`${BASE}/credits?x=1`);
    expect(routeUrl(`${BASE}/`, '/credits').href).toBe(`${BASE}/credits`);
    expect(routeUrl('http://h', '/../credits').href).toBe('http://h/credits');
    // a route without its / is said as that, not as one that leaves (it would be /v1credits)
    expect(() => routeUrl(BASE, 'credits')).toThrow(/the route credits does not start with \//);
  });

  it(`property: a route kct api or the library sends is under the base URL, and one that stays under is sent (seed ${SEED}, ${RUNS} runs)`, () => {
    fc.assert(
      fc.property(route, (path) => {
        // the library: the path as given
        let sent: URL | undefined;
        try {
          sent = routeUrl(BASE, path);
        } catch (error) {
          expect(error).toBeInstanceOf(UsageError);
        }
        const plain = URL.canParse(BASE + path) ? new URL(BASE + path) : undefined;
        if (sent) expect(staysUnder(sent, BASE), `${path} -> ${sent.href}`).toBe(true);
        else if (plain) expect(staysUnder(plain, BASE), `${path} refused`).toBe(false);
        // kct api: its argument, made relative to the base URL first
        let apiUrl: URL | undefined;
        try {
          apiUrl = routeUrl(BASE, routePath(path, BASE));
        } catch (error) {
          expect(error).toBeInstanceOf(UsageError);
        }
        if (apiUrl) expect(staysUnder(apiUrl, BASE), `kct api ${path} -> ${apiUrl.href}`).toBe(true);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

describe('base URL forms', () => {
  it('a query or a fragment is refused wherever the base URL is set, with the URL to use', () => {
    expect(() => checkBaseUrl(`${BASE}?x=1`)).toThrow(`the base URL ${BASE}?x=1 has a query (?x=1)`);
    expect(() => checkBaseUrl(`${BASE}#top`)).toThrow(/has a fragment \(#top\)/);
    expect(() => checkBaseUrl(`${BASE}/?`)).toThrow(/has a query/);
    try {
      checkBaseUrl(`${BASE}/?x=1`);
    } catch (error) {
      expect((error as UsageError).suggestion).toContain(`Use ${BASE} `);
    }
    expect(() => checkConfigValue('base_url', `${BASE}?x=1`)).toThrow(/^base_url .* has a query/);
    expect(() => checkConfigValue('product_url', 'http://127.0.0.1:4010#x')).toThrow(/^product_url .* has a fragment/);
    expect(checkConfigValue('base_url', `${BASE}/`)).toBe(BASE);
    expect(checkBaseUrl(BASE).pathname).toBe('/v1');
    expect(() => checkBaseUrl('ftp://h/v1')).toThrow(/must use http or https, not ftp/);
  });
});
