// kct batch stopped by Ctrl-C: what kct saw (the batches accepted and not seen finished, by id; the
// items printed; the items never sent), and how to collect them without a second charge.
import { InterruptedError } from '../../api/errors.js';
import { plural } from '../../cli/render/style.js';

/** How many batch tasks are named by id (kct cancel and kct result take one). */
const NAMED_BATCHES = 3;
/** How many --json's error names (StoppedRun.taskIds). */
const NAMED_FOR_SCRIPTS = 100;

export interface StoppedBatches {
  /** Batch tasks accepted and not seen finished. */
  running: readonly string[];
  /** Manifest items in those batches (copies with them). */
  runningItems: number;
  /** Manifest items seen finished: their rows are printed (--no-wait: their tasks are, listed final). */
  finishedItems: number;
  /** Whether the finished items' rows were printed (a waiting run), or only their tasks (--no-wait). */
  rowsPrinted?: boolean;
  /** Manifest items in no request accepted. */
  notSent: number;
}

export function batchInterrupted({ running, runningItems, finishedItems, notSent, rowsPrinted = true }: StoppedBatches): InterruptedError {
  const named = running.slice(0, NAMED_BATCHES);
  const ids =
    named.length === 0
      ? ''
      : `: ${named.length === 1 ? 'batch' : 'batches'} ${named.join(', ')}${running.length > named.length ? ', …' : ''}`;
  const done =
    finishedItems === 0
      ? ''
      : ` (${plural(finishedItems, 'item')} seen finished, ${finishedItems === 1 ? 'its' : 'their'} ${rowsPrinted ? 'row' : 'task'}${finishedItems === 1 ? '' : 's'} printed)`;
  const unsent = notSent > 0 ? `; ${plural(notSent, 'item')} not sent` : '';
  const head =
    runningItems === 0
      ? `interrupted; no batch kct knows of is left unfinished${done}${unsent}`
      : // a batch's rows come when it is read whole: some of its items may be marked already (the progress line counted them)
        `interrupted; ${plural(runningItems, 'item')} in ${running.length === 1 ? 'a batch' : 'batches'} not seen finished, some perhaps marked already, the others still running on the service${ids}${done}${unsent}`;
  const todo = [
    runningItems > 0 ? 'collect them' : 'collect what was marked',
    ...(notSent > 0 ? [`send the ${plural(notSent, 'item')} not sent`] : []),
  ];
  const follow = named[0] === undefined ? '' : ` To read one now: kct result ${named[0]}; to stop one: kct cancel ${named[0]}.`;
  return new InterruptedError(head, {
    suggestion: `Run the same command again to ${todo.join(' and ')}: the service replays each batch request it accepted by its idempotency key, so nothing is charged twice.${follow}`,
    // for scripts, in items as one-pass counts answers: a batch's items share its task
    run: { accepted: runningItems + finishedItems, unfinished: runningItems, taskIds: running.slice(0, NAMED_FOR_SCRIPTS), notSent },
  });
}
