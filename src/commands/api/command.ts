// kct api: its flags, arguments and examples, from which its options are typed and checked; run.ts, loaded only when it runs, does the work.
import { defineCommand, type OptionsOf } from '../../cli/define-command.js';

export const command = defineCommand({
  name: 'api',
  summary: 'send an authenticated request to any route of the API and print the answer (like gh api)',
  args: [
    { syntax: '<method>', description: 'GET, POST, PUT, PATCH or DELETE; or the path, for GET (POST when fields are given)' },
    { syntax: '[path]', description: 'route relative to the base URL, e.g. /credits or evaluations/<id>' },
  ],
  options: [
    { flags: '-f, --raw-field <key=value>', description: 'a string field (repeat for several; key[]=v appends to an array)', repeatable: true },
    { flags: '-F, --field <key=value>', description: 'a typed field: true, false, null and numbers as JSON; @file attaches a file (multipart)', repeatable: true },
    { flags: '--input <file>', description: 'the JSON body from a file, or - for stdin (fields then go in the query string)' },
    { flags: '-H, --header <name:value>', description: 'an extra request header, e.g. Idempotency-Key:k1 (repeat for several)', repeatable: true },
    { flags: '--raw', description: 'print the body as received, with its envelope' },
    { flags: '-i, --include', description: 'print the status line and the response headers first' },
  ],
  examples: [
    'kct api /credits',
    'kct api GET /models --raw',
    'kct api POST /evaluations/one-pass -F model_id=12 -f paper_content="My essay" -H Idempotency-Key:essay-1',
    'kct api POST /evaluations/one-pass -F model_id=12 -F answer_files=@essay.pdf',
    'kct api POST /evaluations/batch --input batch.json',
    'jq -n \'{style: "paragraph", sections: []}\' | kct api POST /feedback-rewrite --input -',
    'kct api GET /evaluations/tsk_0123abcd/status --include',
  ],
  load: () => import('./run.js'),
});
export type Options = OptionsOf<typeof command>;
