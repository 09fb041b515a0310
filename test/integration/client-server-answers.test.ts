import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, KctError } from '../../src/api/errors.js';
import { KctClient } from '../../src/client/client.js';
import { findList, listFrom } from '../../src/client/envelope.js';

const KEY = 'kct_live_S3cr3tValue_0123456789abcdef';
const servers: Server[] = [];
const clients: KctClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

async function clientFor(handler: (url: string, res: ServerResponse) => void): Promise<KctClient> {
  const server = createServer((req, res) => handler(req.url ?? '', res));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const client = new KctClient({
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    apiKey: KEY,
    env: {},
    retry: { maxRetries: 0 },
  });
  clients.push(client);
  return client;
}

function reply(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type });
  res.end(body);
}

describe('findList', () => {
  it('tells an empty list from no list at all', () => {
    expect(findList([])).toEqual([]);
    expect(findList({ items: [] })).toEqual([]);
    expect(findList({ data: null }, ['data'])).toEqual([]);
    expect(findList({ total: 0 })).toEqual([]);
    expect(findList({ hello: 'world' })).toBeUndefined();
    expect(findList('<html>')).toBeUndefined();
    expect(findList(undefined)).toBeUndefined();
    expect(listFrom({ hello: 'world' })).toEqual([]);
  });
});

describe('KctClient: answers that are not the API', () => {
  it('a 2xx HTML page is an unknown answer naming the base URL', async () => {
    const client = await clientFor((_url, res) => reply(res, 200, 'text/html', '<!doctype html><html><body>hi</body></html>'));
    const error = await client.credits().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(KctError);
    expect(error).not.toBeInstanceOf(ApiError);
    expect((error as KctError).code).toBe('unknown_answer');
    expect((error as KctError).message).toContain(`the server at ${client.baseUrl} did not answer like the Public Evaluation API`);
    expect((error as KctError).suggestion).toContain('/v1');
  });

  it('reads credits liberally, and refuses JSON with no credit number', async () => {
    const bodies: Record<string, string> = { '/v1/credits': '{"data":{"balance":"12"}}' };
    const client = await clientFor((url, res) => reply(res, 200, 'application/json', bodies[url] ?? '{"ok":true}'));
    expect((await client.credits()).credits).toBe(12);
    bodies['/v1/credits'] = '{"credits":{"available":3,"reserved":1}}';
    expect((await client.credits()).credits).toBe(3);
    bodies['/v1/credits'] = '"7"';
    expect((await client.credits()).credits).toBe(7);
    bodies['/v1/credits'] = '{"ok":true}';
    await expect(client.credits()).rejects.toMatchObject({ code: 'unknown_answer' });
  });

  it('an HTML error page becomes one short line with a hint about the base URL', async () => {
    const client = await clientFor((_url, res) => reply(res, 404, 'text/html', `<html>\n${'<p>x</p>\n'.repeat(100)}</html>`));
    const error = (await client.models().catch((caught: unknown) => caught)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe("HTTP 404 Not Found from GET /models (the server answered with an HTML page, not the API's JSON)");
    expect(error.suggestion).toMatch(/^The base URL may be wrong\./);
  });
});
