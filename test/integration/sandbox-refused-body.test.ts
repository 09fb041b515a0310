// A request refused before its body is read (no key, wrong key) still gets its answer while the
// client is sending: without reading the body through, the closed connection met the client's
// next write as EPIPE, and kct reported "cannot reach" (exit 9) instead of the 401 (exit 4).
// Node 24 lost that race every time for a small body; Node 20 and 22 often for a 256 KiB one.
import { Readable } from 'node:stream';
import { Agent, FormData, request } from 'undici';
import { expect, test } from 'vitest';
import { dispatcher, sandboxForFile } from '../unit/sandbox-helpers.js';

const sb = sandboxForFile();

function upload(bytes: number): FormData {
  const form = new FormData();
  form.append('model_id', '12');
  form.append('answer_files', new Blob([Buffer.alloc(bytes, 'a')], { type: 'text/plain' }), 'answer.txt');
  return form;
}

test('an upload with a wrong or no key gets 401 every time, and the connection stays usable', async () => {
  const single = new Agent({ connections: 1 });
  try {
    for (const [key, bytes] of [
      ['kct_sbx_wrong', 256 * 1024],
      [undefined, 10],
      ['kct_sbx_wrong', 10],
      [undefined, 700 * 1024],
    ] as const) {
      const res = await request(`${sb.baseUrl}/evaluations/one-pass`, {
        method: 'POST',
        dispatcher: single,
        body: upload(bytes),
        headers: key ? { 'x-api-key': key } : {},
      });
      expect(res.statusCode).toBe(401);
      expect(res.headers.connection).not.toBe('close');
      await res.body.json();
    }
    // the same single connection then serves a good request
    const ok = await request(`${sb.baseUrl}/credits`, { dispatcher: single, headers: { 'x-api-key': sb.keys.user } });
    expect(ok.statusCode).toBe(200);
    await ok.body.json();
  } finally {
    await single.close();
  }
});

test('a large body refused unread is not read through: the connection is closed', async () => {
  const res = await request(`${sb.baseUrl}/evaluations/one-pass`, {
    method: 'POST',
    dispatcher,
    headers: { 'x-api-key': 'kct_sbx_wrong', 'content-type': 'text/plain', 'content-length': String(4 * 1024 * 1024) },
    body: Readable.from(
      (async function* () {
        yield Buffer.alloc(1024, 'a');
        await new Promise(() => {}); // the rest never comes: the answer must not wait for it
      })(),
    ),
  }).catch((error: Error) => error);
  // Either the 401 arrived before the close, or the close cut the unsent body: never a drained, kept connection.
  if (res instanceof Error) expect(res.message).toMatch(/other side closed|socket|EPIPE|ECONNRESET|aborted/i);
  else {
    expect(res.statusCode).toBe(401);
    expect(res.headers.connection).toBe('close');
    await res.body.dump();
  }
});
