// A failure the service calls its own (`retryable`), not the answer's, would be replayed forever
// under the same derived key: the answer is sent again under a derived follow-up key, at most
// twice (resends.ts counts them), and the new task is followed in the run's one polling loop.
import type { EvaluationResult, OnePassFields } from '../api/schemas.js';
import { statusOf } from '../api/status.js';
import type { Answer } from '../cli/answers/answers.js';
import { err } from '../cli/core/io.js';
import { keyOf } from './keys.js';
import type { MarkingRun } from './marking.js';
import { dropUndefined } from './settings.js';

/** Sends the answer again when its task failed on the service's side and may be retried; false when it is not to be. */
export async function retried(run: MarkingRun, row: number, answer: Answer, result: EvaluationResult): Promise<boolean> {
  const { settings, resends } = run;
  const attempt = resends.nextRetry(row);
  if (settings.keyRule.kind !== 'derived' || attempt === undefined || statusOf(result) !== 'FAILURE' || result.retryable !== true)
    return false;
  const { client, context, record } = settings;
  err(context.io, `kct: ${answer.label}: ${result.task_id} failed on the service's side and may be retried; submitting it again`);
  const fields: OnePassFields = dropUndefined({ ...settings.common, paper_content: answer.text, student_id: answer.studentId });
  const input = run.inputOf(answer, fields);
  const identity = run.identityOf(row);
  const key = `${keyOf(settings, answer, identity, input, resends.replacedTask(row))}-retry${attempt}`;
  record.sent(row, identity, key);
  const again = await client.onePass(input, { idempotency: { key }, signal: context.signal });
  resends.retried(row, attempt);
  run.accept(again);
  run.tasked.add(row, again.task_id);
  record.accepted(row, identity, { taskId: again.task_id }, again.status ?? 'QUEUED', again.replayed === true);
  run.follower.watch(again.task_id, { kind: 'answer', row }, { firstPollIn: settings.firstPollIn });
  return true;
}
