import { defineCommand } from '../../cli/core/define-command.js';

export const command = defineCommand({
  name: 'api',
  summary: 'send an authenticated request to any route of the API and print the answer (like gh api)',
  args: {
    '<method>': 'GET, POST, PUT, PATCH, DELETE or HEAD; or the path, for GET (POST when fields are given)',
    '[path]': 'route relative to the base URL, e.g. /credits or evaluations/<id> (one that leads outside it is refused)',
  },
  options: {
    '-f, --raw-field <key=value>': {
      description: 'a string field (repeat for several; key[]=v appends to an array, in order with -F)',
      repeatable: true,
    },
    '-F, --field <key=value>': {
      description: 'a typed field: true, false, null and numbers as JSON; @file attaches a file (multipart)',
      repeatable: true,
    },
    '--input <file>': 'the JSON body from a file, or - for stdin (fields then go in the query string)',
    '-H, --header <name:value>': { description: 'an extra request header, e.g. Idempotency-Key:k1 (repeat for several)', repeatable: true },
    '--raw': 'print the body as received, with its envelope',
    '-i, --include': 'print the status line and the response headers first',
  },
  examples: [
    'kct api /credits',
    'kct api GET /models --raw',
    'kct api POST /evaluations/one-pass -F model_id=12 -f paper_content="My essay" -H Idempotency-Key:essay-1',
    'kct api POST /evaluations/one-pass -F model_id=12 -F answer_files=@essay.pdf',
    'kct api POST /evaluations/batch --input batch.json',
    'jq -n \'{style: "paragraph", sections: [{item: "Argument", comment: "- clear position\\n- needs evidence", score: 3, max_score: 5}]}\' | kct api POST /feedback-rewrite --input -',
    'kct api GET /evaluations/tsk_0123abcd/status --include',
  ],
  load: () => import('./run.js'),
});
