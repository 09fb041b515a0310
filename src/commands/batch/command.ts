// kct batch: its flags, arguments and examples, from which its options are typed and checked; run.ts, loaded only when it runs, does the work.
import { defineCommand, type OptionsOf } from '../../cli/define-command.js';
import { maxRps, output, watchOptions } from '../../cli/options.js';

export const command = defineCommand({
  name: 'batch',
  summary: 'mark many text answers through /evaluations/batch (split into requests of 100)',
  args: [
    { syntax: '<manifest>', description: 'a .jsonl or .csv file of items (paper_content or file, student_id, ...), or a folder of .txt answers' },
  ],
  options: [
    { flags: '-m, --model <id>', description: 'model id for items that do not name one' },
    { flags: '--callback-url <url>', description: 'public https URL the service calls when a batch is final' },
    { flags: '-r, --recursive', description: 'a folder manifest: also its subfolders (as one-pass)' },
    { flags: '--exclude <glob>', description: 'a folder manifest: leave out paths matching this glob (repeatable, as one-pass)', repeatable: true },
    { flags: '--idempotency-key <key>', description: 'your base key: each request of at most 100 items is sent as <key>-batch-<SHA-256 of its items\' files or student ids> (default: derived from each request)' },
    { flags: '--no-wait', description: 'print the accepted batch tasks and exit' },
    maxRps(),
    ...watchOptions,
    output(),
  ],
  examples: [
    'kct batch answers.jsonl --model 12',
    'kct batch answers/ --model 12 --output csv > marks.csv',
    'kct batch class.csv --model 12 --callback-url https://school.example/kct-hook --no-wait',
  ],
  load: () => import('./run.js'),
});
export type Options = OptionsOf<typeof command>;
