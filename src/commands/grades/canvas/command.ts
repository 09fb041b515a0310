import { defineCommand } from '../../../cli/core/define-command.js';
import { gradeFileOptions, SAVED_RUN } from '../flags.js';

export const command = defineCommand({
  name: 'canvas',
  summary: "fill a copy of Canvas's gradebook export in one assignment's column with the grades of a saved run, for Grades, Import",
  args: {
    '<saved-run>': SAVED_RUN,
    '<gradebook>': 'the CSV of Canvas\'s Grades, Export, "Export Entire Gradebook", as downloaded',
  },
  options: {
    '--assignment <name-or-id>': "the gradebook's column to fill: its id (the number in brackets), its whole header, or its exact name",
    ...gradeFileOptions,
  },
  examples: [
    'kct one-pass submissions.zip --model 12 --output ndjson > marks.ndjson   # mark, then review marks.ndjson',
    'kct grades canvas marks.ndjson export.csv --assignment "Essay 1"         # writes export.kct.csv',
    'kct grades canvas marks.ndjson export.csv --assignment 1234 --rounding half --grades-out import.csv',
    'kct grades canvas marks.ndjson export.csv --assignment "Essay 1" --download submissions.zip --json',
  ],
  load: () => import('./run.js'),
});
