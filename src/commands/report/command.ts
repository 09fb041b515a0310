// kct report: its flags, examples and options schema; the work is in run.ts, loaded only when it runs.
import type { z } from 'zod';
import { defineCommand, type Zod } from '../../cli/define-command.js';
import { globalOptions } from '../../cli/options.js';

// built when the command runs, so listing commands never loads zod
export const schema = (z: Zod) => globalOptions(z).extend({
  source: z.string(),
  output: z.string().optional(),
  title: z.string(),
});
export type Options = z.infer<ReturnType<typeof schema>>;

export const command = defineCommand({
  name: 'report',
  summary: 'make a class report, one self-contained HTML file, from a saved run (charts, sortable marks, feedback, failures)',
  args: [
    { syntax: '<source>', description: 'a saved run: the ndjson of `kct one-pass` or `kct batch --output ndjson`, or - for stdin' },
  ],
  options: [
    { flags: '-o, --output <file>', description: 'the HTML file to write (replaced if it exists); - or none for stdout when it is not a terminal' },
    { flags: '--title <text>', description: 'the report\'s title', defaultValue: 'Class report' },
  ],
  examples: [
    'kct one-pass answers/ --model 12 --output ndjson > marks.ndjson && kct report marks.ndjson -o class.html',
    'kct batch answers.jsonl --model 12 --output ndjson | kct report - -o class.html',
    'kct report marks.ndjson -o 9B-uniform-essay.html --title "9B: uniform essay"',
  ],
  schema,
  load: () => import('./run.js'),
});
