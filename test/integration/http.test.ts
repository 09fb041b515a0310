import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, ConnectionError, InterruptedError, KctError } from '../../src/api/errors.js';
import { KctClient } from '../../src/client/client.js';
import { HttpClient, type HttpOptions } from '../../src/client/http.js';
import { VERSION } from '../../src/version.js';

const KEY = 'kct_live_S3cr3tValue_0123456789abcdef';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Answers request number `n` (0-based) of this server. */
type Handler = (req: Seen, res: ServerResponse, n: number) => void;

interface TestServer {
  origin: string;
  base: string;
  seen: Seen[];
}

const servers: Server[] = [];
const clients: HttpClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

async function startServer(handler: Handler): Promise<TestServer> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const entry: Seen = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      seen.push(entry);
      handler(entry, res, seen.length - 1);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return { origin, base: `${origin}/v1`, seen };
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** A client that records its pauses instead of waiting. */
function makeClient(base: string, overrides: Partial<HttpOptions> = {}): { client: HttpClient; delays: number[] } {
  const delays: number[] = [];
  const client = new HttpClient({
    baseUrl: base,
    apiKey: KEY,
    userAgent: `kct/${VERSION}`,
    sleep: async (ms) => {
      delays.push(ms);
    },
    random: () => 0,
    env: {},
    ...overrides,
  });
  clients.push(client);
  return { client, delays };
}

async function refusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

describe('HttpClient: requests', () => {
  it('sends the key, the user agent, accept and the path under the base URL', async () => {
    const server = await startServer((_req, res) => json(res, 200, { credits: 5 }));
    const { client } = makeClient(`${server.base}/`);
    const response = await client.send({ method: 'GET', path: '/credits' });
    expect(response.status).toBe(200);
    expect(server.seen).toHaveLength(1);
    const [req] = server.seen;
    expect(req.method).toBe('GET');
    expect(req.url).toBe('/v1/credits');
    expect(req.headers['x-api-key']).toBe(KEY);
    expect(req.headers['user-agent']).toBe(`kct/${VERSION}`);
    expect(req.headers.accept).toBe('application/json');
    expect(req.headers['idempotency-key']).toBeUndefined();
  });

  it('KctClient defaults the user agent to kct/<version>', async () => {
    const server = await startServer((_req, res) => json(res, 200, { credits: 12 }));
    const client = new KctClient({ baseUrl: server.base, apiKey: KEY, env: {} });
    clients.push(client.http);
    expect((await client.credits()).credits).toBe(12);
    expect(VERSION).toMatch(/^\d+\.\d+\.\d+/);
    expect(server.seen[0].headers['user-agent']).toBe(`kct/${VERSION}`);
  });

  it('sends a JSON body and the Idempotency-Key of a POST', async () => {
    const server = await startServer((_req, res) => json(res, 202, { task_id: 't1', status: 'QUEUED' }));
    const { client } = makeClient(server.base);
    const response = await client.send({
      method: 'POST',
      path: '/evaluations/one-pass',
      json: { model_id: 3, paper_content: 'essay' },
      idempotencyKey: 'idem-1',
    });
    expect(response.status).toBe(202);
    const [req] = server.seen;
    expect(req.method).toBe('POST');
    expect(req.headers['idempotency-key']).toBe('idem-1');
    expect(req.headers['content-type']).toBe('application/json');
    expect(JSON.parse(req.body)).toEqual({ model_id: 3, paper_content: 'essay' });
  });

  it('sends no key on an anonymous request', async () => {
    const server = await startServer((_req, res) => json(res, 200, {}));
    const { client } = makeClient(server.base);
    await client.send({ method: 'GET', path: '/public', anonymous: true });
    expect(server.seen[0].headers['x-api-key']).toBeUndefined();
  });
});

describe('HttpClient: responses', () => {
  it('unwraps a {data} envelope and keeps the raw body', async () => {
    const body = { code: 0, msg: 'ok', status: 'ok', data: { task_id: 't1', status: 'PROGRESS' }, credit_cost: 2 };
    const server = await startServer((_req, res) => json(res, 200, body));
    const { client } = makeClient(server.base);
    const response = await client.send({ method: 'GET', path: '/evaluations/t1/status' });
    expect(response.data).toEqual({ task_id: 't1', status: 'PROGRESS', credit_cost: 2 });
    expect(response.body).toEqual(body);
  });

  it('reads the request id from x-request-id, or from the body', async () => {
    const server = await startServer((_req, res, n) =>
      n === 0 ? json(res, 200, { ok: 1 }, { 'x-request-id': 'req-header' }) : json(res, 200, { request_id: 'req-body', data: { x: 1 } }),
    );
    const { client } = makeClient(server.base);
    expect((await client.send({ method: 'GET', path: '/a' })).requestId).toBe('req-header');
    expect((await client.send({ method: 'GET', path: '/b' })).requestId).toBe('req-body');
  });

  it('parses a JSON body sent without a JSON content type, and keeps plain text as text', async () => {
    const server = await startServer((_req, res, n) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(n === 0 ? '{"data":{"a":1}}' : 'hello');
    });
    const { client } = makeClient(server.base);
    expect((await client.send({ method: 'GET', path: '/a' })).data).toEqual({ a: 1 });
    expect((await client.send({ method: 'GET', path: '/b' })).data).toBe('hello');
  });

  it('turns an HTTP error into a typed ApiError', async () => {
    const server = await startServer((_req, res) =>
      json(
        res,
        409,
        { error: { code: 'idempotency_conflict', message: 'Idempotency-Key reused with different text' } },
        { 'x-request-id': 'req-409' },
      ),
    );
    const { client } = makeClient(server.base);
    const error = await caught(client.send({ method: 'POST', path: '/evaluations/one-pass', json: {}, idempotencyKey: 'k' }));
    expect(error).toBeInstanceOf(ApiError);
    const api = error as ApiError;
    expect(api.status).toBe(409);
    expect(api.message).toBe('Idempotency-Key reused with different text');
    expect(api.requestId).toBe('req-409');
    expect(api.errorCode).toBe('idempotency_conflict');
    expect(api.code).toBe('idempotency_conflict');
    expect(api.method).toBe('POST');
    expect(api.url).toBe(`${server.base}/evaluations/one-pass`);
    expect(server.seen).toHaveLength(1);
  });

  it('uses the plain-text body or the status line as the message', async () => {
    const server = await startServer((_req, res, n) => {
      if (n === 0) {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('no such task\n');
      } else {
        res.writeHead(400);
        res.end();
      }
    });
    const { client } = makeClient(server.base);
    const notFound = (await caught(client.send({ method: 'GET', path: '/evaluations/x' }))) as ApiError;
    expect(notFound.status).toBe(404);
    expect(notFound.message).toBe('no such task');
    expect(notFound.code).toBe('http_404');
    const bad = (await caught(client.send({ method: 'GET', path: '/y' }))) as ApiError;
    expect(bad.message).toBe('HTTP 400 Bad Request');
  });
});

describe('HttpClient: retries', () => {
  it('retries a GET on 503 and 429, then returns the success', async () => {
    const server = await startServer((_req, res, n) => {
      if (n === 0) return json(res, 503, { message: 'restarting' });
      if (n === 1) return json(res, 429, { message: 'slow down' });
      json(res, 200, { credits: 1 });
    });
    const retries: string[] = [];
    const { client, delays } = makeClient(server.base, { onRetry: (info) => retries.push(`${info.attempt}:${info.reason}`) });
    const response = await client.send({ method: 'GET', path: '/credits' });
    expect(response.data).toEqual({ credits: 1 });
    expect(server.seen).toHaveLength(3);
    expect(delays).toEqual([250, 500]);
    expect(retries).toEqual(['1:HTTP 503 from GET /credits', '2:HTTP 429 from GET /credits']);
  });

  it('repeats a POST with the same Idempotency-Key and body on every attempt', async () => {
    const server = await startServer((_req, res, n) => (n < 2 ? json(res, 503, {}) : json(res, 202, { task_id: 't9', status: 'QUEUED' })));
    const { client } = makeClient(server.base);
    const response = await client.send({
      method: 'POST',
      path: '/evaluations/one-pass',
      json: { model_id: 1, paper_content: 'x' },
      idempotencyKey: 'idem-same',
    });
    expect(response.data).toMatchObject({ task_id: 't9' });
    expect(server.seen).toHaveLength(3);
    expect(server.seen.map((req) => req.headers['idempotency-key'])).toEqual(['idem-same', 'idem-same', 'idem-same']);
    expect(new Set(server.seen.map((req) => req.body)).size).toBe(1);
  });

  it('never retries a POST without an Idempotency-Key', async () => {
    const server = await startServer((_req, res) => json(res, 503, { message: 'busy' }));
    const { client, delays } = makeClient(server.base);
    const error = (await caught(client.send({ method: 'POST', path: '/evaluations', json: { assignment_id: 1 } }))) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(503);
    expect(server.seen).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('does not retry when the request says retry: false', async () => {
    const server = await startServer((_req, res) => json(res, 503, {}));
    const { client } = makeClient(server.base);
    await expect(client.send({ method: 'GET', path: '/x', retry: false })).rejects.toBeInstanceOf(ApiError);
    expect(server.seen).toHaveLength(1);
  });

  it('does not retry a status that is not transient', async () => {
    const server = await startServer((_req, res) => json(res, 500, { message: 'boom' }));
    const { client } = makeClient(server.base);
    await expect(client.send({ method: 'GET', path: '/x' })).rejects.toMatchObject({ status: 500, message: 'boom' });
    expect(server.seen).toHaveLength(1);
  });

  it('honours Retry-After in seconds', async () => {
    const server = await startServer((_req, res, n) =>
      n === 0 ? json(res, 429, {}, { 'retry-after': '7' }) : json(res, 200, { ok: true }),
    );
    const { client, delays } = makeClient(server.base);
    await client.send({ method: 'GET', path: '/models' });
    expect(delays).toEqual([7000]);
    expect(server.seen).toHaveLength(2);
  });

  it('returns the error at once when Retry-After is above the cap', async () => {
    const server = await startServer((_req, res) => json(res, 503, { message: 'maintenance' }, { 'retry-after': '3600' }));
    const { client, delays } = makeClient(server.base);
    const error = (await caught(client.send({ method: 'GET', path: '/models' }))) as ApiError;
    expect(error.status).toBe(503);
    expect(error.message).toBe('maintenance');
    expect(delays).toEqual([]);
    expect(server.seen).toHaveLength(1);
  });

  it('gives up after maxRetries with the last error', async () => {
    const server = await startServer((_req, res, n) => json(res, 503, { message: `attempt ${n + 1}` }));
    const { client, delays } = makeClient(server.base, { retry: { maxRetries: 3 } });
    const error = (await caught(client.send({ method: 'GET', path: '/credits' }))) as ApiError;
    expect(server.seen).toHaveLength(4);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe('attempt 4');
    expect(delays).toEqual([250, 500, 1000]);
  });
});

describe('HttpClient: connection errors', () => {
  it('a retried request that may have reached the server stays "maybe delivered" though later attempts are refused', async () => {
    // the first attempt is read whole, then its connection is cut; the server is gone before the retries
    const server = createServer((req, res) => req.resume().on('end', () => res.socket?.destroy()));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const { client } = makeClient(`http://127.0.0.1:${port}/v1`, {
      retry: { maxRetries: 2 },
      sleep: () => new Promise<void>((resolve) => server.close(() => resolve())).catch(() => undefined),
    });
    const error = (await caught(
      client.send({ method: 'POST', path: '/evaluations/one-pass', json: {}, idempotencyKey: 'k-1' }),
    )) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toContain('connection refused');
    expect(error.maybeDelivered).toBe(true);
  });

  it('a submission stopped by its signal after it was sent says it may have been accepted, and how to find out; a read does not', async () => {
    // a server that takes the whole request and never answers: the request was delivered
    const server = await startServer(() => {});
    const { client } = makeClient(server.base);
    const stop = new AbortController();
    const keyed = client.send({
      method: 'POST',
      path: '/evaluations/one-pass',
      json: { model_id: 12 },
      idempotencyKey: 'k-1',
      signal: stop.signal,
    });
    while (server.seen.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    stop.abort();
    const error = (await caught(keyed)) as InterruptedError;
    expect(error).toBeInstanceOf(InterruptedError);
    expect(error.maybeDelivered).toBe(true);
    expect(error.suggestion).toContain('send it again with the same idempotency key');
    const unkeyed = new AbortController();
    const legacy = client.send({ method: 'POST', path: '/evaluations', json: {}, signal: unkeyed.signal, retry: false });
    while (server.seen.length === 1) await new Promise((resolve) => setTimeout(resolve, 5));
    unkeyed.abort();
    expect(((await caught(legacy)) as InterruptedError).suggestion).toContain('check before sending it again');
    const read = new AbortController();
    const status = client.send({ method: 'GET', path: '/credits', signal: read.signal });
    while (server.seen.length === 2) await new Promise((resolve) => setTimeout(resolve, 5));
    read.abort();
    expect(((await caught(status)) as InterruptedError).maybeDelivered).toBe(false);
  });

  it('a submission the server took and never answered says it may have been accepted: "try again" only with its key', async () => {
    const server = await startServer(() => {});
    const { client } = makeClient(server.base, { timeouts: { headersMs: 200 }, retry: { maxRetries: 0 } });
    const keyed = (await caught(
      client.send({ method: 'POST', path: '/evaluations/one-pass', json: { model_id: 12 }, idempotencyKey: 'k-1' }),
    )) as ConnectionError;
    expect(keyed.maybeDelivered).toBe(true);
    expect(keyed.suggestion).toBe(
      'It may have been accepted (and charged): send it again with the same idempotency key, which gets that task back with no second charge.',
    );
    const unkeyed = (await caught(client.send({ method: 'POST', path: '/evaluations', json: {}, retry: false }))) as ConnectionError;
    expect(unkeyed.maybeDelivered).toBe(true);
    expect(unkeyed.suggestion).toContain('check before sending it again');
    expect(unkeyed.suggestion).not.toContain('try again');
  });

  it('turns a refused connection into ConnectionError that was not delivered', async () => {
    const port = await refusedPort();
    const { client, delays } = makeClient(`http://127.0.0.1:${port}/v1`);
    const error = (await caught(client.send({ method: 'POST', path: '/evaluations', json: {} }))) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.maybeDelivered).toBe(false);
    expect(error.message).toContain('connection refused');
    expect(delays).toEqual([]);
  });

  it('retries a refused GET, then gives up with ConnectionError', async () => {
    const port = await refusedPort();
    const { client, delays } = makeClient(`http://127.0.0.1:${port}/v1`, { retry: { maxRetries: 2 } });
    const error = await caught(client.send({ method: 'GET', path: '/credits' }));
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).maybeDelivered).toBe(false);
    expect(delays).toHaveLength(2);
  });
});

describe('HttpClient: redirects', () => {
  it('refuses a redirect to another origin, and the key never reaches it', async () => {
    const other = await startServer((_req, res) => json(res, 200, { task_id: 'stolen' }));
    const server = await startServer((_req, res) => {
      res.writeHead(307, { location: `${other.base}/evaluations/one-pass` });
      res.end();
    });
    const { client } = makeClient(server.base);
    const error = await caught(client.send({ method: 'POST', path: '/evaluations/one-pass', json: { model_id: 1 }, idempotencyKey: 'k1' }));
    expect(error).toBeInstanceOf(KctError);
    expect((error as KctError).code).toBe('redirect_refused');
    expect((error as KctError).message).not.toContain(KEY);
    expect(server.seen).toHaveLength(1);
    expect(other.seen).toHaveLength(0);
  });

  it('follows a same-origin redirect with the key', async () => {
    const server = await startServer((req, res) => {
      if (req.url === '/v1/old') {
        res.writeHead(301, { location: '/v1/new' });
        return res.end();
      }
      json(res, 200, { data: { moved: true } });
    });
    const { client } = makeClient(server.base);
    const response = await client.send({ method: 'GET', path: '/old' });
    expect(response.data).toEqual({ moved: true });
    expect(server.seen.map((req) => req.url)).toEqual(['/v1/old', '/v1/new']);
    expect(server.seen[1].headers['x-api-key']).toBe(KEY);
  });

  it('keeps method and body on 307, and switches to a bodiless GET on 303', async () => {
    const server = await startServer((req, res) => {
      if (req.url === '/v1/a') {
        res.writeHead(307, { location: '/v1/b' });
        return res.end();
      }
      if (req.url === '/v1/b') {
        res.writeHead(303, { location: '/v1/c' });
        return res.end();
      }
      json(res, 200, { done: true });
    });
    const { client } = makeClient(server.base);
    await client.send({ method: 'POST', path: '/a', json: { n: 1 }, idempotencyKey: 'k' });
    expect(server.seen.map((req) => `${req.method} ${req.url}`)).toEqual(['POST /v1/a', 'POST /v1/b', 'GET /v1/c']);
    expect(server.seen[1].body).toBe('{"n":1}');
    expect(server.seen[2].body).toBe('');
  });

  it('stops a redirect loop', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(302, { location: '/v1/loop' });
      res.end();
    });
    const { client } = makeClient(server.base);
    const error = await caught(client.send({ method: 'GET', path: '/loop' }));
    expect((error as KctError).code).toBe('too_many_redirects');
    expect(server.seen.length).toBeLessThanOrEqual(10);
  });
});

describe('HttpClient: debug trace', () => {
  it.each([
    ['a kct_ key', KEY],
    ['a key of another shape', 'plain-secret-value-98765'],
  ])('never shows %s, even when the server echoes it', async (_what, apiKey) => {
    const server = await startServer((req, res) =>
      json(
        res,
        401,
        { message: `invalid key ${String(req.headers['x-api-key'])}`, echo: req.headers['x-api-key'] },
        { 'x-echo-key': String(req.headers['x-api-key']), 'x-request-id': 'req-d' },
      ),
    );
    const lines: string[] = [];
    const { client } = makeClient(server.base, { apiKey, debug: (line) => lines.push(line) });
    const error = (await caught(
      client.send({ method: 'POST', path: '/evaluations/one-pass', json: { note: apiKey }, idempotencyKey: 'k' }),
    )) as ApiError;
    expect(server.seen[0].headers['x-api-key']).toBe(apiKey);
    expect(lines.length).toBeGreaterThan(3);
    expect(lines.some((line) => line.startsWith('> POST '))).toBe(true);
    expect(lines.some((line) => /^< 401/.test(line))).toBe(true);
    expect(lines).toContain('> x-api-key: [redacted]');
    expect(lines.some((line) => line.startsWith('< x-echo-key:'))).toBe(true);
    for (const line of lines) expect(line).not.toContain(apiKey);
    expect(error.message).not.toContain(apiKey);
    expect(error.message).toContain('invalid key');
  });

  it('traces retries', async () => {
    const server = await startServer((_req, res, n) => (n === 0 ? json(res, 503, {}) : json(res, 200, {})));
    const lines: string[] = [];
    const { client } = makeClient(server.base, { debug: (line) => lines.push(line) });
    await client.send({ method: 'GET', path: '/x' });
    expect(lines.some((line) => line.includes('retry 1/3'))).toBe(true);
  });
});

describe('HttpClient: interruption', () => {
  it('throws InterruptedError when the signal aborts during a request', async () => {
    const controller = new AbortController();
    // The server never answers; the request is aborted once the server has it.
    const server = await startServer(() => controller.abort());
    const { client } = makeClient(server.base);
    const error = await caught(client.send({ method: 'GET', path: '/slow', signal: controller.signal }));
    expect(error).toBeInstanceOf(InterruptedError);
    expect(server.seen).toHaveLength(1);
  });

  it('throws InterruptedError when the signal aborts while waiting to retry', async () => {
    const controller = new AbortController();
    const server = await startServer((_req, res) => json(res, 503, {}, { 'retry-after': '30' }));
    // Real (abortable) sleep: the abort must cut the 30 s wait short.
    const client = new HttpClient({ baseUrl: server.base, apiKey: KEY, userAgent: 'kct/test', env: {}, onRetry: () => controller.abort() });
    clients.push(client);
    const started = Date.now();
    const error = await caught(client.send({ method: 'GET', path: '/x', signal: controller.signal }));
    expect(error).toBeInstanceOf(InterruptedError);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(server.seen).toHaveLength(1);
  });

  it('does not even send when the signal is already aborted', async () => {
    const server = await startServer((_req, res) => json(res, 200, {}));
    const { client } = makeClient(server.base);
    const error = await caught(client.send({ method: 'GET', path: '/x', signal: AbortSignal.abort() }));
    expect(error).toBeInstanceOf(InterruptedError);
    expect(server.seen).toHaveLength(0);
  });
});
