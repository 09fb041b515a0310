// kct sandbox --rate-limit: each API key's requests a second, as a real service limits them.
// Past its bucket a key gets 429 rate_limited in the envelope with an integer Retry-After,
// before any body is read; another key is not affected; waiting as told is enough.
import net from 'node:net';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { dispatcher, launch } from '../unit/sandbox-helpers.js';
import { useSandbox } from './harness.js';

const shared = useSandbox({ args: ['--rate-limit', '2'] });

async function get(key: string, path = '/credits') {
  const res = await request(`${shared.sandbox.baseUrl}${path}`, { headers: { 'x-api-key': key }, dispatcher });
  return { status: res.statusCode, headers: res.headers, body: (await res.body.json()) as any };
}

describe('kct sandbox --rate-limit 2', () => {
  it('answers 429 rate_limited with Retry-After and the envelope past a key bucket, leaves another key alone, and admits the key after Retry-After', async () => {
    const { user, org_admin } = shared.sandbox.keys;
    // a bucket holds one second of requests: 2
    expect((await get(user)).status).toBe(200);
    expect((await get(user)).status).toBe(200);
    const refused = await get(user);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(Number.isInteger(retryAfter) && retryAfter >= 1).toBe(true);
    expect(refused.body).toEqual({
      error: {
        code: 'rate_limited',
        status: 429,
        message: `Too many requests with this API key: at most 2 requests a second (bursts of 2). Retry after ${retryAfter} second${retryAfter === 1 ? '' : 's'}.`,
      },
      request_id: refused.headers['x-request-id'],
    });
    // another key, at the same moment, from the same address
    expect((await get(org_admin)).status).toBe(200);
    // waiting as told is enough (what is under test is this wait)
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
    expect((await get(user)).status).toBe(200);
  });

  it('refuses before the body is read: no task, no charge, no 100 Continue', async () => {
    const key = shared.sandbox.keys.org_member;
    const before = (await get(key)).body.data;
    expect((await get(key)).status).toBe(200);
    // the headers of an upload that waits for 100 Continue before sending its body
    const body = JSON.stringify({ model_id: 31, paper_content: 'An essay about a turning point.' });
    const url = new URL(shared.sandbox.baseUrl);
    const answer = await new Promise<string>((resolve) => {
      const socket = net.connect(Number(url.port), url.hostname, () =>
        socket.write(
          `POST /v1/evaluations/one-pass HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`,
        ),
      );
      let text = '';
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('\r\n\r\n{') && text.trimEnd().endsWith('}')) socket.destroy();
      });
      socket.once('close', () => resolve(text));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 429 /);
    expect(answer).toContain('"code":"rate_limited"');
    const retryAfter = /retry-after: (\d+)/i.exec(answer)?.[1];
    await new Promise((resolve) => setTimeout(resolve, Number(retryAfter) * 1000));
    const after = (await get(key)).body.data;
    expect([after.credits, after.reserved]).toEqual([before.credits, before.reserved]);
  });
});

describe('without --rate-limit', () => {
  it('no key is refused for its rate (the default)', async () => {
    const sb = await launch();
    try {
      const statuses = await Promise.all(Array.from({ length: 40 }, () => sb.call('GET', '/credits').then((r) => r.status)));
      expect(statuses.every((s) => s === 200)).toBe(true);
    } finally {
      await sb.dispose();
    }
  });
});
