// kct evaluate: submit one answer to an existing assignment (POST /evaluations, the legacy
// task path). It is charged at acceptance and has no idempotency, so kct never retries it, and an
// answer this machine sent before is followed instead of sent again (earlier.ts).
import { ConnectionError, TaskUnsuccessfulError, UsageError } from '../../api/errors.js';
import type { LegacyEvaluationFields, StatusSnapshot } from '../../api/schemas.js';
import { isUnsuccessfulFinal, statusOf } from '../../api/status.js';
import { TEXT_LABEL } from '../../cli/answers/labels.js';
import { stateDir } from '../../cli/core/config-store.js';
import type { Context } from '../../cli/core/context.js';
import type { OptionsOf } from '../../cli/core/define-command.js';
import { err, out } from '../../cli/core/io.js';
import { readStdinAnswer } from '../../cli/core/stdin.js';
import { watchWithProgress } from '../../cli/core/watch.js';
import { exporterFor } from '../../cli/render/export.js';
import { printOneResult } from '../../cli/render/outcomes.js';
import { plural } from '../../cli/render/style.js';
import type { KctClient } from '../../client/client.js';
import { checkFileCount, inspectFile, type LocalFile } from '../../client/files.js';
import { unscored } from '../../client/records.js';
import { Ledger } from '../../run/ledger.js';
import { LedgerLock } from '../../run/ledger-lock.js';
import type { command } from './command.js';
import { evaluationIdentity, findEarlier } from './earlier.js';
import { readFeedbackFile } from './feedback-file.js';

type Options = OptionsOf<typeof command>;

export async function run(options: Options, context: Context): Promise<void> {
  const assignmentId = options.assignment;
  const inputs = options.files ?? [];
  let text = options.text;
  if (inputs.includes('-')) {
    if (inputs.length > 1 || text !== undefined) throw new UsageError('- (text on stdin) cannot be combined with files or --text');
    text = await readStdinAnswer(context.io);
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
  const identity = await evaluationIdentity(fields, files);
  // one run at a time decides what to send to this server from this machine (src/run/ledger-lock.ts)
  const lock = await LedgerLock.take(Ledger.pathOf(stateDir(context.env), client.baseUrl), context.signal, (holder) =>
    context.note(`kct: ${holder}: another run is sending to this server; waiting until it has sent, so that no answer is charged twice`),
  );
  let task: { task_id: string; status?: string; credits_charged?: number | null };
  let reused: (StatusSnapshot & { task_id: string }) | undefined;
  try {
    const { ledger, problem } = Ledger.open(stateDir(context.env), client.baseUrl);
    if (problem) err(context.io, `kct: ${problem}: an answer sent before cannot be recognised, so a re-run charges it again`);
    try {
      const earlier = options.markAgain ? {} : await findEarlier(client, ledger, identity, context.signal);
      reused = earlier.reuse;
      if (reused) {
        task = reused;
        context.notice(
          'progress',
          `this answer was sent to assignment ${assignmentId} before (the same content and options; task ${reused.task_id}), and charged then: not sent again: kct follows that task for its mark (--mark-again pays to mark it anew)`,
          { task_id: reused.task_id, replayed: true },
        );
      } else {
        if (earlier.unmarked)
          context.notice(
            'progress',
            `this answer's earlier task ${earlier.unmarked.task_id} ended ${statusOf(earlier.unmarked)}: sending it again as a new task, charged at acceptance`,
            { task_id: earlier.unmarked.task_id },
          );
        task = await submit(client, fields, files, context);
        ledger?.accepted(identity, { taskId: task.task_id });
      }
    } finally {
      ledger?.close();
    }
  } finally {
    lock.release();
  }
  // a mark reused is shown under this run's student id, not the one it was first sent under (as one-pass's rows are)
  const asSentNow = { student_id: fields.student_id ?? null };
  if (options.wait === false) {
    await exporter.record(reused ? { ...reused, ...asSentNow, replayed: true } : task, () => {
      out(context.io, `${reused ? 'Sent before as' : 'Accepted'} ${task.task_id}  ${task.status ?? ''}`);
      if (reused) out(context.io, 'Not charged again (--mark-again pays to mark it anew)');
      else if (typeof task.credits_charged === 'number')
        out(context.io, `Charged at acceptance: ${plural(task.credits_charged, 'credit')}`);
      out(context.io, `Follow it with: kct status ${task.task_id} --watch`);
    });
    return;
  }
  if (!reused)
    context.notice(
      'progress',
      `accepted ${task.task_id}${typeof task.credits_charged === 'number' ? ` (charged ${plural(task.credits_charged, 'credit')} at acceptance)` : ''}`,
      { task_id: task.task_id, ...(typeof task.credits_charged === 'number' ? { credits_charged: task.credits_charged } : {}) },
    );
  await watchWithProgress(context, client, [task.task_id], options);
  const result = await client.result(task.task_id, { signal: context.signal });
  // the row names the answer as one-pass's does: its first file, - (stdin) or a pasted text's label
  const label = inputs[0] ?? (text === undefined ? '' : TEXT_LABEL);
  await printOneResult(context.io, exporter.format, reused ? { ...result, ...asSentNow } : result, {
    label,
    replayed: reused !== undefined,
  });
  if (isUnsuccessfulFinal(statusOf(result)))
    throw new TaskUnsuccessfulError(
      { [result.task_id]: statusOf(result) },
      undefined,
      'The reason is in the record printed. Fix the answer and run the same command again: an answer whose task ended FAILURE or CANCEL is sent again, as a new task (charged at acceptance, as this path is).',
    );
  // a SUCCESS with no score is no mark: exit 1, as one-pass, batch, result and status say it
  const noScore = unscored(result);
  if (noScore) throw noScore;
}

/** POST /evaluations, once: a connection broken after sending is said to be maybe charged, never resent. */
async function submit(client: KctClient, fields: LegacyEvaluationFields, files: LocalFile[], context: Context) {
  try {
    return await client.evaluate({ fields, answerFiles: files }, { signal: context.signal });
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
}
