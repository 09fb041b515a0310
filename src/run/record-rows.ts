// The rows of a run read back from its record on disk (the --resume journal, journal.ts): what
// `kct report` and `kct grades` make of a journal. The journal may hold several runs of one command;
// its last run is the one read, each row as its last event says: the row printed when it ended,
// an unsent row's status and reason, or, for an answer still running, its task and status.

/** One line of the journal, with where it sits (to read a row again without holding it). */
export interface RecordLine {
  text: string;
  number: number;
  offset: number;
  length: number;
}

interface Event {
  e?: unknown;
  /** The run's number of rows (its `run` event), or a row's place in it. */
  rows?: unknown;
  row?: unknown;
  answer?: unknown;
  student_id?: unknown;
  task_id?: unknown;
  batch_id?: unknown;
  status?: unknown;
  reason?: unknown;
  out?: unknown;
}

interface RowAt {
  line: number;
  answer?: string;
  /** The student id its `found` event gave, for a row that has no printed row to say it. */
  studentId?: string;
  taskId?: string;
  status?: string;
  /** The line of its final event (the row printed), and its text when the journal cannot be read again (stdin). */
  final?: { offset: number; length: number; text?: string };
  unsent?: { status: string; reason: string };
  /** Marked before this run (the ledger, or a journal): its task's mark is read, not sent for. */
  reused?: boolean;
  /** A row of the run with no line: the run stopped before it reached the answer. */
  notReached?: boolean;
}

/** The first line of a journal of this kct, as journal.ts writes it. */
export function isRecordHead(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { kct_journal?: unknown }).kct_journal === 'number';
}

/**
 * The rows of the journal's last run, in row order. `readAt` reads a final line again from the
 * file (memory then holds a few numbers a row); without it (stdin) the final lines are held.
 */
export async function* lastRunRows(
  lines: AsyncIterable<RecordLine>,
  readAt?: (offset: number, length: number) => string,
): AsyncGenerator<{ value: unknown; line: number }> {
  let rows = new Map<number, RowAt>();
  let runRows = 0;
  let runLine = 0;
  let next: { rows: number; line: number } | undefined;
  for await (const { text, number, offset, length } of lines) {
    if (text.trim() === '') continue;
    let event: Event;
    try {
      event = JSON.parse(text) as Event;
    } catch {
      continue; // a line torn by a killed run, as the journal itself reads it
    }
    // a run counts from its first row: one stopped before it wrote any (killed at its start) leaves the run before it whole
    if (event.e === 'run') next = { rows: typeof event.rows === 'number' ? event.rows : 0, line: number };
    if (typeof event.row !== 'number') continue;
    if (next !== undefined) {
      rows = new Map();
      runRows = next.rows;
      runLine = next.line;
      next = undefined;
    }
    const at = rows.get(event.row) ?? { line: number };
    rows.set(event.row, at);
    at.line = number;
    if (typeof event.answer === 'string') at.answer = event.answer;
    if (typeof event.student_id === 'string') at.studentId = event.student_id;
    if (typeof event.task_id === 'string') at.taskId = event.task_id;
    else if (typeof event.batch_id === 'string') at.taskId = event.batch_id;
    if (typeof event.status === 'string') at.status = event.status;
    if (event.e === 'final') at.final = { offset, length, ...(readAt ? {} : { text }) };
    if (event.e === 'reused') at.reused = true;
    if (event.e === 'unsent') at.unsent = { status: String(event.status), reason: typeof event.reason === 'string' ? event.reason : '' };
    // its printed row, as every other view has it (student_name and all); journals before it have none
    if (event.e === 'unsent' && event.out !== undefined) at.final = { offset, length, ...(readAt ? {} : { text }) };
  }
  // a run stopped before it sent every answer: the rows it never reached have no line, and no name to give
  for (let row = 0; row < runRows; row++) if (!rows.has(row)) rows.set(row, { line: runLine, notReached: true });
  for (const row of [...rows.keys()].sort((a, b) => a - b)) {
    const at = rows.get(row)!;
    if (at.notReached) {
      yield {
        value: {
          file: null,
          student_id: null,
          task_id: null,
          status: 'NOT_SENT',
          message:
            'not reached: the run stopped before it came to this answer (the same command again with --resume goes on from there; what was marked before is not sent again)',
        },
        line: at.line,
      };
    } else if (at.final) {
      const text = at.final.text ?? readAt!(at.final.offset, at.final.length);
      yield { value: (JSON.parse(text) as Event).out, line: at.line };
    } else if (at.unsent) {
      yield {
        value: { file: at.answer ?? null, student_id: at.studentId ?? null, status: at.unsent.status, message: at.unsent.reason },
        line: at.line,
      };
    } else {
      yield {
        value: {
          file: at.answer ?? null,
          student_id: at.studentId ?? null,
          task_id: at.taskId ?? null,
          status: at.status ?? 'UNKNOWN',
          score: null,
          max_score: null,
          message: at.reused
            ? 'marked before this run, by this task: the same command again with --resume reads its mark (not charged again)'
            : 'no result in the journal yet: run the same command again with --resume to follow it',
        },
        line: at.line,
      };
    }
  }
}
