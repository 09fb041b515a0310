import { TaskUnsuccessfulError } from '../../api/errors.js';
import { isUnsuccessfulFinal, statusOf } from '../../api/status.js';
import type { Context } from '../../cli/core/context.js';
import type { OptionsOf } from '../../cli/core/define-command.js';
import { exporterFor } from '../../cli/render/export.js';
import { outcomeFromResult } from '../../cli/render/outcome.js';
import { OutcomeWriter, printOneResult } from '../../cli/render/outcomes.js';
import { batchItemsOf } from '../../client/records.js';
import type { command } from './command.js';

type Options = OptionsOf<typeof command>;

export async function run(options: Options, context: Context): Promise<void> {
  const { format } = await exporterFor(options, context);
  const client = await context.client();
  const result = await client.result(options.taskId, { signal: context.signal });
  const items = batchItemsOf(result);
  if (items && (format === 'csv' || format === 'ndjson')) {
    // a pipeline wants one row per answer, as `kct batch` prints them, not one for the batch
    const writer = new OutcomeWriter(context.io, format);
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
  // Exit 3 (docs/commands/kct.md#exit-codes), after the result is printed in whichever format. A batch ends
  // SUCCESS when one item did; like `kct batch`, any item that did not succeed counts.
  const failedItems = (items ?? []).filter((item) => isUnsuccessfulFinal(statusOf(item)));
  if (failedItems.length > 0) {
    throw new TaskUnsuccessfulError(
      Object.fromEntries(failedItems.map((item) => [String(item.task_id ?? ''), statusOf(item)])),
      `${failedItems.length} of ${items!.length} items did not succeed`,
    );
  }
  if (isUnsuccessfulFinal(statusOf(result))) throw new TaskUnsuccessfulError({ [result.task_id]: statusOf(result) });
}
