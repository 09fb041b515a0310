// Where a file that cannot be sent ends, under --skip-unsupported, once every answer is known: in
// the row of the answer it belongs to (the answer is marked without it), in one SKIPPED row for its
// student folder when nothing of the folder can be sent, or in a SKIPPED row of its own. So a
// student is one row, whatever of theirs cannot be sent.
import { join, sep } from 'node:path';
import type { FileProblem } from '../../client/files.js';
import { cliWords } from '../core/hints.js';
import type { AnswerList } from './answer-list.js';
import type { AnswerSources, SkippedAnswer, SkippedFile } from './answers.js';
import { unsendableReason } from './plan-words.js';
import { studentIdOf } from './student-id.js';
import type { Found } from './walk.js';

/** A file that cannot be sent, under --skip-unsupported, and where it ended. */
export interface Unsendable {
  item: Found;
  problem: FileProblem;
  position: number;
  /** The answer it belongs to when files are grouped: 'pages', or its student folder's key (--group-by folder). */
  group?: string;
  /** The answer marked without it, or the SKIPPED row that lists it. */
  placed?: { answer: number } | { row: SkippedAnswer };
}

/** What the check knows once every answer is: the list, each group's answer, the groups dropped (too many files). */
interface Answers {
  list: AnswerList;
  groupAnswers: ReadonlyMap<string, number>;
  droppedGroups: ReadonlyMap<string, SkippedAnswer>;
  roots: readonly string[];
  sources: AnswerSources;
}

/** Places each file (Unsendable.placed); returns how many went to answers. */
export function placeUnsendable(unsendable: readonly Unsendable[], answers: Answers): number {
  const folderRows = new Map<string, { row: SkippedAnswer; files: SkippedFile[] }>();
  let inAnswers = 0;
  for (const bad of unsendable) {
    const file: SkippedFile = { label: bad.item.path, reason: `${bad.problem.message}. ${cliWords(bad.problem.suggestion)}` };
    const key = bad.group;
    const answer = key === undefined ? undefined : answers.groupAnswers.get(key);
    if (answer !== undefined) {
      answers.list.addSkippedFile(answer, file);
      bad.placed = { answer };
      inAnswers += 1;
      continue;
    }
    const dropped = key === undefined ? undefined : answers.droppedGroups.get(key);
    const shared = key === undefined || key === 'pages' ? undefined : folderRows.get(key);
    if (dropped) dropped.reason += `; and ${file.reason}`;
    else if (shared) shared.files.push(file);
    const row = dropped ?? shared?.row ?? answers.list.addSkipped(skippedRow(bad, file, answers), bad.position);
    if (!dropped && !shared && key !== undefined && key !== 'pages') folderRows.set(key, { row, files: [file] });
    bad.placed = { row };
  }
  for (const { row, files } of folderRows.values()) row.reason = unsendableReason(files);
  return inAnswers;
}

/** The SKIPPED row of a file that cannot be sent: its own, or its student folder's (--group-by folder). */
function skippedRow(bad: Unsendable, file: SkippedFile, { roots, sources }: Answers): Omit<SkippedAnswer, 'index'> {
  const { item } = bad;
  const folder = bad.group !== undefined && bad.group !== 'pages';
  return {
    label: folder ? `${join(roots[item.root!], item.group!)}${sep}` : item.path,
    keyName: folder ? item.group! : item.keyName,
    studentId: studentIdOf(item, sources),
    status: 'SKIPPED',
    reason: file.reason,
  };
}
