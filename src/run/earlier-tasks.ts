// An answer reused from this machine's ledger whose task the service does not know. The ledger is
// per address, and another server or account may have answered there since (a sandbox started
// afresh, a second key): the tasks recorded for the answer before are followed, latest first,
// before it is sent again and charged. Only one-pass tasks: a batch's items are followed together.
// One the service shows becomes the latest again, so the next run here asks it first; one a key is
// not shown (another account's run on this machine) changes nothing.
import type { AnswerOutcome } from '../cli/render/outcome.js';
import type { Marked } from './ledger.js';
import type { MarkingRun } from './marking.js';

export class EarlierTasks {
  /** How far down its ledger history each row has gone. */
  private readonly tried = new Map<number, number>();
  /** The earlier task each row is following, until its row is printed. */
  private readonly following = new Map<number, Marked>();

  constructor(private readonly run: MarkingRun) {}

  /** Follows the next earlier task recorded for the row's answer; false when none is left. */
  follow(row: number): boolean {
    const { ledger } = this.run.settings;
    const identity = this.run.identityOf(row);
    const history = ledger?.history(identity) ?? [];
    for (let at = (this.tried.get(row) ?? 0) + 1; at < history.length; at++) {
      const earlier = history[at];
      if (earlier.failed || !('taskId' in earlier)) continue;
      this.tried.set(row, at);
      this.following.set(row, earlier);
      this.run.follower.follow(earlier.taskId, row, 0);
      return true;
    }
    return false;
  }

  /** The row is printed: with the state of the earlier task it followed, that task is the service's, and the latest again. */
  settled(row: number, outcome: Pick<AnswerOutcome, 'task_id' | 'status'>): void {
    const earlier = this.following.get(row);
    if (earlier === undefined) return;
    this.following.delete(row);
    if ('taskId' in earlier && earlier.taskId === outcome.task_id && outcome.status !== 'ERROR')
      this.run.settings.ledger?.accepted(this.run.identityOf(row), earlier);
  }
}
