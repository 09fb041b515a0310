// Why an answer was not marked is said once (failureReason, src/cli/render/outcome.ts), and the table
// of `kct result` and every machine row say the same: a CANCEL carries its reason only in the
// record's message, and the spec lets a FAILURE go without an error entry. A snapshot's message
// (QUEUED, PROGRESS) is no reason, and a SUCCESS with no score says it has none. Over generated result records.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EvaluationResult } from '../../src/api/schemas.js';
import { ndjsonRow, outcomeFromResult } from '../../src/cli/render/outcome.js';
import { printResult } from '../../src/cli/render/result.js';
import { makeIO } from './memory-io.js';
import { propertyRuns, propertySeed } from './property-runs.js';

async function tableOf(result: EvaluationResult): Promise<string> {
  const { io, output } = makeIO();
  await printResult(io, result);
  return output();
}

const words = fc.stringMatching(/^[A-Za-z][A-Za-z ,.;']{0,40}$/);

describe('the reason an answer was not marked', () => {
  it('property: the table and the rows give the same reason, from the error entry or else the record, and none for a task not ended', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('FAILURE', 'CANCEL', 'SUCCESS', 'QUEUED', 'PROGRESS'),
        fc.option(words, { nil: undefined }),
        fc.option(words, { nil: undefined }),
        fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined }),
        async (status, entryComment, message, score) => {
          const result: EvaluationResult = {
            task_id: 'tsk_reason',
            status,
            ...(message !== undefined ? { message } : {}),
            ...(score !== undefined ? { score } : {}),
            evaluation: entryComment !== undefined ? [{ type: 'error', comment: entryComment }] : [],
          };
          const row = ndjsonRow(outcomeFromResult({ file: 'a.txt', status: 'UNKNOWN' }, result));
          const ended = status === 'FAILURE' || status === 'CANCEL';
          if (ended) {
            const reason = entryComment ?? message;
            expect(row.message).toBe(reason);
            const table = await tableOf(result);
            if (reason !== undefined) expect(table).toContain(`Reason: ${reason}`);
            else expect(table).not.toContain('Reason:');
          } else if (status === 'SUCCESS' && score === undefined && entryComment === undefined) {
            // a SUCCESS with no score is no mark: its row says so (exit 1, test/integration/unscored-success.test.ts)
            expect(row.message).toBe('no score in the result (the service did not say the mark)');
            expect(await tableOf(result)).toContain('Total: none in the result');
          } else {
            // a marked answer's error entry is its row's note; a snapshot's message is not a reason
            expect(row.message).toBe(entryComment);
          }
        },
      ),
      { numRuns: propertyRuns(200), seed: propertySeed(34) },
    );
  });
});
