// The perimeter flags of `kct sandbox` (issue 12) in effect when given, on a sandbox process (its
// umask, its own connections). Malformed ones (exit 2) are test/integration/sandbox-flag-refusals.test.ts.

import { statSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { FormData, request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import type { Sandbox } from './harness.js';
import { startSandbox } from './harness.js';

describe('kct sandbox perimeter flags', () => {
  let sandbox: Sandbox | undefined;
  afterAll(async () => {
    await sandbox?.stop();
  });

  it('given, they take effect: upload URLs on --public-url, a private data dir, 408 for a stalled body', async () => {
    sandbox = await startSandbox({
      args: [
        '--public-url',
        'https://sandbox.school.example',
        '--request-timeout',
        '3s',
        '--idle-timeout',
        '1s',
        '--threads',
        '1',
        '--job-timeout',
        '30s',
        '--max-connections',
        '8',
        '--log',
      ],
    });
    // it listens on loopback, and says to use the public address
    expect(sandbox.announcedBaseUrl).toBe('https://sandbox.school.example/v1');
    expect(sandbox.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(statSync(sandbox.dataDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(sandbox.dataDir, 'sandbox.db')).mode & 0o777).toBe(0o600);
    const form = new FormData();
    form.append('file', new Blob(['An essay.']), 'essay.txt');
    const upload = await request(`${sandbox.baseUrl}/uploads/file`, {
      method: 'POST',
      headers: { 'x-api-key': sandbox.keys.user },
      body: form,
    });
    expect(upload.statusCode).toBe(201);
    expect(((await upload.body.json()) as { data: { url: string } }).data.url).toMatch(
      /^https:\/\/sandbox\.school\.example\/files\/[0-9a-f]{32}\/essay\.txt$/,
    );
    const port = Number(new URL(sandbox.baseUrl).port);
    const answer = await new Promise<string>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () =>
        socket.write(
          `POST /v1/evaluations/one-pass HTTP/1.1\r\nHost: x\r\nX-API-Key: ${sandbox!.keys.user}\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n`,
        ),
      );
      let text = '';
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString();
      });
      socket.once('close', () => resolve(text));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain('"code":"request_timeout"');
  });
});
