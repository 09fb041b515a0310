// What became of each student of a run, and their marks, built from the rows of the run (a saved
// run's, or a run's as they come): what a grade file is filled from.
import type { EvaluationEntry } from '../../api/schemas.js';
import { isUnfinishedTaskStatus } from '../../api/status.js';
import type { ReportRow } from '../../cli/report/html.js';
import type { DownloadStudent } from '../../platforms/fill-report.js';
import type { Mark } from '../../platforms/grade-scale.js';

/** The fields of a row a grade file needs: one-pass's rows and a saved run's both have them. */
export type MarkedRow = Pick<
  ReportRow,
  'student_id' | 'student_name' | 'status' | 'score' | 'max_score' | 'message' | 'duplicate_of' | 'evaluation'
>;

/** A student with two marked rows that disagree: kct cannot tell which grade is meant. */
interface Conflict {
  participantId: string;
  scores: number[];
}

export class MarkBook {
  readonly marks = new Map<string, Mark>();
  /** Students with two marked rows whose marks differ (their totals, or their criteria and feedback). */
  readonly conflicts: Conflict[] = [];
  /** Rows that name no student (their marks have nowhere to go). */
  rowsWithoutId = 0;
  /** What a marked row says beside its mark (its message: a file of the submission left out, say; an identical answer), by student. */
  readonly notes = new Map<string, string>();
  /** Marked rows with no word of feedback (a CSV saved run holds the scores only): their feedback is the scores. */
  withoutFeedback = 0;
  /** Students whose rows were all of tasks not final yet (a run with --no-wait, or one stopped), by a status of theirs. */
  private readonly waiting = new Map<string, string>();
  /** Students with a row of a final task (a later run's, appended after --no-wait rows). */
  private readonly ended = new Set<string>();
  private readonly outcomes = new Map<string, { rank: number; status: string; reason?: string }>();
  private readonly names = new Map<string, string | undefined>();

  add(row: MarkedRow): void {
    const id = row.student_id ?? undefined;
    if (id === undefined || id === '') {
      this.rowsWithoutId += 1;
      return;
    }
    if (!this.names.has(id)) this.names.set(id, row.student_name ?? undefined);
    const marked = row.status === 'SUCCESS' && typeof row.score === 'number';
    if (isUnfinishedTaskStatus(row.status)) this.waiting.set(id, row.status);
    else this.ended.add(id);
    // a student's answer says more than the rows of files left out of it
    const rank = marked ? 3 : row.status === 'SKIPPED' ? 0 : row.status === 'EMPTY' ? 1 : 2;
    const known = this.outcomes.get(id);
    if (!known || rank > known.rank) {
      const reason = marked ? undefined : row.status === 'SUCCESS' ? 'marked without a score' : (row.message ?? undefined);
      this.outcomes.set(id, { rank, status: row.status, ...(reason ? { reason } : {}) });
    }
    if (!marked) return;
    // what to check before uploading: the row's message, and an answer identical to another student's
    const said = [
      row.message?.trim(),
      row.duplicate_of ? `identical to ${row.duplicate_of} (the same text or bytes): check each student wrote their own` : undefined,
    ].filter((part) => part !== undefined && part !== '');
    if (said.length > 0) this.notes.set(id, said.join('; '));
    const entries = (row.evaluation ?? []).filter((entry) => entry.type !== 'error');
    const maxScore = typeof row.max_score === 'number' ? row.max_score : sumMax(entries);
    const feedback = feedbackText(entries);
    if (!entries.some((entry) => (entry.feedback ?? entry.comment ?? '').trim() !== '')) this.withoutFeedback += 1;
    const mark: Mark = {
      score: row.score as number,
      maxScore: maxScore ?? Number.NaN,
      ...(feedback ? { feedback } : {}),
      ...(row.student_name ? { name: row.student_name } : {}),
    };
    const earlier = this.marks.get(id);
    // the same total with other criteria or feedback is another mark too: which one to fill is the teacher's call
    if (earlier && (earlier.score !== mark.score || earlier.maxScore !== mark.maxScore || earlier.feedback !== mark.feedback)) {
      const conflict = this.conflicts.find((c) => c.participantId === id);
      if (conflict) conflict.scores.push(mark.score);
      else this.conflicts.push({ participantId: id, scores: [earlier.score, mark.score] });
    }
    this.marks.set(id, mark);
  }

  /** Students whose every row is of a task not final yet, counted by status: a later row that ended fills them (Monday's --no-wait, Tuesday's marks). */
  notFinal(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const [id, status] of this.waiting) if (!this.ended.has(id)) counts.set(status, (counts.get(status) ?? 0) + 1);
    return counts;
  }

  /** The students the rows name, in the order first seen, with their names: the class, when no download is given. */
  roster(): { participantId: string; name?: string }[] {
    return [...this.names].map(([participantId, name]) => ({ participantId, ...(name !== undefined ? { name } : {}) }));
  }

  /** Every student of the roster with what became of them (SUCCESS, EMPTY, SKIPPED, FAILURE, ...; `missing` when no row names them). */
  students(
    roster: readonly { participantId: string; name?: string }[],
    missing: { status: string; reason?: string } = { status: 'NOT_SENT' },
  ): DownloadStudent[] {
    return roster.map(({ participantId, name }) => {
      const outcome = this.outcomes.get(participantId) ?? missing;
      const reason = outcome.reason;
      return {
        participantId,
        ...(name !== undefined ? { displayName: name } : {}),
        status: outcome.status,
        ...(reason ? { reason } : {}),
      };
    });
  }
}

function sumMax(entries: EvaluationEntry[]): number | undefined {
  if (entries.length === 0 || entries.some((entry) => typeof entry.max_score !== 'number')) return undefined;
  return entries.reduce((sum, entry) => sum + (entry.max_score as number), 0);
}

/** The feedback a student reads on the platform: each criterion, its score, and what the marker said. */
function feedbackText(entries: EvaluationEntry[]): string {
  const score = (entry: EvaluationEntry) =>
    typeof entry.score === 'number' ? ` ${entry.score}${typeof entry.max_score === 'number' ? ` / ${entry.max_score}` : ''}` : '';
  return entries
    .map((entry) => {
      const text = (entry.feedback ?? entry.comment ?? '').trim();
      const head = entry.item ? `${entry.item}:${score(entry)}` : score(entry).trim();
      return [head, text].filter((part) => part !== '').join('\n');
    })
    .filter((part) => part !== '')
    .join('\n\n');
}
