import { NotFinalError, TaskUnsuccessfulError } from '../../api/errors.js';
import { isFinalStatus } from '../../api/status.js';
import type { Context } from '../../cli/core/context.js';
import type { OptionsOf } from '../../cli/core/define-command.js';
import { exporterFor } from '../../cli/render/export.js';
import { outcomeFromResult } from '../../cli/render/outcome.js';
import { OutcomeWriter, printOneResult } from '../../cli/render/outcomes.js';
import { batchItemsOf, missingItems, unscored, unsuccessful } from '../../client/records.js';
import type { command } from './command.js';

type Options = OptionsOf<typeof command>;

export async function run(options: Options, context: Context): Promise<void> {
  const { format } = await exporterFor(options, context);
  const client = await context.client();
  const result = await client.result(options.taskId, { signal: context.signal });
  const items = batchItemsOf(result);
  if (items && (format === 'csv' || format === 'ndjson')) {
    // a pipeline wants one row per answer, as `kct batch` prints them, not one for the batch
    const writer = new OutcomeWriter(context.io, format, { severalModels: true });
    await writer.init();
    for (const item of items) {
      writer.add(
        outcomeFromResult(
          { file: '', student_id: typeof item.student_id === 'string' ? item.student_id : undefined, status: 'UNKNOWN' },
          item,
        ),
      );
    }
    writer.flush();
  } else {
    await printOneResult(context.io, format, result);
  }
  // exit 3, 1 for a SUCCESS with no score, or 8 for a task still running, after the record is printed in whichever format
  const failure = unsuccessful(result);
  if (failure)
    throw new TaskUnsuccessfulError(
      failure.statuses,
      failure.message,
      `${Object.keys(failure.statuses).includes(result.task_id) ? 'Its reason is in the record printed' : "Each item's reason is in its row"}: fix the answer and send it again. On the one-pass and batch paths a task that does not mark its answer is not charged.`,
    );
  const noScore = unscored(result) ?? missingItems(result);
  if (noScore) throw noScore;
  if (typeof result.status === 'string' && !isFinalStatus(result.status))
    throw new NotFinalError(result.task_id || options.taskId, result.status);
}
