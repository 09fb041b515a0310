// Every method of the library passes its call options on: `patient` (outlast the service's pace,
// with a request budget) was dropped by onePass, cancel and the rest, which accept it in their types.
// (A POST without an Idempotency-Key, such as cancel, is never sent twice, patient or not.)
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KctClient, RequestBudget } from '../../src/index.js';

/** Refuses the first `refusals` requests of each path with 429, then accepts. */
let server: Server;
let baseUrl: string;
const seen = new Map<string, number>();
const REFUSALS = 3;
beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const path = req.url ?? '';
      const count = (seen.get(path) ?? 0) + 1;
      seen.set(path, count);
      if (count <= REFUSALS) {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' });
        res.end(JSON.stringify({ error: { code: 'rate_limited', message: 'Too many requests.', status: 429 } }));
        return;
      }
      res.writeHead(path.endsWith('/cancel') ? 200 : 202, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ data: { task_id: 'tsk_0123456789abcdef01234567', status: path.endsWith('/cancel') ? 'CANCEL' : 'QUEUED' } }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('call options reach the request', () => {
  it('onePass outlasts three 429s when patient, as batch and the reads do', async () => {
    // one retry of other errors: only a patient request gets past three refusals
    const client = new KctClient({
      baseUrl,
      apiKey: 'kct_test_key_123456',
      retry: { maxRetries: 1, baseDelayMs: 1 },
      budget: new RequestBudget(),
    });
    const task = await client.onePass({ fields: { model_id: 12, paper_content: 'An answer.' } }, { idempotencyKey: 'k-1', patient: true });
    expect(task.task_id).toMatch(/^tsk_/);
    expect(seen.get('/v1/evaluations/one-pass')).toBe(REFUSALS + 1);
    // not patient: the refusals use up its retries
    seen.clear();
    await expect(client.onePass({ fields: { model_id: 12, paper_content: 'Another.' } }, { idempotencyKey: 'k-2' })).rejects.toThrow(
      /Too many requests/,
    );
    await client.close();
  });
});
