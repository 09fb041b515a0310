// The HTTP perimeter of the sandbox (src/sandbox/http/): request, headers and idle timeouts, the
// connection cap per client address, refusals that reach the client instead of a reset,
// headers sent twice, "Expect: 100-continue", and the origin of upload URLs. Short timeouts are
// configured so these run in seconds; how fast the server reacts is measured by the
// reliability suite, not here.

import { existsSync, readdirSync, readlinkSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import net from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { FormData, request } from 'undici';
import { beforeAll, describe, expect, test } from 'vitest';
import { ESSAY, launch, sandboxForFile } from '../unit/sandbox-helpers.js';

/** What the sandbox's --log wrote. */
const logged: string[] = [];
const sb = sandboxForFile({
  requestTimeoutMs: 3_000,
  headersTimeoutMs: 1_500,
  idleTimeoutMs: 1_000,
  maxConnectionsPerClient: 12,
  log: (line) => logged.push(line),
});
let port: number;
beforeAll(() => {
  port = Number(new URL(sb.baseUrl).port);
});

interface Exchange {
  /** Everything the server sent. */
  text: string;
  /** The JSON body of the first response, if any. */
  body?: any;
}

/** Writes `head` on a raw connection, then `drip` once a second (if given), until the server closes it. */
function exchange(head: string | undefined, drip?: string): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      if (head !== undefined) socket.write(head);
      if (drip !== undefined) {
        const timer = setInterval(() => (socket.writable ? socket.write(drip) : clearInterval(timer)), 1_000);
        socket.once('close', () => clearInterval(timer));
      }
    });
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    socket.on('error', () => undefined);
    socket.once('close', () => {
      const start = text.indexOf('{');
      let body: unknown;
      try {
        body =
          start >= 0 ? JSON.parse(text.slice(start, text.indexOf('\n', start) >= 0 ? text.indexOf('\n', start) : undefined)) : undefined;
      } catch {
        body = undefined;
      }
      resolve({ text, ...(body !== undefined ? { body } : {}) });
    });
  });
}

const jsonHead = (key: string, length: number, extra = '') =>
  `POST /v1/evaluations/one-pass HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n${extra}\r\n`;

function multipartHead(key: string): string {
  return (
    `POST /v1/evaluations/one-pass HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nContent-Type: multipart/form-data; boundary=BB\r\nContent-Length: 100000\r\n\r\n` +
    '--BB\r\nContent-Disposition: form-data; name="model_id"\r\n\r\n12\r\n' +
    '--BB\r\nContent-Disposition: form-data; name="answer_file"; filename="essay.txt"\r\nContent-Type: text/plain\r\n\r\nThe first words of an essay'
  );
}

/** Files of the data dir this process holds open. */
function openUnder(dir: string): string[] {
  if (!existsSync('/proc/self/fd')) return [];
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      return target.startsWith(join(dir, 'files')) ? [target] : [];
    } catch {
      return [];
    }
  });
}

describe('timeouts', () => {
  test('headers without the body they announce: 408 request_timeout in the envelope, and the connection closes', async () => {
    const res = await exchange(jsonHead(sb.keys.user, 100));
    expect(res.text).toMatch(/^HTTP\/1\.1 408 /);
    expect(res.text.toLowerCase()).toContain('connection: close');
    expect(res.body.error).toMatchObject({ code: 'request_timeout', status: 408 });
    expect(res.body.request_id).toMatch(/^req_[0-9a-f]{24}$/);
  });

  test("every answer written under fastify's feet (408, 431, malformed HTTP) has x-request-id, its body's id, and a log line", async () => {
    const [stalled, headers, malformed, partial] = await Promise.all([
      exchange(jsonHead(sb.keys.user, 100)),
      exchange(`GET /v1/credits HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`),
      exchange('GARBAGE\r\n\r\n'),
      exchange('GET /v1/credits HTTP/1.1\r\nHost: x\r\n'),
    ]);
    for (const [res, status, code] of [
      [stalled, 408, 'request_timeout'],
      [headers, 431, 'headers_too_large'],
      [malformed, 400, 'bad_http'],
      [partial, 408, 'request_timeout'],
    ] as const) {
      expect(res.text).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      expect(res.body.error.code).toBe(code);
      const id = res.body.request_id as string;
      expect(res.text.toLowerCase()).toContain(`x-request-id: ${id}`);
      await expect.poll(() => logged.some((line) => line.includes(` ${status} `) && line.endsWith(id))).toBe(true);
    }
  });

  test('a multipart upload that stalls mid-file: 408, and its folder and file are gone', async () => {
    const res = await exchange(multipartHead(sb.keys.user));
    expect(res.body.error.code).toBe('request_timeout');
    await expect.poll(() => readdir(join(sb.dataDir, 'files', 'incoming'))).toEqual([]);
    await expect.poll(() => openUnder(sb.dataDir)).toEqual([]);
  });

  test('a body dripping one byte a second is cut at the request timeout: 408, nothing left behind', async () => {
    const [json, form] = await Promise.all([exchange(jsonHead(sb.keys.user, 100), ' '), exchange(multipartHead(sb.keys.user), 'x')]);
    for (const res of [json, form]) {
      expect(res.text).toMatch(/^HTTP\/1\.1 408 /);
      expect(res.body.error).toMatchObject({ code: 'request_timeout', status: 408 });
    }
    await expect.poll(() => readdir(join(sb.dataDir, 'files', 'incoming'))).toEqual([]);
    await expect.poll(() => openUnder(sb.dataDir)).toEqual([]);
  });

  test('a connection that sends nothing, or stops half-way through its headers, is closed (408 for the latter)', async () => {
    const [silent, partial] = await Promise.all([exchange(undefined), exchange('GET /v1/credits HTTP/1.1\r\nHost: x\r\n')]);
    expect(silent.text === '' || silent.text.startsWith('HTTP/1.1 408')).toBe(true);
    expect(partial.text).toMatch(/^HTTP\/1\.1 408 /);
    expect(partial.body.error.code).toBe('request_timeout');
  });

  test('a slow handler is not idle: a request being worked on is not cut by the idle timeout', async () => {
    // KCT-SANDBOX-SLOW makes the task slow, not the request; the request that waits is status polling.
    const task = (await sb.call('POST', '/evaluations/one-pass', { json: { model_id: 12, paper_content: ESSAY } })).body.data;
    const done = await sb.waitFor(task.task_id, sb.keys.user);
    expect(done.status).toBe('SUCCESS');
  });
});

describe('refusals reach the client', () => {
  test('401 on a 30 MB upload: the client reads the 401 (no reset), and the connection is closed', async () => {
    for (let i = 0; i < 5; i++) {
      async function* body() {
        for (let k = 0; k < 120; k++) yield Buffer.alloc(250_000, 0x61);
      }
      const res = await request(`${sb.baseUrl}/evaluations/one-pass`, {
        method: 'POST',
        headers: { 'x-api-key': 'kct_not_a_key', 'content-type': 'application/json', 'content-length': String(30_000_000) },
        body: Readable.from(body()),
      });
      expect(res.statusCode).toBe(401);
      expect(res.headers.connection).toBe('close');
      expect(((await res.body.json()) as any).error.code).toBe('invalid_api_key');
    }
  });

  test('a refused small body is read and thrown away: the same connection serves the next request', async () => {
    const socket = net.connect(port, '127.0.0.1');
    const payload = JSON.stringify({ model_id: 12, paper_content: ESSAY });
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(jsonHead('kct_not_a_key', Buffer.byteLength(payload)) + payload);
    socket.write(`GET /v1/credits HTTP/1.1\r\nHost: x\r\nX-API-Key: ${sb.keys.user}\r\n\r\n`);
    await expect.poll(() => (text.match(/HTTP\/1\.1 /g) ?? []).length).toBe(2);
    expect(text).toMatch(/^HTTP\/1\.1 401 /);
    expect(text).toMatch(/HTTP\/1\.1 200 OK[\s\S]*"credits"/);
    socket.destroy();
  });

  test('413 for a JSON body over its limit while it is still being sent: the client reads the 413', async () => {
    async function* body() {
      yield Buffer.from('{"model_id": 12, "paper_content": "');
      for (let k = 0; k < 40; k++) yield Buffer.alloc(250_000, 0x61);
      yield Buffer.from('"}');
    }
    const res = await request(`${sb.baseUrl}/evaluations/one-pass`, {
      method: 'POST',
      headers: { 'x-api-key': sb.keys.user, 'content-type': 'application/json', 'content-length': String(10_000_000 + 38) },
      body: Readable.from(body()),
    });
    expect(res.statusCode).toBe(413);
    expect(((await res.body.json()) as any).error.code).toBe('body_too_large');
  });

  test('Expect: 100-continue is answered only for an accepted key: a refused upload is never sent', async () => {
    const refused = await exchange(jsonHead('kct_not_a_key', 10_000_000, 'Expect: 100-continue\r\n'));
    expect(refused.text).not.toContain('100 Continue');
    expect(refused.text).toMatch(/^HTTP\/1\.1 401 /);
    const payload = JSON.stringify({ model_id: 12, paper_content: ESSAY });
    const accepted = await new Promise<string>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () =>
        socket.write(jsonHead(sb.keys.user, Buffer.byteLength(payload), 'Expect: 100-continue\r\nConnection: close\r\n')),
      );
      let text = '';
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.startsWith('HTTP/1.1 100 Continue') && !text.includes('202')) socket.write(payload);
      });
      socket.once('close', () => resolve(text));
    });
    expect(accepted).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 202 /);
  });
});

describe('connections per client address', () => {
  test('beyond the cap a connection is answered 503 too_many_connections; closing some frees room', async () => {
    const held: net.Socket[] = [];
    for (let i = 0; i < 12; i++) {
      held.push(
        await new Promise<net.Socket>((resolve) => {
          const s = net.connect(port, '127.0.0.1', () => resolve(s));
          s.on('error', () => undefined);
        }),
      );
    }
    try {
      const over = await exchange(`GET /v1/credits HTTP/1.1\r\nHost: x\r\nX-API-Key: ${sb.keys.user}\r\n\r\n`);
      expect(over.text).toMatch(/^HTTP\/1\.1 503 /);
      expect(over.text.toLowerCase()).toContain('retry-after: 1');
      expect(over.body.error.code).toBe('too_many_connections');
      expect(over.body.error.message).toMatch(/at most 12 at once/);
      // a refusal the sandbox chose is not an internal error: no stack in the log for each one
      expect(logged.filter((line) => line.startsWith('error ') && line.includes('Too many connections'))).toEqual([]);
    } finally {
      for (const s of held) s.destroy();
    }
    await expect.poll(async () => (await sb.call('GET', '/credits')).status).toBe(200);
  });
});

describe('headers sent twice', () => {
  test.each([
    ['Idempotency-Key', 'Idempotency-Key: a\r\nIdempotency-Key: b\r\n'],
    ['X-API-Key', 'X-API-Key: kct_sbx_0\r\n'],
    ['Content-Type', 'Content-Type: text/plain\r\n'],
  ])('%s twice: 400 duplicate_header naming it, before anything is stored', async (name, extra) => {
    const payload = JSON.stringify({ model_id: 12, paper_content: ESSAY });
    const res = await exchange(
      `${jsonHead(sb.keys.user, Buffer.byteLength(payload), extra).replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n')}${payload}`,
    );
    expect(res.text).toMatch(/^HTTP\/1\.1 400 /);
    expect(res.body.error.code).toBe('duplicate_header');
    expect(res.body.error.message).toBe(`The ${name} header was sent 2 times; it holds one value, so send it once.`);
  });
});

describe('upload URLs', () => {
  test('are built from the listen address, whatever Host the request names', async () => {
    const fd = new FormData();
    fd.append('file', new Blob(['An essay.']), 'essay.txt');
    const res = await sb.call('POST', '/uploads/file', { form: fd, headers: { host: 'evil.example' } });
    expect(res.status).toBe(201);
    expect(res.body.data.url.startsWith(`http://127.0.0.1:${port}/files/`)).toBe(true);
  });

  test('are built from --public-url when it is given', async () => {
    const other = await launch({ publicUrl: 'https://sandbox.school.example/' });
    try {
      const fd = new FormData();
      fd.append('file', new Blob(['An essay.']), 'essay.txt');
      const res = await other.call('POST', '/uploads/file', { form: fd });
      expect(res.body.data.url).toMatch(/^https:\/\/sandbox\.school\.example\/files\/[0-9a-f]{32}\/essay\.txt$/);
      // the base URL it announces is the public one too; where it listens is kept apart
      expect(other.baseUrl).toBe('https://sandbox.school.example/v1');
      expect(other.listenUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      await other.dispose();
    }
  });
});
