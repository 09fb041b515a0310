// The import report in words, for people: what a grade file fill wrote, what the platform would
// import and skip and why, what to check before importing; and the exit-10 error when the
// students of the file and of the run differ.

import { plural } from '../../cli/render/style.js';
import type { FillEntry, FillReport } from '../../platforms/fill-report.js';
import { hasNoSubmission, idsFromFiles, isMissingFromRun, StudentsMismatchError } from '../../platforms/fill-report.js';
import { isPlatformId } from '../../platforms/submissions.js';

const PLATFORM = { moodle: 'Moodle grading worksheet', canvas: 'Canvas gradebook' };
const WARNING_WORDS: Record<FillEntry['warnings'][number], string> = {
  'overwrites-grade': 'replaces the grade already there',
  'overwrites-feedback': 'replaces the feedback comment already there',
  'keeps-feedback': "keeps the feedback comment already there, the marks' feedback not written",
  'duplicate-row': 'several rows carry this id; each was filled',
  'feedback-not-written': 'feedback not written',
  'row-note': "the run's row says",
};

/** The report in words, for people: what was filled, what the platform would skip and why, and what to check. */
export function reportLines(file: { platform: 'moodle' | 'canvas'; path: string }, report: FillReport, output: string | null): string[] {
  const who = (entry: FillEntry) => {
    // a name from a file is no participant: said as the id it is
    const id = isPlatformId(file.platform, entry.participantId)
      ? `${file.platform === 'moodle' ? 'Participant ' : 'ID '}${entry.participantId}`
      : `student id "${entry.participantId}"`;
    const where = entry.line !== undefined ? `line ${entry.line}` : undefined;
    // under blind marking the name is the id
    if (!entry.displayName || entry.displayName === id) return `${id}${where ? ` (${where})` : ''}`;
    return `${entry.displayName} (${[id, where].filter(Boolean).join(', ')})`;
  };
  const lines = [
    `Import (${PLATFORM[report.platform]} ${file.path}, column "${report.target.column}", out of ${report.target.maximum}, rounding ${report.rounding}):`,
  ];
  const { filled, refused } = report.counts;
  const noRow = report.entries.filter((entry) => entry.status === 'not-in-file');
  const unmarked = report.entries.filter((entry) => entry.status === 'not-marked');
  lines.push(
    `  ${filled} filled, ${refused} refused, ${noRow.length} with no row in the file, ${unmarked.length} row${unmarked.length === 1 ? '' : 's'} not marked (left as they were)`,
  );
  const list = (title: string, entries: FillEntry[], why: (entry: FillEntry) => string) => {
    if (entries.length === 0) return;
    lines.push(`  ${title} (${entries.length}):`);
    for (const entry of entries) lines.push(`    ${who(entry)}: ${why(entry)}`);
  };
  list(
    'Refused, left as they were (the platform would skip or misread them)',
    report.entries.filter((entry) => entry.status === 'refused'),
    (entry) => `${entry.reason}: ${entry.detail ?? ''}${entry.grade ? ` (the grade would be ${entry.grade})` : ''}`,
  );
  list('In the download, with no row in the file (nowhere to import their grade)', noRow, (entry) =>
    entry.grade !== undefined
      ? `marked: ${entry.grade} out of ${report.target.maximum}, to enter by hand`
      : `${entry.download?.status ?? 'marked'}${entry.download?.reason ? `: ${entry.download.reason}` : ''}`,
  );
  list(
    'Rows not marked: submitted, with no row in the saved run (a run stopped, or cut short)',
    unmarked.filter(isMissingFromRun),
    (entry) => entry.detail ?? 'no row in the saved run',
  );
  list(
    'Rows not marked: no submission in the download',
    unmarked.filter((entry) => entry.download === undefined && !isMissingFromRun(entry)),
    (entry) => entry.detail ?? 'not in the download',
  );
  list(
    'Rows not marked: in the download',
    unmarked.filter((entry) => entry.download !== undefined),
    (entry) => `${entry.download!.status}${entry.download!.reason ? `: ${entry.download!.reason}` : ''}`,
  );
  const warned = report.entries.filter((entry) => entry.status === 'filled' && entry.warnings.some((w) => w !== 'feedback-not-written'));
  list(
    'Filled, to check',
    warned,
    (entry) =>
      `${entry.grade}; ${entry.warnings
        .filter((w) => w !== 'feedback-not-written')
        .map((w) =>
          w === 'overwrites-grade'
            ? `${WARNING_WORDS[w]} (${entry.previousGrade}${entry.lastModified && entry.lastModified !== '-' ? `, last modified ${entry.lastModified}` : ''})`
            : w === 'row-note'
              ? `${WARNING_WORDS[w]}: ${entry.note}`
              : w === 'overwrites-feedback' || w === 'keeps-feedback'
                ? `${WARNING_WORDS[w]} (${JSON.stringify(shortened(entry.previousFeedback ?? ''))})`
                : WARNING_WORDS[w],
        )
        .join('; ')}`,
  );
  for (const note of report.notes) lines.push(`  Note: ${note}`);
  const noSubmission = report.entries.filter(hasNoSubmission).length;
  lines.push(
    !report.studentsMatch
      ? `  Students do not match (listed above): kct ${output === null ? 'exits' : 'writes the file and exits'} with code 10.`
      : noSubmission > 0
        ? `  Students match: every student of the download has a row (${plural(noSubmission, 'row')} with no submission left as ${noSubmission === 1 ? 'it was' : 'they were'}).`
        : '  Students match: every student of the download has a row, and every row a submission.',
  );
  if (output === null) lines.push('  Nothing was filled, so no file was written.');
  return lines;
}

/** Where to import the written file, in the platform's words. */
export function importHint(platform: 'moodle' | 'canvas'): string {
  return platform === 'moodle'
    ? 'import it in Moodle: the assignment, "View all submissions", Grading action "Upload grading worksheet"'
    : 'import it in Canvas: Grades, Import, then choose the file and review the changes before saving';
}

/** Exit 10: the file is written, but students of the download have no row in it; the report names them. `source` is what was marked (the download, or the saved run). */
export function mismatchError(file: { path: string }, report: FillReport, source: string, format = 'table'): StudentsMismatchError {
  const noRow = report.entries.filter((entry) => entry.status === 'not-in-file').length;
  const fromFiles = report.entries
    .filter((entry) => entry.status === 'not-in-file' && !isPlatformId(report.platform, entry.participantId))
    .map((entry) => entry.participantId);
  const missing = report.entries.filter(isMissingFromRun);
  if (missing.length > 0)
    return new StudentsMismatchError(
      `students do not match: ${plural(missing.length, 'row')} of ${file.path} ${missing.length === 1 ? 'says its student' : 'say their students'} submitted (${missing
        .slice(0, 5)
        .map((entry) => entry.displayName ?? entry.participantId)
        .join(', ')}${missing.length > 5 ? ', …' : ''}), and ${source} has no row for ${missing.length === 1 ? 'them' : 'any of them'}`,
      {
        suggestion: `A run stopped before it marked them, or a saved run cut short: run the same kct one-pass again (nothing is charged twice), save all its rows, and fill again; or give the download with --download to check each student against it.`,
      },
    );
  const others = report.entries.filter((entry) => entry.reason === 'other-student').length;
  if (others > 0)
    return new StudentsMismatchError(
      `students do not match: ${plural(others, 'row')} of ${file.path} ${others === 1 ? 'names' : 'name'} another student than the mark of ${source} with the same id, and ${others === 1 ? 'was' : 'were'} left as ${others === 1 ? 'it was' : 'they were'}${noRow > 0 ? `; and ${plural(noRow, 'student')} of ${source} ${noRow === 1 ? 'has' : 'have'} no row in it` : ''}`,
      {
        suggestion: `The ${format === 'table' ? 'report above names' : 'report on stdout names (reason other-student)'} each: check that the file is of the course and assignment that was marked, and download it again from there.${report.counts.filled > 0 ? ' Do not import the file written until you have.' : ''}`,
      },
    );
  return new StudentsMismatchError(
    `students do not match: ${plural(noRow, 'student')} of ${source} ${noRow === 1 ? 'has' : 'have'} no row in ${file.path}`,
    {
      suggestion: `${report.counts.filled > 0 ? 'The grades filled can be imported as they are; the' : 'No grade was filled, so no file was written; the'} ${format === 'table' ? 'report above names' : 'report on stdout names (entries not-in-file)'} each student with no row: ${[
        ...(fromFiles.length < noRow
          ? ['a student who joined after the file was downloaded needs a fresh download of it, or a grade entered by hand.']
          : []),
        ...(fromFiles.length > 0
          ? [
              `${fromFiles.length === noRow ? 'their' : 'Of those, the'} student ${fromFiles.length === 1 ? 'id' : 'ids'} ${idsFromFiles(report.platform, fromFiles)}`,
            ]
          : []),
      ].join(' ')}`,
    },
  );
}

/** A comment as the report quotes it: its start, on one line. */
function shortened(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}
