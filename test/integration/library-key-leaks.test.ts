// The library never holds its key where a log can print it: not in util.inspect or JSON.stringify of
// a client, nor in any field of an error (its body and headers included), whatever a server echoes
// back. A service that logs its client, or an error it caught, logs no key (docs/library.md).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KctClient } from '../../src/index.js';
import { propertyRuns, propertySeed } from '../unit/property-runs.js';

const KEY = 'kct_live_0123456789abcdefLEAKME';

/** A server that echoes the key it was sent back in the way the test asks: a JSON body, a header, an HTML page. */
let server: Server;
let baseUrl: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    const key = String(req.headers['x-api-key']);
    const [, how, status] = /\/echo\/(\w+)\/(\d+)/.exec(req.url ?? '') ?? [];
    const code = Number(status);
    if (how === 'html') {
      res.writeHead(code, { 'content-type': 'text/html', 'x-echo-key': key });
      res.end(`<html><body><h1>Error</h1><p>bad key ${key}</p></body></html>`);
      return;
    }
    // the request id too: from a header, or from the body
    const requestId = how === 'header' ? { 'x-request-id': `req_${key}` } : {};
    res.writeHead(code, { 'content-type': 'application/json', 'x-echo-key': key, 'set-cookie': `session=${key}`, ...requestId });
    res.end(
      JSON.stringify({
        error: { code: 'invalid_api_key', message: `key ${key} is not valid`, status: code, details: { key, keys: [key] } },
        request_id: `req_${key}`,
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const shown = (value: unknown) => [inspect(value, { depth: Infinity, showHidden: true }), JSON.stringify(value) ?? '', String(value)];

describe('the API key, in what a library user might log', () => {
  it('is not in util.inspect, JSON.stringify or String of a client', () => {
    const client = new KctClient({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: KEY });
    for (const text of [...shown(client), ...shown(client.http)]) expect(text).not.toContain(KEY);
  });

  it(`is in no field of an error, whatever the server echoes (seed ${propertySeed(4141)})`, async () => {
    const client = new KctClient({ baseUrl, apiKey: KEY, retry: { maxRetries: 0 } });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('json', 'header', 'html'), fc.constantFrom(400, 401, 403, 404, 409, 500), async (how, status) => {
        const error = await client.http.send({ method: 'GET', path: `/echo/${how}/${status}` }).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(Error);
        for (const text of shown(error)) expect(text, `${how} ${status}`).not.toContain(KEY);
      }),
      { numRuns: propertyRuns(12), seed: propertySeed(4141) },
    );
    await client.close();
  });

  it(`is in no answer the client returns, whatever the server echoes in a success (seed ${propertySeed(4142)})`, async () => {
    const client = new KctClient({ baseUrl, apiKey: KEY, retry: { maxRetries: 0 } });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('json', 'header'), fc.constantFrom(200, 201, 202), async (how, status) => {
        const response = await client.http.send({ method: 'GET', path: `/echo/${how}/${status}` });
        for (const text of [...shown(response.body), ...shown(response.data)]) {
          expect(text, `${how} ${status}`).not.toContain(KEY);
          expect(text, `${how} ${status}`).not.toContain(KEY.slice('kct_live_'.length));
        }
        expect(JSON.stringify(response.body)).toContain('[redacted]');
      }),
      { numRuns: propertyRuns(6), seed: propertySeed(4142) },
    );
    await client.close();
  });
});
