import { defineCommand } from '../../../cli/core/define-command.js';
import { gradeFileOptions, SAVED_RUN } from '../flags.js';

export const command = defineCommand({
  name: 'moodle',
  summary: 'fill a copy of Moodle\'s grading worksheet with the grades and feedback of a saved run, for "Upload grading worksheet"',
  args: {
    '<saved-run>': SAVED_RUN,
    '<worksheet>': 'the CSV of Moodle\'s "Download grading worksheet", as downloaded',
  },
  options: {
    '--feedback <form>': {
      description: 'feedback written to the worksheet\'s "Feedback comments": html (default: Moodle stores it as HTML), text, or none',
      choices: ['html', 'text', 'none'],
    },
    '--overwrite-feedback':
      'write the marks\' feedback over a comment already in "Feedback comments" (default: a comment there is kept, and feedback goes into empty cells only)',
    ...gradeFileOptions,
  },
  examples: [
    'kct one-pass submissions.zip --model 12 --output ndjson > marks.ndjson   # mark, then review marks.ndjson',
    'kct grades moodle marks.ndjson Grades.csv                                 # writes Grades.kct.csv',
    'kct grades moodle marks.ndjson Grades.csv --download submissions.zip     # also lists students the run has no row for',
    'kct grades moodle marks.ndjson Grades.csv --rounding integer --feedback text --grades-out upload.csv',
    'kct grades moodle marks.ndjson Grades.csv --in-place --json              # replaces Grades.csv; the report as JSON',
  ],
  load: () => import('./run.js'),
});
