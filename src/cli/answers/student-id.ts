// The student id of an answer's file, from its name or its student folder (a learning platform's
// folder suffix trimmed): shared by the collection check (plan.ts) and its list (answer-list.ts).
import { basename, extname } from 'node:path';
import type { AnswerSources } from './answers.js';

/** The end of a Moodle submission folder's name, after the student's name and id. */
export const LMS_FOLDER_SUFFIX = /_assignsubmission_[a-z]+_?$/i;

/** The student id of a file: its name, or its student folder (Moodle's suffix trimmed), or none. */
export function studentIdOf(
  item: { path: string; group?: string } | undefined,
  sources: Pick<AnswerSources, 'studentIdFrom' | 'groupBy'>,
): string | undefined {
  if (!item || sources.studentIdFrom === 'none') return undefined;
  const folder = item.group === undefined ? undefined : item.group.replace(LMS_FOLDER_SUFFIX, '');
  if ((sources.studentIdFrom === 'folder' || sources.groupBy === 'folder') && folder) return folder;
  const name = basename(item.path);
  return basename(name, extname(name));
}
