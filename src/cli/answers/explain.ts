// The table of what became of every path found (Collection.entries, asked for with `explain`): the
// unit tests' view of the collection rules, built from what the check (plan.ts) recorded.
import type { AnswerList } from './answer-list.js';
import type { Action, Answer, Entry, SkippedAnswer } from './answers.js';
import type { Unsendable } from './unsendable.js';
import type { Found } from './walk.js';

/** A folder that is a row of its own (EMPTY, NOT_ENTERED), and the row once added. */
export interface UnsentFolder {
  row: Omit<SkippedAnswer, 'index'>;
  position: number;
  added?: SkippedAnswer;
}

/** What the check recorded of one path. */
export interface Explained {
  item: Found;
  /** An answer file, by its number in the list. */
  file?: number;
  unsendable?: Unsendable;
  duplicateOf?: string;
  folderRow?: UnsentFolder;
  /** Left out without a row. */
  leftOut?: 'empty' | 'loop' | 'own';
}

export function explainEntries(explained: Explained[], list: AnswerList, textAnswers: Answer[]): Entry[] {
  const entries: Entry[] = textAnswers.map((answer) => ({
    path: answer.label,
    action: 'send',
    answer: answer.label,
    keyName: answer.keyName,
  }));
  for (const record of explained) entries.push(entryOf(record, list));
  return entries;
}

function entryOf({ item, file, unsendable, duplicateOf, folderRow, leftOut }: Explained, list: AnswerList): Entry {
  const path = item.path;
  if (folderRow !== undefined) {
    const row = folderRow.added!;
    const action = row.status === 'EMPTY' ? 'empty' : 'not-entered';
    return { path, action, answer: row.label, keyName: row.keyName, studentId: row.studentId, reason: row.reason };
  }
  if (leftOut !== undefined) return { path, action: leftOut, reason: leftOut === 'empty' ? 'empty folder' : item.reason };
  if (duplicateOf !== undefined) return { path, action: 'duplicate', reason: `the same file as ${duplicateOf}` };
  if (file !== undefined) return { path, ...list.entryOfFile(file) };
  if (unsendable !== undefined) {
    const placed = unsendable.placed!;
    const row = 'row' in placed ? placed.row : list.describe(placed.answer);
    return { path, action: 'skip', answer: row.label, keyName: row.keyName, studentId: row.studentId, reason: unsendable.problem.kind };
  }
  return { path, action: item.kind as Action, reason: item.reason };
}
