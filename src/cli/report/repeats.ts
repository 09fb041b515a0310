// Rows a saved run repeats: `cat monday.ndjson tuesday.ndjson` of a class run twice holds every
// student twice. A row with the file, student and task of an earlier row (a row without a file is
// matched by its student and task) is the same answer printed again: one row of them is counted,
// the one that says most of it (marked, else ended, else any), the last of those: Monday's
// `--no-wait` QUEUED and Tuesday's SUCCESS are Tuesday's mark, a corrected row appended is the
// correction. Rows not ended, then a row of the same file and student under another task, are one
// answer too: a `--via batch --no-wait` row names its batch's task, the later run its item's. A row
// under another task after one that ended is another run's mark of it, or another answer under that
// name (a newer submission): counted, and said, since the report cannot tell which one is meant.
import { isFinalStatus, isMarked } from '../../api/status.js';
import { sha256 } from '../../client/identity.js';
import type { ReportRow } from './html.js';

/** 52 bits of a SHA-256: a number a Map keeps without a string per row, and no collision in a district's rows. */
const digest = (text: string): number => Number.parseInt(sha256(text).slice(0, 13), 16);

/** How much a row says of its answer. */
const weightOf = (row: ReportRow): number => (isMarked(row) ? 2 : isFinalStatus(row.status) ? 1 : 0);

export class RepeatedRows {
  /** The digest of each name seen. */
  private readonly names = new Set<number>();
  /** Each row's key (its file, student and task), and the group of rows of that answer. */
  private readonly groups = new Map<number, number>();
  /** Each file and student's latest group, times two, plus one once a row of it has ended. */
  private readonly byName = new Map<number, number>();
  /** The student and task of each row printed with its file, and its group. */
  private readonly printedWithFile = new Map<number, number>();
  /** Of each group repeated, its row that says most (the last of those), by its place in the run. */
  private readonly chosen = new Map<number, { row: number; weight: number }>();
  /** Each row's weight, a byte a row: a group's first row is kept in `chosen` only once it is repeated. */
  private weights = new Uint8Array(1024);
  private rowsSeen = 0;
  /** Rows left out: the same name and task as another row of the run. */
  repeated = 0;
  /** Groups whose row counted is not their first: a second reading keeps it instead (chosenRows). */
  superseded = 0;
  /** Rows counted under a name seen before with another task. */
  remarked = 0;
  /** Rows, not copies, whose student and task a row of another file had: a run of the answer from elsewhere (its zip and its folder). */
  elsewhere = 0;
  /** The first name of each kind, to quote. */
  firstRepeated?: string;
  firstRemarked?: string;
  firstElsewhere?: string;

  /** False when the row is an earlier row again: a reading of the rows as they come keeps each answer's first. */
  isNew(row: ReportRow): boolean {
    const at = this.rowsSeen++;
    const name = row.file ?? row.student_id;
    if (!name) return true;
    const group = this.groupOf(row, name, at);
    const weight = weightOf(row);
    if (group !== at) {
      this.repeated += 1;
      this.firstRepeated ??= name;
      const best = this.chosen.get(group) ?? { row: group, weight: this.weights[group] };
      if (weight >= best.weight) {
        if (best.row === group) this.superseded += 1;
        this.chosen.set(group, { row: at, weight });
      } else this.chosen.set(group, best);
      return false;
    }
    if (at >= this.weights.length) {
      const grown = new Uint8Array(this.weights.length * 2);
      grown.set(this.weights);
      this.weights = grown;
    }
    this.weights[at] = weight;
    const named = digest(name);
    if (!this.names.has(named)) this.names.add(named);
    else {
      this.remarked += 1;
      this.firstRemarked ??= name;
    }
    return true;
  }

  /**
   * The rows to count when the run is read again, in the same order: of each answer repeated, the
   * row that says most of it. Only needed when `superseded` is not 0.
   */
  chosenRows(): (row: ReportRow) => boolean {
    // a group never repeated keeps its only row; one repeated keeps its chosen row, its first only if chosen
    const keep = new Set([...this.chosen.values()].map((best) => best.row));
    const passedOver = new Set([...this.chosen.keys()].filter((group) => !keep.has(group)));
    // the same grouping, row by row, as the rows come again
    const again = new RepeatedRows();
    let at = 0;
    return (row) => {
      const place = at++;
      const name = row.file ?? row.student_id;
      if (!name) return true;
      return again.groupOf(row, name, place) === place ? !passedOver.has(place) : keep.has(place);
    };
  }

  /**
   * The group of the row's answer: the place of its first row. The same file, student and task; or,
   * for a row that names no file (`kct result <batch>` names an item by its student id alone), the
   * same student and task as a row before, and the first row with a file after such a row is that
   * row again. Copies share a task and, under `--student-id-from name`, a student id, in files of
   * their own: each counts (as do a `--no-wait` batch's items, which share its task).
   */
  private groupOf(row: ReportRow, name: string, at: number): number {
    const student = row.task_id && row.student_id ? digest(`\u0001${row.student_id}\u0000${row.task_id}`) : undefined;
    if (row.file == null || student === undefined) {
      const key = student ?? digest(`${name}\u0000${row.task_id ?? ''}`);
      // a row without a file after one with it (the same student and task) is that answer again
      const group = this.groups.get(key) ?? (student === undefined ? undefined : this.printedWithFile.get(student));
      if (group !== undefined) return group;
      this.groups.set(key, at);
      return at;
    }
    const key = digest(`${row.file}\u0000${row.student_id}\u0000${row.task_id}`);
    const known = this.groups.get(key);
    if (known !== undefined) return known;
    // rows not ended, then a row of the same file and student under another task (a batch's, then its
    // item's): one answer; a row not ended after one that ended is a newer submission, its own
    const nameKey = digest(`\u0002${row.file}\u0000${row.student_id}`);
    const named = this.byName.get(nameKey);
    const ended = weightOf(row) > 0 ? 1 : 0;
    if (named !== undefined && named % 2 === 0) {
      if (ended === 1 && named % 2 === 0) this.byName.set(nameKey, named + 1);
      this.groups.set(key, Math.floor(named / 2));
      return Math.floor(named / 2);
    }
    const first = this.printedWithFile.get(student);
    // both ended: a --no-wait batch's items share its task (and, named by file name, a student id) until they end
    if (first !== undefined && !row.duplicate_of && weightOf(row) > 0 && this.weights[first] > 0) {
      this.elsewhere += 1;
      this.firstElsewhere ??= row.file;
    }
    const withoutFile = this.printedWithFile.has(student) ? undefined : this.groups.get(student);
    const group = withoutFile ?? at;
    if (!this.printedWithFile.has(student)) this.printedWithFile.set(student, group);
    this.groups.set(key, group);
    this.byName.set(nameKey, group * 2 + ended);
    return group;
  }
}
