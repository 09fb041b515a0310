// A row under its answer's own labels: its student's name from a download, and a note of its
// files that could not be sent; a replayed result carries the row's student id, not the one it
// was first sent under. Every row of a run (an answer, its copies) is named here before it is
// recorded.
import { type Answer, type Collection, skippedFilesNote } from '../cli/answers/answers.js';
import type { AnswerOutcome } from '../cli/render/outcome.js';

export function namedRow(collection: Collection, at: number, outcome: AnswerOutcome, known?: Answer): AnswerOutcome {
  const answer = known ?? collection.answerAt(at);
  const studentName = collection.studentNameAt?.(at);
  const message = [outcome.message, skippedFilesNote(answer?.skippedFiles)].filter(Boolean).join('; ');
  const result = outcome.replayed && outcome.result ? { ...outcome.result, student_id: outcome.student_id ?? null } : outcome.result;
  return {
    ...outcome,
    ...(result ? { result } : {}),
    ...(studentName !== undefined ? { student_name: studentName } : {}),
    ...(message ? { message } : {}),
  };
}
