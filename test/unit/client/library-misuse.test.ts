// "Every error is a KctError with a stable code" (docs/library.md), also for a caller from plain
// JavaScript that breaks the types: no options, no base URL, a path where a checked file goes, no
// task id. Each was a TypeError, a raw Node error or a plain Error before.
import { describe, expect, it } from 'vitest';
import { KctError } from '../../../src/api/errors.js';
import { KctClient } from '../../../src/client/client.js';

const usage = (message: string) => expect.objectContaining({ code: 'usage', message: expect.stringContaining(message) });

describe('the library, called against its types', () => {
  it('refuses each mistake with a KctError (code "usage") that says what to pass', async () => {
    const made = (options: unknown) => {
      try {
        return new KctClient(options as never);
      } catch (error) {
        expect(error).toBeInstanceOf(KctError);
        return error;
      }
    };
    expect(made(undefined)).toEqual(usage('new KctClient() needs its options'));
    expect(made({ apiKey: 'kct_test_key' })).toEqual(usage('no base URL (the baseUrl option)'));
    const client = new KctClient({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'kct_test_key' });
    try {
      const asPath = client.onePass({ fields: { model_id: 12 }, answerFiles: ['big.txt'] } as never);
      await expect(asPath).rejects.toBeInstanceOf(KctError);
      await expect(asPath).rejects.toEqual(usage('answerFiles holds "big.txt", not a file checked by inspectFile()'));
      const noTask = client.status(undefined as never);
      await expect(noTask).rejects.toBeInstanceOf(KctError);
      await expect(noTask).rejects.toEqual(usage('no taskId given for getStatus'));
      // two key rules at once: refused before anything is sent (port 9 would refuse the connection)
      const fields = { model_id: 12, paper_content: 'An essay.' };
      await expect(client.onePass({ fields }, { idempotencyKey: 'a-1', idempotency: { key: 'b-1' } })).rejects.toEqual(
        usage('idempotency and idempotencyKey were both given'),
      );
      await expect(client.batch({ evaluations: [fields] }, { idempotencyKey: 'a-1', idempotency: 'derive' })).rejects.toEqual(
        usage('idempotency and idempotencyKey were both given'),
      );
    } finally {
      await client.close();
    }
  });
});
