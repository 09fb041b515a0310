// A row under its answer's own labels: its student's name from a download, and a note of its
// files that could not be sent; a replayed result carries the row's student id, and names the one
// it was first sent under when another (first_marked_for). Every row of a run (an answer, its
// copies) is named here before it is recorded.
import { type Answer, type Collection, skippedFilesNote } from '../cli/answers/answers.js';
import type { AnswerOutcome } from '../cli/render/outcome.js';

export function namedRow(collection: Collection, at: number, outcome: AnswerOutcome, known?: Answer): AnswerOutcome {
  const answer = known ?? collection.answerAt(at);
  const studentName = collection.studentNameAt?.(at);
  const firstMarkedFor = otherStudent(outcome);
  const message = [outcome.message, skippedFilesNote(answer?.skippedFiles), firstMarkedFor && sameAnswerNote(firstMarkedFor, outcome)]
    .filter(Boolean)
    .join('; ');
  const result =
    outcome.replayed && outcome.result
      ? { ...outcome.result, student_id: outcome.student_id ?? null, ...(firstMarkedFor ? { first_marked_for: firstMarkedFor } : {}) }
      : outcome.result;
  return {
    ...outcome,
    ...(result ? { result } : {}),
    ...(studentName !== undefined ? { student_name: studentName } : {}),
    ...(message ? { message } : {}),
    ...(firstMarkedFor ? { first_marked_for: firstMarkedFor } : {}),
  };
}

/**
 * The student a reused mark was first sent under, when another than this row's: the same answer
 * handed in by two students is a teacher's to look into, not to pass over. A copy within the run
 * is named by its row's duplicate_of, and its result is its first's.
 */
function otherStudent(outcome: AnswerOutcome): string | undefined {
  if (!outcome.replayed || outcome.copy) return undefined;
  const first = outcome.result?.student_id;
  return typeof first === 'string' && first !== '' && first !== outcome.student_id ? first : undefined;
}

function sameAnswerNote(student: string, outcome: AnswerOutcome): string {
  const task = outcome.task_id ? ` (task ${outcome.task_id})` : '';
  return `the same answer was marked before for student ${JSON.stringify(student)}${task}: its mark is reused; check whether one copied the other`;
}
