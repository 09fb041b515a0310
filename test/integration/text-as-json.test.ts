// A plain-text answer sent as JSON paper_content (the client's default; textAsJson: false sends the
// file) is marked as the same file sent as multipart: the same words, the same criteria and score,
// the same words left out, and the same price (the sandbox prices pasted text as a file of its bytes).
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KctClient } from '../../src/client/client.js';
import { inspectFileSync } from '../../src/client/files.js';
import { ROOT, tempDir, useSandbox } from './harness.js';

const shared = useSandbox();

describe('a plain-text answer as JSON paper_content', () => {
  it('is marked exactly as the same file sent as a file (text with a BOM and a title line too)', async () => {
    const client = new KctClient({ baseUrl: shared.sandbox.baseUrl, apiKey: shared.sandbox.keys.user });
    const dir = tempDir('kct-text-json-');
    const essay = join(dir, 'essay.txt');
    copyFileSync(join(ROOT, 'examples', 'sample-essay.txt'), essay);
    const titled = join(dir, 'titled.txt');
    writeFileSync(titled, '\uFEFFAna Lopez, Year 10\n\nSchool uniforms should stay.\n\nThey save families money, because shops compete.\n');
    try {
      for (const path of [essay, titled]) {
        const marked = [];
        for (const textAsJson of [false, true]) {
          // another student id for each: the key is made from the request, and a key reused on another body is refused (409)
          const task = await client.onePass(
            { fields: { model_id: 12, student_id: `s-${textAsJson}` }, answerFiles: [inspectFileSync(path)] },
            { idempotency: 'derive', textAsJson },
          );
          await client.waitFor(task.task_id, { timeoutMs: 60_000 });
          const {
            task_id: _id,
            student_id: _student,
            credit_cost: cost,
            credits_charged: charged,
            ...result
          } = await client.result(task.task_id);
          marked.push({ cost, charged, result });
        }
        expect(marked[1].result).toEqual(marked[0].result);
        expect(marked[0].result.status).toBe('SUCCESS');
        // the same answer, the same price, however it travels
        expect(marked.map((m) => [m.cost, m.charged])).toEqual([
          [1, 1],
          [1, 1],
        ]);
      }
    } finally {
      await client.close();
    }
  });
});
