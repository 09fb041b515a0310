// The rows of a run that could send nothing (every file skipped, empty or not entered): printed in
// the output asked for, and closed as a stopped run's output is, before the refusal is said on
// stderr, so a district's CSV or NDJSON still holds a row for every student found.
import type { SkippedAnswer } from '../answers/answers.js';
import type { IO } from '../core/io.js';
import type { OutputFormat } from './format.js';
import { OutcomeWriter } from './outcomes.js';

export async function printUnsentRows(
  io: IO,
  format: OutputFormat,
  rows: readonly Omit<SkippedAnswer, 'index'>[],
  waited: boolean,
): Promise<void> {
  const studentNames = rows.some((row) => row.studentName !== undefined);
  const writer = new OutcomeWriter(io, format, { rows: rows.length, waited, studentNames });
  await writer.init();
  for (const [index, row] of rows.entries()) {
    const name = row.studentName !== undefined ? { student_name: row.studentName } : {};
    writer.add({ file: row.label, student_id: row.studentId, ...name, status: row.status, message: row.reason }, index);
  }
  await writer.stop();
}
