// kct evaluate: submit one answer to an existing assignment (POST /evaluations, the legacy
// task path). It is charged at acceptance and has no idempotency, so kct never retries it.
import { ConnectionError, TaskUnsuccessfulError, UsageError } from '../../api/errors.js';
import type { LegacyEvaluationFields } from '../../api/schemas.js';
import { isUnsuccessfulFinal, statusOf } from '../../api/status.js';
import type { Context } from '../../cli/core/context.js';
import type { OptionsOf } from '../../cli/core/define-command.js';
import { out } from '../../cli/core/io.js';
import { readStdinText } from '../../cli/core/stdin.js';
import { watchWithProgress } from '../../cli/core/watch.js';
import { exporterFor } from '../../cli/render/export.js';
import { printOneResult } from '../../cli/render/outcomes.js';
import { plural } from '../../cli/render/style.js';
import { checkFileCount, inspectFile } from '../../client/files.js';
import type { command } from './command.js';
import { readFeedbackFile } from './feedback-file.js';

type Options = OptionsOf<typeof command>;

export async function run(options: Options, context: Context): Promise<void> {
  const assignmentId = options.assignment;
  const inputs = options.files ?? [];
  let text = options.text;
  if (inputs.includes('-')) {
    if (inputs.length > 1 || text !== undefined) throw new UsageError('- (text on stdin) cannot be combined with files or --text');
    text = await readStdinText(context.io);
  }
  const files = await Promise.all(inputs.filter((input) => input !== '-').map((path) => inspectFile(path)));
  checkFileCount(files.length, 'answer');
  if (text === undefined && files.length === 0)
    throw new UsageError('no answer given', { suggestion: 'Pass answer files (the pages of one answer), - for text on stdin, or --text.' });
  if (text !== undefined && text.trim() === '') throw new UsageError('the answer text is empty');
  const fields: LegacyEvaluationFields = {
    assignment_id: assignmentId,
    ...(text !== undefined ? { paper_content: text } : {}),
    ...(options.feedbackJson ? { current_feedbacks: await readFeedbackFile(options.feedbackJson) } : {}),
    ...(options.style ? { style: options.style } : {}),
    ...(options.studentId ? { student_id: options.studentId } : {}),
  };
  const exporter = await exporterFor(options, context);
  const client = await context.client();
  let task;
  try {
    task = await client.evaluate({ fields, answerFiles: files }, { signal: context.signal });
  } catch (error) {
    if (error instanceof ConnectionError && error.maybeDelivered) {
      throw new ConnectionError(
        `${error.message}; the submission may have been accepted (and charged, since this path charges at acceptance)`,
        true,
        {
          cause: error,
          suggestion: 'Do not resubmit blindly: check `kct credits` for a charge first. kct never retries POST /evaluations by itself.',
        },
      );
    }
    throw error;
  }
  if (options.wait === false) {
    await exporter.record(task, () => {
      out(context.io, `Accepted ${task.task_id}  ${task.status ?? ''}`);
      if (typeof task.credits_charged === 'number') out(context.io, `Charged at acceptance: ${plural(task.credits_charged, 'credit')}`);
      out(context.io, `Follow it with: kct status ${task.task_id} --watch`);
    });
    return;
  }
  context.notice(
    'progress',
    `accepted ${task.task_id}${typeof task.credits_charged === 'number' ? ` (charged ${plural(task.credits_charged, 'credit')} at acceptance)` : ''}`,
    { task_id: task.task_id, ...(typeof task.credits_charged === 'number' ? { credits_charged: task.credits_charged } : {}) },
  );
  await watchWithProgress(context, client, [task.task_id], options);
  const result = await client.result(task.task_id, { signal: context.signal });
  await printOneResult(context.io, exporter.format, result);
  if (isUnsuccessfulFinal(statusOf(result))) throw new TaskUnsuccessfulError({ [result.task_id]: statusOf(result) });
}
