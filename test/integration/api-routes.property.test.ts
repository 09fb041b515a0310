// kct api and the library against a real sandbox behind a recording proxy: a route that leads
// outside the base URL (.., %2e%2e, another origin) is refused with exit 2 and never sent with the
// key; -f and -F array items keep the order given.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/api/errors.js';
import { HttpClient } from '../../src/client/http.js';
import { VERSION } from '../../src/version.js';
import { propertyRuns, propertySeed } from '../unit/property-runs.js';
import { ROUTE_PIECES, staysUnder } from '../unit/route-reading.js';
import { type CountingProxy, startCountingProxy } from './counting-proxy.js';
import { useSandbox } from './harness.js';

const shared = useSandbox();
const RUNS = propertyRuns(40);
const SEED = propertySeed(13);
let proxy: CountingProxy;

beforeAll(async () => {
  proxy = await startCountingProxy(shared.sandbox.baseUrl);
});
afterAll(async () => {
  await proxy?.close();
});

const route = fc
  .tuple(fc.constantFrom('', '/'), fc.array(fc.constantFrom(...ROUTE_PIECES), { minLength: 1, maxLength: 6 }))
  .map(([lead, pieces]) => lead + pieces.join(''));

/** Every request the proxy saw since `from` (all carry the key), as URLs. */
const seenSince = (from: number) => proxy.requests.slice(from).map((request) => new URL(request.path, proxy.baseUrl));

describe('kct api: routes outside the base URL', () => {
  it('refuses .., %2e%2e and encoded separators that leave the base path (exit 2, saying why), sending nothing', async () => {
    for (const path of ['../credits', '/%2e%2e/credits', '/v1/../credits', 'x/..%2F..%2Fcredits', '..']) {
      const from = proxy.requests.length;
      const run = await shared.kct(['api', path, '--base-url', proxy.baseUrl, '--debug']);
      expect(run.code, path).toBe(2);
      expect(run.stderr, path).toMatch(/leads outside the base URL .*: the key is sent only under it/);
      expect(run.stderr, path).not.toContain('> GET');
      expect(proxy.requests.length, path).toBe(from);
    }
    // a route whose .. stays under the base URL goes there
    const from = proxy.requests.length;
    const inside = await shared.kct(['api', '/models/../credits', '--base-url', proxy.baseUrl]);
    expect(inside.code, inside.stderr).toBe(0);
    expect(proxy.requests.slice(from).map((request) => request.path)).toEqual(['/v1/credits']);
  });

  it(`property: whatever the route, every request kct api sends is under the base URL (seed ${SEED}, ${RUNS} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(route, async (path) => {
        const from = proxy.requests.length;
        const run = await shared.kct(['api', path, '--base-url', proxy.baseUrl]);
        for (const url of seenSince(from)) expect(staysUnder(url, proxy.baseUrl), `kct api ${path} sent ${url.href}`).toBe(true);
        if (proxy.requests.length === from) expect(run.code, `${path}: ${run.stderr}`).toBe(2);
        expect(run.stderr + run.stdout).not.toContain(shared.sandbox.keys.user);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it(`property: the library's HttpClient sends the key only under its base URL (seed ${SEED}, ${RUNS * 5} runs)`, async () => {
    const http = new HttpClient({
      baseUrl: proxy.baseUrl,
      apiKey: shared.sandbox.keys.user,
      userAgent: `kct/${VERSION}`,
      retry: { maxRetries: 0 },
    });
    try {
      await fc.assert(
        fc.asyncProperty(route, async (path) => {
          const from = proxy.requests.length;
          const outcome = await http.send({ method: 'GET', path }).then(
            () => undefined,
            (error: unknown) => error,
          );
          for (const url of seenSince(from)) expect(staysUnder(url, proxy.baseUrl), `${path} sent ${url.href}`).toBe(true);
          if (proxy.requests.length === from) expect(outcome, path).toBeInstanceOf(UsageError);
        }),
        { seed: SEED, numRuns: RUNS * 5 },
      );
    } finally {
      await http.close();
    }
  });
});

describe('kct api: -f and -F', () => {
  it('key[]= items keep the order given across -f and -F, in the query and in a JSON body', async () => {
    const get = await shared.kct(['api', 'GET', '/models', '-f', 'x[]=1', '-F', 'x[]=2', '-f', 'x[]=3', '-F', 'x[]=true', '--debug']);
    expect(get.code, get.stderr).toBe(0);
    expect(get.stderr).toContain('/v1/models?x=1&x=2&x=3&x=true\n');
    const post = await shared.kct(['api', 'POST', '/feedback-rewrite', '-F', 'x[]=2', '-f', 'x[]=1', '-F', 'x[]=null', '--debug']);
    expect(post.stderr).toContain('> {"x":[2,"1",null]}');
  });
});
