// Exit codes CI can trust (issue 11, item 4): a server that refuses an upload before reading it
// (401, 403, 413) and closes the connection. The answer that arrived wins over the broken upload:
// no "service unreachable", no retries, no "may have been charged". First against a small server
// that answers at the headers and resets the connection (a stand-in for any server, outside the
// project), then 30 times against the real sandbox.
import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, kctEnv, type RunResult, runKct, tempDir, useSandbox } from './harness.js';

const BIG = 5 * 1024 * 1024;

/** A 5 MB PDF (a header and filler: nothing reads it, the server refuses it first). */
function bigPdf(): string {
  const path = join(tempDir('kct-big-'), 'essay.pdf');
  writeFileSync(path, Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(BIG, 'x')]));
  return path;
}

/** Answers `status` as soon as the request headers arrive, flushes it, and resets the connection (unread body). */
async function refusingServer(status: number, message: string): Promise<{ baseUrl: string; server: Server }> {
  const server = createServer((socket) => {
    let head = '';
    socket.on('error', () => {});
    socket.on('data', (chunk) => {
      if (head === null) return;
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      head = null as unknown as string;
      const body = JSON.stringify({ error: { code: `http_${status}`, message } });
      socket.write(
        `HTTP/1.1 ${status} Refused\r\nconnection: close\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nx-request-id: req_early\r\n\r\n${body}`,
        () => socket.destroy(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, server };
}

function expectTheAnswer(run: RunResult, code: number, status: number): void {
  expect(run.code).toBe(code);
  expect(run.stderr).toContain(`HTTP ${status}`);
  expect(run.stderr).not.toMatch(/retrying|cannot reach|EPIPE|ECONNRESET|may have been/);
}

describe('a server that answers before reading the upload, then resets the connection', () => {
  const servers: Server[] = [];
  let pdf: string;
  beforeAll(() => {
    pdf = bigPdf();
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  });

  for (const [status, code, message] of [
    [401, 4, 'The API key is not valid.'],
    [403, 4, 'No access to this model.'],
    [413, 2, 'The file is larger than 20 MB.'],
  ] as const) {
    it(`${status}: exit ${code} for one-pass, evaluate and upload, every time`, async () => {
      const { baseUrl, server } = await refusingServer(status, message);
      servers.push(server);
      const env = kctEnv(tempDir(), { KCT_BASE_URL: baseUrl, KCT_API_KEY: 'kct_sbx_00000000000000000000000000000000' });
      for (let i = 0; i < 5; i++) {
        const run = await runKct(['one-pass', pdf, '--model', '12'], { env });
        expectTheAnswer(run, code, status);
        expect(run.stderr).toContain(message);
      }
      // the legacy path charges at acceptance and is never retried: it must not claim a charge
      const evaluate = await runKct(['evaluate', '--assignment', '1001', pdf], { env });
      expectTheAnswer(evaluate, code, status);
      const upload = await runKct(['upload', pdf], { env });
      expectTheAnswer(upload, code, status);
    });
  }
});

describe('the real sandbox and a wrong key', () => {
  const shared = useSandbox();

  it('30 runs of a wrong key with a 5 MB PDF all exit 4', async () => {
    const pdf = bigPdf();
    const wrong = asUser(shared.sandbox, 'user');
    const runs: RunResult[] = [];
    // three at a time: the machine is shared; the outcome must not depend on timing anyway
    for (let i = 0; i < 30; i += 3) {
      runs.push(
        ...(await Promise.all(
          [0, 1, 2].map(() =>
            wrong(['one-pass', pdf, '--model', '12'], { env: { KCT_API_KEY: 'kct_sbx_00000000000000000000000000000000' } }),
          ),
        )),
      );
    }
    expect(runs.map((run) => run.code)).toEqual(Array(30).fill(4));
    for (const run of runs) expectTheAnswer(run, 4, 401);
  }, 240_000);
});
