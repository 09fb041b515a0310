// A small HTTP proxy in front of a real sandbox, for tests about how kct uses the service: it
// records every request (method, path, when it arrived, the status answered, the task id in the
// path) and may answer some itself (a 429 with Retry-After) instead of forwarding them.
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  method: string;
  path: string;
  /** Milliseconds since the proxy started, when the request arrived. */
  at: number;
  status?: number;
  /** The task id of /evaluations/{id}/status or /evaluations/{id}. */
  taskId?: string;
  kind: 'submit' | 'batch' | 'status' | 'result' | 'other';
  /** A status request's answer, as the sandbox gave it, and when its last byte passed (ms since the proxy started). */
  snapshot?: { status?: string; position?: number };
  answeredAt?: number;
}

/** Answer this request here instead of forwarding it. */
export type Intercept = (request: Seen) => { status: number; headers?: Record<string, string>; body: unknown } | undefined;

export interface CountingProxy {
  baseUrl: string;
  requests: Seen[];
  intercept?: Intercept;
  close(): Promise<void>;
}

export async function startCountingProxy(targetBaseUrl: string): Promise<CountingProxy> {
  const target = new URL(targetBaseUrl);
  const started = performance.now();
  const proxy: CountingProxy = { baseUrl: '', requests: [], close: async () => {} };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '/';
    const seen: Seen = { method: req.method ?? 'GET', path, at: performance.now() - started, ...classify(req.method ?? 'GET', path) };
    proxy.requests.push(seen);
    const own = proxy.intercept?.(seen);
    if (own) {
      seen.status = own.status;
      req.resume();
      res.writeHead(own.status, { 'content-type': 'application/json', ...own.headers });
      res.end(JSON.stringify(own.body));
      return;
    }
    const upstream = httpRequest({ host: target.hostname, port: target.port, method: req.method, path, headers: req.headers }, (answer) => {
      seen.status = answer.statusCode;
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      if (seen.kind === 'status') keepSnapshot(answer, seen, started);
      answer.pipe(res);
    });
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  proxy.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}${target.pathname.replace(/\/$/, '')}`;
  proxy.close = () =>
    new Promise<void>((done) => {
      server.closeAllConnections();
      server.close(() => done());
    });
  return proxy;
}

function classify(method: string, path: string): Pick<Seen, 'kind' | 'taskId'> {
  const status = /\/evaluations\/([^/?]+)\/status/.exec(path);
  if (status) return { kind: 'status', taskId: decodeURIComponent(status[1]) };
  if (method === 'POST' && /\/evaluations\/one-pass/.test(path)) return { kind: 'submit' };
  if (method === 'POST' && /\/evaluations\/batch/.test(path)) return { kind: 'batch' };
  const result = /\/evaluations\/([^/?]+)$/.exec(path);
  if (method === 'GET' && result) return { kind: 'result', taskId: decodeURIComponent(result[1]) };
  return { kind: 'other' };
}

/** The most requests that arrived within any window of `windowMs`. */
export function mostInWindow(requests: Seen[], windowMs: number): number {
  const times = requests.map((r) => r.at).sort((a, b) => a - b);
  let most = 0;
  let start = 0;
  for (let end = 0; end < times.length; end++) {
    while (times[end] - times[start] >= windowMs) start += 1;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

/** Reads a status answer as it passes: what kct was told, and when. */
function keepSnapshot(answer: IncomingMessage, seen: Seen, started: number): void {
  const chunks: Buffer[] = [];
  answer.on('data', (chunk: Buffer) => chunks.push(chunk));
  answer.on('end', () => {
    seen.answeredAt = performance.now() - started;
    try {
      const data = JSON.parse(Buffer.concat(chunks).toString('utf8')).data ?? {};
      seen.snapshot = { status: data.status, position: data.position };
    } catch {
      seen.snapshot = {};
    }
  });
}
