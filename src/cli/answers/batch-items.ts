// The items of a finished batch as rows, matched to what was sent by their place in the batch.
// Shared by `kct batch` and `kct one-pass --via batch`.
import type { EvaluationResult } from '../../api/schemas.js';
import type { KctClient } from '../../client/client.js';
import { limiter } from '../../client/limit.js';
import { batchItemsOf } from '../../client/records.js';
import { type AnswerOutcome, outcomeFromResult } from '../render/outcome.js';

/**
 * Liberal: items may sit under `items`, `evaluations` or `results`, each with its `index` or in
 * order; an item without its evaluation is read alone. `sent[i]` is the item sent at place i
 * (undefined for places this run does not print).
 */
export async function itemOutcomes(
  client: KctClient,
  record: EvaluationResult,
  sent: ({ label: string; studentId?: string } | undefined)[],
  signal: AbortSignal,
): Promise<(AnswerOutcome | undefined)[]> {
  const raw = batchItemsOf(record) ?? [];
  const byIndex = new Map<number, EvaluationResult>();
  for (const entry of raw) if (typeof entry.index === 'number') byIndex.set(entry.index, entry);
  const fetchLimit = limiter(8);
  return Promise.all(
    sent.map(async (item, index) => {
      if (!item) return undefined;
      const entry = byIndex.get(index) ?? (byIndex.size === 0 ? raw[index] : undefined);
      const base: AnswerOutcome = { file: item.label, student_id: item.studentId, status: 'ERROR' };
      if (!entry) return { ...base, message: `the batch ${record.task_id} returned no item ${index + 1}` };
      let result = entry;
      if (result.status === 'SUCCESS' && !Array.isArray(result.evaluation) && result.task_id) {
        result = await fetchLimit(() => client.result(result.task_id, { signal }));
      }
      return outcomeFromResult(base, result);
    }),
  );
}
