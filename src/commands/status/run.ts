import { TaskUnsuccessfulError, WatchTimeoutError } from '../../api/errors.js';
import type { StatusSnapshot } from '../../api/schemas.js';
import { isUnsuccessfulFinal, statusOf } from '../../api/status.js';
import type { Context } from '../../cli/core/context.js';
import type { OptionsOf } from '../../cli/core/define-command.js';
import { out } from '../../cli/core/io.js';
import { watchWithProgress } from '../../cli/core/watch.js';
import { exporterFor } from '../../cli/render/export.js';
import { printFailedCallback } from '../../cli/render/result.js';
import { describeSnapshot } from '../../cli/render/snapshot.js';
import { missingItems, unscored, unsuccessful } from '../../client/records.js';
import type { command } from './command.js';

type Options = OptionsOf<typeof command>;

export async function run(options: Options, context: Context): Promise<void> {
  const exporter = await exporterFor(options, context);
  const client = await context.client();
  const print = (snapshot: StatusSnapshot) =>
    exporter.record(snapshot, () => out(context.io, `${options.taskId}  ${describeSnapshot(snapshot)}`));
  const seen = new Map<string, StatusSnapshot>();
  let snapshot: StatusSnapshot;
  try {
    snapshot = options.watch
      ? (await watchWithProgress(context, client, [options.taskId], options, seen)).get(options.taskId)!
      : await client.status(options.taskId, { signal: context.signal });
  } catch (error) {
    // --timeout ran out: the status it ended on is still the record printed (exit 8), as one-pass prints a TIMEOUT row
    const last = seen.get(options.taskId);
    if (error instanceof WatchTimeoutError && last) await print(last);
    throw error;
  }
  await print(snapshot);
  const status = statusOf(snapshot);
  // a final batch's record says what the status does not: which items failed, and a callback that
  // gave up (one read, for the table's line or a SUCCESS's items; if it cannot be read, the status printed is the answer)
  const result =
    status === 'SUCCESS' || (exporter.format === 'table' && isUnsuccessfulFinal(status))
      ? await client.result(options.taskId, { signal: context.signal }).catch((error: unknown) => {
          if (context.signal.aborted) throw error;
          return undefined;
        })
      : undefined;
  if (result && exporter.format === 'table') printFailedCallback(context.io, result);
  // a snapshot read once says the same as a watch that ended on it (exit 3, docs/commands/kct.md#exit-codes)
  if (isUnsuccessfulFinal(status)) {
    throw new TaskUnsuccessfulError({ [options.taskId]: status }, undefined, `Its reason is in its record: kct result ${options.taskId}.`);
  }
  // a batch ends SUCCESS when one item did, and its status does not say which: its result does
  if (status === 'SUCCESS') {
    const failure = result && unsuccessful(result);
    if (failure)
      throw new TaskUnsuccessfulError(
        failure.statuses,
        failure.message,
        `Each item's reason is in its row's message: kct result ${options.taskId} --output csv.`,
      );
    const noScore = result && (unscored(result) ?? missingItems(result));
    if (noScore) throw noScore;
  }
  if (options.watch && exporter.format === 'table') context.notice('next', `See the scores with: kct result ${options.taskId}`);
}
