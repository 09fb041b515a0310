// kct batch's items this machine marked before (src/run/ledger.ts, by one-pass or in a batch) are
// not sent again: an answer is its content, so a manifest grown since is charged for its new items
// only. Each item reused is read from the task that marked it (a batch's item, or a one-pass task),
// waited for while it runs, and printed flagged `replayed`, as one-pass prints a reused mark. An
// item whose task did not mark it (FAILURE, CANCEL), or that the service does not know (404: a
// sandbox started afresh, another account), is sent as new. --mark-again reuses nothing.
import { NotFoundError } from '../../api/errors.js';
import type { EvaluationResult, Task } from '../../api/schemas.js';
import { isFinalStatus } from '../../api/status.js';
import { itemOutcomes } from '../../cli/answers/batch-items.js';
import { type AnswerOutcome, outcomeFromResult } from '../../cli/render/outcome.js';
import { plural } from '../../cli/render/style.js';
import type { KctClient } from '../../client/client.js';
import { limiter } from '../../client/limit.js';
import { batchItemsOf } from '../../client/records.js';
import type { Marked } from '../../run/ledger.js';
import { withEarlierStudent } from '../../run/row-names.js';
import type { BatchLedger } from './batch-ledger.js';
import type { DistinctItems } from './copies.js';

/** A task of an earlier run that marked items of this manifest. */
export interface EarlierTask {
  taskId: string;
  /** A batch (its items by place) or a one-pass task (its one answer). */
  batch: boolean;
  /** The items it holds (their index among the items of `distinctItems`), each with its place in it. */
  places: { at: number; item: number; marked: Marked }[];
  /** Its state when read: what --no-wait lists of it. */
  task: Task;
}

export interface Reuse {
  /** Earlier tasks holding items reused, as read now (still running ones are followed, then read again). */
  earlier: EarlierTask[];
  /** The rows of items whose earlier task has ended and marked them, by item index. */
  rows: [number, AnswerOutcome][];
  /** The items to send, in manifest order: new ones, and those whose earlier task did not mark them or is unknown here. */
  send: number[];
  /** Of those, each that a task did not mark: that task ("<batch id>#<item>" or a task id), so its request is a new one. */
  failedIn: Map<number, string>;
}

/** How the ledger names an earlier mark: a task id, or "<batch id>#<item>". */
const nameOf = (marked: Marked) => ('taskId' in marked ? marked.taskId : `${marked.batchId}#${marked.item}`);

/** What this machine's ledger knows of the items, checked with the service before anything is sent. */
export async function earlierMarks(client: KctClient, ledger: BatchLedger, distinct: DistinctItems, signal: AbortSignal): Promise<Reuse> {
  const byTask = new Map<string, EarlierTask>();
  const send = new Set<number>();
  const failedIn = new Map<number, string>();
  // --mark-copies: identical items are each sent and charged, an earlier mark of theirs not reused (as one-pass)
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const identity of distinct.identities) (seen.has(identity) ? repeated : seen).add(identity);
  for (const at of distinct.items.keys()) {
    const marked = repeated.has(distinct.identities[at]) ? undefined : ledger.latest(at);
    if (marked === undefined || marked.failed) {
      send.add(at);
      if (marked) failedIn.set(at, nameOf(marked));
      continue;
    }
    const [taskId, item] = 'batchId' in marked ? [marked.batchId, marked.item] : [marked.taskId, 0];
    const earlier = byTask.get(taskId) ?? { taskId, batch: 'batchId' in marked, places: [], task: { task_id: taskId } };
    earlier.places.push({ at, item, marked });
    byTask.set(taskId, earlier);
  }
  const rows: [number, AnswerOutcome][] = [];
  const earlier: EarlierTask[] = [];
  const read = limiter(8);
  await Promise.all(
    [...byTask.values()].map((task) =>
      read(async () => {
        let record: EvaluationResult;
        try {
          record = await client.result(task.taskId, { signal });
        } catch (error) {
          // a task this service does not know marked nothing here: its items are new to it
          if (!(error instanceof NotFoundError)) throw error;
          for (const { at } of task.places) send.add(at);
          return;
        }
        task.task = taskNow(record, task.batch);
        if (isFinalStatus(record.status)) {
          const outcomes = await reusedOutcomes(client, task, record, distinct, signal);
          task.places = task.places.filter(({ at, marked }, i) => {
            if (outcomes[i].status === 'SUCCESS') return rows.push([at, outcomes[i]]);
            // not marked by it (and so not charged): recorded as failed, and sent as new
            ledger.failedBefore(at, marked);
            send.add(at);
            failedIn.set(at, nameOf(marked));
            return false;
          });
        }
        if (task.places.length > 0) earlier.push(task);
      }),
    ),
  );
  return { earlier, rows, send: [...send].sort((a, b) => a - b), failedIn };
}

/** The rows of an earlier task's items reused (in the order of its places), flagged replayed: charged when it was sent, not by this run. */
export async function reusedOutcomes(
  client: KctClient,
  task: EarlierTask,
  record: EvaluationResult,
  distinct: DistinctItems,
  signal: AbortSignal,
): Promise<AnswerOutcome[]> {
  const labelOf = (at: number) => ({ label: distinct.items[at].label, studentId: distinct.items[at].fields.student_id });
  let outcomes: AnswerOutcome[];
  if (task.batch) {
    const sent: ({ label: string; studentId?: string } | undefined)[] = Array.from(
      { length: Math.max(...task.places.map((p) => p.item)) + 1 },
      () => undefined,
    );
    for (const { at, item } of task.places) sent[item] = labelOf(at);
    const items = await itemOutcomes(client, record, sent, signal);
    outcomes = task.places.map(({ item }) => items[item] as AnswerOutcome);
  } else
    outcomes = task.places.map(({ at }) => {
      const { label, studentId } = labelOf(at);
      return outcomeFromResult({ file: label, student_id: studentId, status: 'ERROR' }, record);
    });
  return outcomes.map((outcome) => withEarlierStudent({ ...outcome, replayed: true }));
}

/** An earlier task as --no-wait lists an accepted one: its state now, and how many items it holds. */
function taskNow(record: EvaluationResult, batch: boolean): Task {
  const count = typeof record.count === 'number' ? record.count : batch ? batchItemsOf(record)?.length : undefined;
  return {
    task_id: record.task_id,
    // an earlier submission's: listed as a replay is, charging nothing
    replayed: true,
    ...(typeof record.status === 'string' ? { status: record.status } : {}),
    ...(typeof record.stage === 'string' ? { stage: record.stage } : {}),
    ...(typeof count === 'number' ? { count } : {}),
    ...(typeof record.credits_charged === 'number' ? { credits_charged: record.credits_charged } : {}),
  };
}

/** --mark-again: nothing reused, every item sent (charged again). */
export function sendEvery(count: number): Reuse {
  return { earlier: [], rows: [], send: Array.from({ length: count }, (_, at) => at), failedIn: new Map() };
}

/** Said once before anything is sent: the items reused (not charged again), and those sent again because their task did not mark them. */
export function reuseNotes(reuse: Reuse, items: number, wait: boolean): string[] {
  const lines: string[] = [];
  const reused = reuse.earlier.reduce((n, task) => n + task.places.length, 0);
  if (reused > 0) {
    const one = reused === 1;
    lines.push(
      `${plural(reused, 'item')} of ${items} ${one ? 'was' : 'were'} marked before on this machine (the same content, model and options): not sent again: ${wait ? `kct reads ${one ? 'its mark' : 'their marks'} from the ${reuse.earlier.length === 1 ? 'task' : 'tasks'} that marked ${one ? 'it' : 'them'}` : `kct lists the ${reuse.earlier.length === 1 ? 'task that holds' : 'tasks that hold'} ${one ? 'it' : 'them'}`}, charging nothing (--mark-again pays to mark ${one ? 'it' : 'them'} anew)`,
    );
  }
  const again = [...reuse.failedIn.keys()].length;
  if (again > 0)
    lines.push(
      `${plural(again, 'item')} of ${items} ended FAILURE or CANCEL when sent before: sent again in a new request (a task that does not mark its answer is never charged)`,
    );
  return lines;
}
