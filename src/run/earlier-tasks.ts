// An answer reused from this machine's ledger whose task the service does not know. The ledger is
// per address, and another server or account may have answered there since (a sandbox started
// afresh, a second key): the tasks recorded for the answer before are followed, latest first,
// before it is sent again and charged. Only one-pass tasks: a batch's items are followed together.
import type { MarkingRun } from './marking.js';

export class EarlierTasks {
  /** How far down its ledger history each row has gone. */
  private readonly tried = new Map<number, number>();

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
      ledger?.accepted(identity, earlier); // the latest again: the next run against this service asks it first
      this.run.follower.follow(earlier.taskId, row, 0);
      return true;
    }
    return false;
  }
}
