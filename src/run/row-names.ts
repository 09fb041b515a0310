// A row under its answer's own labels: its student's name from a download, and a note of its
// files that could not be sent; a replayed result carries the row's student id, and names the one
// its task was sent under when another (earlier_student_id). Every row of a run (an answer, its
// copies) is named here before it is recorded.
import { type Answer, type Collection, skippedFilesNote } from '../cli/answers/answers.js';
import type { AnswerOutcome } from '../cli/render/outcome.js';

export function namedRow(collection: Collection, at: number, outcome: AnswerOutcome, known?: Answer): AnswerOutcome {
  const answer = known ?? collection.answerAt(at);
  const studentName = collection.studentNameAt?.(at);
  const named = withEarlierStudent(outcome, skippedFilesNote(answer?.skippedFiles));
  return studentName !== undefined ? { ...named, student_name: studentName } : named;
}

/** A row whose mark is reused, naming the student its task was sent under when another (kct batch's rows too); `note`: the row's own, before that. */
export function withEarlierStudent(outcome: AnswerOutcome, note?: string): AnswerOutcome {
  const earlierStudent = otherStudent(outcome);
  const same = earlierStudent && sameAnswerNote(earlierStudent, outcome);
  const message = [outcome.message, note, same && !outcome.message?.includes(same) ? same : undefined].filter(Boolean).join('; ');
  const result =
    outcome.replayed && outcome.result
      ? { ...outcome.result, student_id: outcome.student_id ?? null, ...(earlierStudent ? { earlier_student_id: earlierStudent } : {}) }
      : outcome.result;
  return {
    ...outcome,
    ...(result ? { result } : {}),
    ...(message ? { message } : {}),
    ...(earlierStudent ? { earlier_student_id: earlierStudent } : {}),
  };
}

/**
 * The student id a reused mark's task was sent under, when another than this row's: the same
 * answer under two students is a teacher's to look into (or the same student renamed), not to pass
 * over. A copy within the run is named by its row's duplicate_of, and its result is its first's; a
 * row read back from a journal keeps what its run said.
 */
function otherStudent(outcome: AnswerOutcome): string | undefined {
  if (outcome.copy) return undefined;
  const earlier = (outcome.replayed ? outcome.result?.student_id : undefined) ?? outcome.earlier_student_id;
  return typeof earlier === 'string' && earlier !== '' && earlier !== outcome.student_id ? earlier : undefined;
}

function sameAnswerNote(student: string, outcome: AnswerOutcome): string {
  const task = outcome.task_id ? ` (task ${outcome.task_id})` : '';
  return `marked before under student id ${JSON.stringify(student)}${task}: its mark is reused; if that is another student, the two answers are the same`;
}
