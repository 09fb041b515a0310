// The answers of a marking run that have a task, for what a run stopped by Ctrl-C says it left
// (one-pass/notes.ts interrupted): the rows not printed yet, by their task, and of the rows printed
// those with a task, with the first of the tasks not final (a --no-wait run's accepted rows). A few
// numbers a row, and at most NAMED task ids.
import { isFinalStatus } from '../api/status.js';

/** Tasks a stopped run names, at most: the rows printed, and the journal, name every one. */
const NAMED = 100;

/** What a run left with the service, in answers (copies with them): every answer is one of accepted, refused or neither (not sent). */
export interface LeftWithService {
  /** Answers with a task kct knows exists (accepted, or sent before and followed), printed or not. */
  accepted: number;
  /** Of those, answers whose row is not printed (watched, or being read when the run stopped). */
  unprinted: number;
  /** Of those accepted, answers not seen finished: their tasks are queued or running on the service. */
  unfinished: number;
  /** The tasks of the answers not seen finished, each once, those of rows not printed first, at most NAMED. */
  taskIds: string[];
  /** Answers whose row was printed with no task: refused, or not sent after an error that stopped the run. */
  refused: number;
}

export class TaskedRows {
  /** Rows tied to a task kct knows exists (accepted or followed), by that task, until their row is printed. */
  private readonly waiting = new Map<number, string>();
  private printedWithTask = 0;
  private printedUnfinished = 0;
  private printedWithoutTask = 0;
  /** The first tasks of rows printed while not final, each once. */
  private readonly unfinishedIds = new Set<string>();

  /** The row's answer has this task now (accepted, followed, or sent again as a new one). */
  add(row: number, taskId: string): void {
    this.waiting.set(row, taskId);
  }

  /** The row's task is no longer its own (sent after all, as a new task). */
  delete(row: number): void {
    this.waiting.delete(row);
  }

  /** A row is printed for `answers` answers (its copies with it). */
  printed(row: number, outcome: { task_id?: string; status: string }, answers: number): void {
    this.waiting.delete(row);
    if (!outcome.task_id) {
      this.printedWithoutTask += answers;
      return;
    }
    this.printedWithTask += answers;
    if (isFinalStatus(outcome.status)) return;
    this.printedUnfinished += answers;
    if (this.unfinishedIds.size < NAMED) this.unfinishedIds.add(outcome.task_id);
  }

  /** What the run left with the service; `answersOf(row)`: the answers a row stands for (1 and its copies). */
  left(answersOf: (row: number) => number): LeftWithService {
    let unprinted = 0;
    const ids = new Set<string>();
    for (const [row, taskId] of this.waiting) {
      unprinted += answersOf(row);
      if (ids.size < NAMED) ids.add(taskId);
    }
    for (const id of this.unfinishedIds) if (ids.size < NAMED) ids.add(id);
    return {
      accepted: unprinted + this.printedWithTask,
      unprinted,
      unfinished: unprinted + this.printedUnfinished,
      taskIds: [...ids],
      refused: this.printedWithoutTask,
    };
  }
}
