// The rows of a run that could send nothing (every file skipped, empty or not entered; or refused
// before sending: no API key, no base URL): printed in the output asked for, and closed as a
// stopped run's output is, before the refusal is said on stderr, so a district's CSV or NDJSON
// still holds a row for every student found.
import type { Collection, SkippedAnswer } from '../answers/answers.js';
import type { IO } from '../core/io.js';
import type { OutputFormat } from './format.js';
import { OutcomeWriter } from './outcomes.js';

/** A row not sent: a SKIPPED, EMPTY or NOT_ENTERED one, or an answer the run refused to send (NOT_SENT). */
export type UnsentRow = Omit<SkippedAnswer, 'index' | 'keyName' | 'status'> & { status: SkippedAnswer['status'] | 'NOT_SENT' };

/** Every row of a collection when nothing of it is sent: each answer NOT_SENT with `reason`, and the rows never meant to be sent, in order. */
export function notSentRows(collection: Collection, reason: string): UnsentRow[] {
  const skipped = new Map(collection.skipped.map((row) => [row.index, row]));
  const rows: UnsentRow[] = [];
  for (let index = 0; index < collection.rows; index++) {
    const answer = collection.answerAt(index);
    const row = answer ? { ...answer, status: 'NOT_SENT' as const, reason } : skipped.get(index);
    if (row)
      rows.push({ label: row.label, studentId: row.studentId, studentName: row.studentName, status: row.status, reason: row.reason });
  }
  return rows;
}

export async function printUnsentRows(io: IO, format: OutputFormat, rows: readonly UnsentRow[], waited: boolean): Promise<void> {
  const studentNames = rows.some((row) => row.studentName !== undefined);
  const writer = new OutcomeWriter(io, format, { rows: rows.length, waited, studentNames });
  await writer.init();
  for (const [index, row] of rows.entries()) {
    const name = row.studentName !== undefined ? { student_name: row.studentName } : {};
    writer.add({ file: row.label, student_id: row.studentId, ...name, status: row.status, message: row.reason }, index);
  }
  await writer.stop();
}
