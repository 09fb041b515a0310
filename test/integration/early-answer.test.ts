// The HTTP layer and a server that answers before reading the upload: the answer wins (no
// retry, its status), and when no answer comes the connection error says the upload was cut
// short (so never "may have been delivered").

import type { AddressInfo } from 'node:net';
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, ConnectionError } from '../../src/api/errors.js';
import type { LocalFile } from '../../src/client/files.js';
import { HttpClient } from '../../src/client/http.js';
import { buildForm } from '../../src/client/multipart.js';

const servers: Server[] = [];
const clients: HttpClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** Calls `onHead` with the socket once the request's headers arrived; the body is never read. */
async function server(onHead: (socket: Socket) => void): Promise<string> {
  const srv = createServer((socket) => {
    let head = '';
    let done = false;
    socket.on('error', () => {});
    socket.on('data', (chunk) => {
      if (done) return;
      head += chunk.toString('latin1');
      if (head.includes('\r\n\r\n')) {
        done = true;
        onHead(socket);
      }
    });
  });
  servers.push(srv);
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(srv.address() as AddressInfo).port}/v1`;
}

function answer(status: number, message: string): (socket: Socket) => void {
  return (socket) => {
    const body = JSON.stringify({ error: { message } });
    socket.write(
      `HTTP/1.1 ${status} X\r\nconnection: close\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
      () => socket.destroy(),
    );
  };
}

const big: LocalFile = {
  path: 'big.pdf',
  name: 'big.pdf',
  type: 'application/pdf',
  size: 8 * 1024 * 1024,
  data: new Uint8Array(8 * 1024 * 1024),
};

function client(baseUrl: string, retries: { n: number }): HttpClient {
  const http = new HttpClient({
    baseUrl,
    apiKey: 'kct_x',
    userAgent: 'test',
    retry: { maxRetries: 3, baseDelayMs: 1 },
    onRetry: () => (retries.n += 1),
  });
  clients.push(http);
  return http;
}

describe('an answer before the upload was read', () => {
  for (const [status, message] of [
    [401, 'bad key'],
    [403, 'no access'],
    [413, 'too large'],
  ] as const) {
    it(`${status} wins over the broken upload, every time, with no retry`, async () => {
      const base = await server(answer(status, message));
      const retries = { n: 0 };
      const http = client(base, retries);
      for (let i = 0; i < 10; i++) {
        const error = await http
          .send({
            method: 'POST',
            path: '/evaluations/one-pass',
            form: () => buildForm({ model_id: 12 }, [{ field: 'answer_files', file: big }]),
            idempotencyKey: `k${i}`,
          })
          .catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ApiError);
        expect((error as ApiError).status).toBe(status);
        expect((error as ApiError).message).toBe(message);
      }
      expect(retries.n).toBe(0);
    });
  }

  // (a server that closes later, once the whole body is in the kernel's buffers, may have had it
  // all: that stays "may have been delivered", which is the truth as far as a client can know)
  for (const [name, close] of [['reset at the headers', (socket: Socket) => socket.resetAndDestroy()]] as const) {
    it(`no answer at all (${name}): a connection error that says the upload did not arrive whole`, async () => {
      const base = await server(close);
      const http = client(base, { n: 0 });
      const error = await http
        .send({
          method: 'POST',
          path: '/evaluations',
          form: () => buildForm({ assignment_id: 1 }, [{ field: 'answer_files', file: big }]),
          retry: false,
        })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectionError);
      expect((error as ConnectionError).maybeDelivered).toBe(false);
    });
  }
});
