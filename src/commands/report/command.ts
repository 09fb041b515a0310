import { defineCommand } from '../../cli/core/define-command.js';
import { deprecatedOutputFile } from '../../cli/core/options.js';

export const command = defineCommand({
  name: 'report',
  summary: 'make a class report, one self-contained HTML file, from a saved run (charts, sortable marks, feedback, failures)',
  args: {
    '<source>':
      'a saved run, in any shape kct writes one: --output ndjson, --json, --output csv (scores, no feedback) or a --resume journal; - for stdin',
  },
  options: {
    '--out <file>': 'the HTML file to write (replaced if it exists); - or none for stdout when it is not a terminal',
    ...deprecatedOutputFile(),
    '--title <text>': { description: "the report's title", defaultValue: 'Class report' },
  },
  examples: [
    'kct one-pass answers/ --model 12 --output ndjson > marks.ndjson; kct report marks.ndjson --out class.html',
    'kct batch answers.jsonl --model 12 --output ndjson | kct report - --out class.html',
    'kct report marks.ndjson --out 9B-uniform-essay.html --title "9B: uniform essay"',
    'kct report district.journal --out district.html     # the --resume journal of a run, finished or not',
  ],
  load: () => import('./run.js'),
});
