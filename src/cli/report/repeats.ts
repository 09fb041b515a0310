// Rows a saved run repeats: `cat monday.ndjson tuesday.ndjson` of a class run twice (the second
// replayed) holds every student twice. A row with the file, student and task of an earlier row
// (seenBefore: a row without a file is matched by its student and task) is the same answer printed
// again: counted once. The same name with another task is another run's mark of it, or another answer
// under that name: counted, and said, since the report cannot tell which one is meant.
import { sha256 } from '../../client/identity.js';
import type { ReportRow } from './html.js';

/** 52 bits of a SHA-256: a number a Set keeps without a string per row, and no collision in a district's rows. */
const digest = (text: string): number => Number.parseInt(sha256(text).slice(0, 13), 16);

export class RepeatedRows {
  /** The digest of each name seen, and of each name with its task. */
  private readonly names = new Set<number>();
  private readonly rows = new Set<number>();
  /** The student and task of each row printed with its file. */
  private readonly printedWithFile = new Set<number>();
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
    if (this.seenBefore(row, name)) {
      this.repeated += 1;
      this.firstRepeated ??= name;
      return false;
    }
    const named = digest(name);
    if (!this.names.has(named)) {
      this.names.add(named);
      return true;
    }
    this.remarked += 1;
    this.firstRemarked ??= name;
    return true;
  }

  /**
   * The row's answer was counted already: the same file, student and task; or, for a row that names
   * no file (`kct result <batch>` names an item by its student id alone), the same student and task
   * as a row before, and the first row with a file after such a row is that row again. Copies
   * share a task and, under `--student-id-from name`, a student id, in files of their own: each
   * counts (as do a `--no-wait` batch's items, which share its task).
   */
  private seenBefore(row: ReportRow, name: string): boolean {
    const student = row.task_id && row.student_id ? digest(`\u0001${row.student_id}\u0000${row.task_id}`) : undefined;
    if (row.file == null || student === undefined) {
      const key = student ?? digest(`${name}\u0000${row.task_id ?? ''}`);
      if (this.rows.has(key) || this.printedWithFile.has(key)) return true;
      this.rows.add(key);
      return false;
    }
    const key = digest(`${row.file}\u0000${row.student_id}\u0000${row.task_id}`);
    if (this.rows.has(key)) return true;
    this.rows.add(key);
    const printedWithout = this.rows.has(student) && !this.printedWithFile.has(student);
    this.printedWithFile.add(student);
    return printedWithout;
  }
}
