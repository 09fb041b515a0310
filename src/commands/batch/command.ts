import { defineCommand } from '../../cli/core/define-command.js';
import { markCopies, maxRps, output, watchOptions } from '../../cli/core/options.js';

export const command = defineCommand({
  name: 'batch',
  summary: 'mark many text answers through /evaluations/batch (split into requests of 100)',
  args: {
    '<manifest>': 'a .jsonl, .json (an array) or .csv file of items (paper_content or file, student_id, ...), or a folder of .txt answers',
  },
  options: {
    '-m, --model <id>': 'model id for items that do not name one',
    '--callback-url <url>': 'public https URL the service calls when a batch is final',
    '-r, --recursive': 'a folder manifest: also its subfolders (as one-pass)',
    '--exclude <glob>': {
      description: 'a folder manifest: leave out paths matching this glob (repeatable, as one-pass)',
      repeatable: true,
      whenEmpty: 'Give a pattern, e.g. --exclude "drafts/**".',
    },
    '--idempotency-key <key>':
      "your base key: each request of at most 100 items is sent as <key>-batch-<SHA-256 of its items' files or student ids> (default: derived from each request)",
    '--no-wait': 'print the batch tasks that hold the items (earlier ones reused, then those accepted) and exit',
    '--mark-again':
      'send every item, those this machine marked before too, paying for them again (without it, their marks are reused and only the other items are sent)',
    ...markCopies('send identical items of the manifest each on their own'),
    ...maxRps(),
    ...watchOptions,
    ...output(),
  },
  examples: [
    'kct batch answers.jsonl --model 12',
    'kct batch answers/ --model 12 --output csv > marks.csv',
    'kct batch answers.jsonl --model 12 --mark-copies    # identical items each sent, and each charged',
    'kct batch grown.jsonl --model 12                    # a manifest grown since: only its new items sent and charged',
    'kct batch grown.jsonl --model 12 --mark-again       # every item sent again, those marked before charged again',
    'kct batch class.csv --model 12 --callback-url https://school.example/kct-hook --no-wait',
  ],
  load: () => import('./run.js'),
});
