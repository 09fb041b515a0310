// An answer's row: what a run prints for it in every format (docs/guides/marking-a-class.md,
// "Output shapes"), made from its result record.
import type { EvaluationEntry, EvaluationResult } from '../../api/schemas.js';
import { isUnscoredSuccess, isUnsuccessfulFinal, statusOf } from '../../api/status.js';

/** Statuses of rows found and not sent: a file that cannot be sent, a student folder with nothing, a subfolder not entered. */
const UNSENT_STATUSES: ReadonlySet<string> = new Set(['SKIPPED', 'EMPTY', 'NOT_ENTERED']);

/** A row that is no answer sent: every count of answers (the summary, the progress line, the exit message) leaves it out. */
export function isUnsentRow(status: string): boolean {
  return UNSENT_STATUSES.has(status);
}

export interface AnswerOutcome {
  file: string;
  student_id?: string;
  /** The student's name, when a learning platform's download gives one (student_id is then the platform's participant id). */
  student_name?: string;
  task_id?: string;
  /** Task status, or ERROR when it was never accepted / could not be followed. */
  status: string;
  score?: number | null;
  max_score?: number | null;
  /** What the service charged (from the result record, or a saved row). */
  credits_charged?: number | null;
  evaluation?: EvaluationEntry[] | null;
  /** Why it failed or was not sent. */
  message?: string;
  /** The first answer of the run with the very same content (every byte), when this one has it too. */
  duplicate_of?: string;
  /** The task is an earlier submission's (the service replayed it, or this machine sent it before): no new charge. */
  replayed?: boolean;
  /** With replayed: the student id its task was sent under, when another than this row's (the same answer from two students, or one renamed). */
  earlier_student_id?: string;
  /** With replayed: the marks are another answer's of this run, with the same content, charged with it (duplicate_of names it). */
  copy?: boolean;
  /** Who marked it, when the result says (the sandbox does: its offline grader, or a language model). */
  graded_by?: string;
  result?: EvaluationResult;
  /** The error behind an ERROR / NOT_SENT outcome (not printed as such). */
  error?: unknown;
}

/**
 * A copy's row (an answer with the same identity as another of the run): that answer's marks, or
 * its failure, under the copy's own labels, charged with it and never again. An answer never
 * accepted has no task to share: its copy was not sent either, and is no replay.
 */
export function copyOutcome(first: AnswerOutcome, labels: { file: string; student_id?: string }, duplicateOf = first.file): AnswerOutcome {
  const { replayed: _replayed, copy: _copy, earlier_student_id: _earlier, ...rest } = first;
  const own = { ...rest, ...labels, duplicate_of: duplicateOf };
  return first.task_id === undefined ? own : { ...own, replayed: true, copy: true };
}

/**
 * Why a task did not mark its answer: its error entry, else the record's own message (a CANCEL
 * carries only that, and the spec lets a FAILURE go without an entry). The table and every row say this.
 */
export function failureReason(result: EvaluationResult): string | undefined {
  const entry = (result.evaluation ?? []).find((e) => e.type === 'error');
  return entry?.comment ?? entry?.feedback ?? (typeof result.message === 'string' && result.message !== '' ? result.message : undefined);
}

/** An answer's outcome from its result record. */
/** The row's message of a SUCCESS with no score: the list of answers not marked says why. */
const NO_SCORE = 'no score in the result (the service did not say the mark)';

export function outcomeFromResult(base: AnswerOutcome, result: EvaluationResult): AnswerOutcome {
  const status = statusOf(result);
  // a marked answer's error entry is a note on its row (a file left out); a status snapshot's message is no reason
  const message = isUnsuccessfulFinal(status)
    ? failureReason(result)
    : ((result.evaluation ?? []).find((entry) => entry.type === 'error')?.comment ?? (isUnscoredSuccess(result) ? NO_SCORE : undefined));
  return {
    ...base,
    task_id: result.task_id || undefined,
    status,
    score: result.score,
    max_score: result.max_score,
    evaluation: result.evaluation,
    message,
    ...(typeof result.graded_by === 'string' && result.graded_by.trim() !== '' ? { graded_by: result.graded_by } : {}),
    result,
  };
}

/** The credits charged for an answer: its row's, else its result record's, else unknown (null). */
export function creditsOf(outcome: AnswerOutcome): number | null {
  if (typeof outcome.credits_charged === 'number') return outcome.credits_charged;
  return typeof outcome.result?.credits_charged === 'number' ? outcome.result.credits_charged : null;
}

/** The row of an answer in every machine format (docs/guides/marking-a-class.md, "Output shapes"). */
export function ndjsonRow(outcome: AnswerOutcome): Record<string, unknown> {
  return {
    file: outcome.file === '' ? null : outcome.file, // a task read back by id (kct result) has no file
    student_id: outcome.student_id ?? null,
    ...(outcome.student_name ? { student_name: outcome.student_name } : {}),
    task_id: outcome.task_id ?? null,
    status: outcome.status,
    score: outcome.score ?? null,
    max_score: outcome.max_score ?? null,
    credits_charged: creditsOf(outcome),
    ...(outcome.message ? { message: outcome.message } : {}),
    ...(outcome.duplicate_of ? { duplicate_of: outcome.duplicate_of } : {}),
    ...(outcome.replayed ? { replayed: true } : {}),
    ...(outcome.earlier_student_id ? { earlier_student_id: outcome.earlier_student_id } : {}),
    ...(outcome.graded_by ? { graded_by: outcome.graded_by } : {}),
    evaluation: outcome.evaluation ?? null,
  };
}
