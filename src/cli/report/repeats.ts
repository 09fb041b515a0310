// Rows a saved run repeats: `cat monday.ndjson tuesday.ndjson` of a class run twice (the second
// replayed) holds every student twice. A row with the student and task of an earlier row (without
// either, the file, else the student, and the task or none) is the same answer printed again:
// counted once. The same name with another task is another run's mark of it, or another answer
// under that name: counted, and said, since the report cannot tell which one is meant.
import { sha256 } from '../../client/identity.js';
import type { ReportRow } from './html.js';

/** 52 bits of a SHA-256: a number a Set keeps without a string per row, and no collision in a district's rows. */
const digest = (text: string): number => Number.parseInt(sha256(text).slice(0, 13), 16);

export class RepeatedRows {
  /** The digest of each name seen, and of each name with its task. */
  private readonly names = new Set<number>();
  private readonly rows = new Set<number>();
  /** Rows left out: the same name and task as an earlier row. */
  repeated = 0;
  /** Rows counted under a name seen before with another task. */
  remarked = 0;
  /** The first name of each kind, to quote. */
  firstRepeated?: string;
  firstRemarked?: string;

  /** False when the row is an earlier row again (leave it out). */
  isNew(row: ReportRow): boolean {
    const name = row.file ?? row.student_id;
    if (!name) return true;
    const named = digest(name);
    // a task and its student are one row, however it was printed: `kct batch` names an item by its
    // file, `kct result <batch>` by its student id alone (copies share a task, under other students)
    const seen = digest(
      row.task_id && row.student_id ? `\u0001${row.student_id}\u0000${row.task_id}` : `${name}\u0000${row.task_id ?? ''}`,
    );
    if (this.rows.has(seen)) {
      this.repeated += 1;
      this.firstRepeated ??= name;
      return false;
    }
    this.rows.add(seen);
    if (!this.names.has(named)) {
      this.names.add(named);
      return true;
    }
    this.remarked += 1;
    this.firstRemarked ??= name;
    return true;
  }
}
