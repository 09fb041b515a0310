// kct upload: its flags, arguments and examples, from which its options are typed and checked; run.ts, loaded only when it runs, does the work.
import { defineCommand, type OptionsOf } from '../../cli/define-command.js';
import { output } from '../../cli/options.js';

export const command = defineCommand({
  name: 'upload',
  summary: 'upload files and print their reusable public URLs (for --asset)',
  args: [
    { syntax: '<files...>', description: 'files to upload, one request each' },
  ],
  options: [
    output(),
  ],
  examples: [
    'kct upload questions.pdf rubric.docx',
    'kct upload scan.png --json | jq -r ".[0].url"',
  ],
  load: () => import('./run.js'),
});
export type Options = OptionsOf<typeof command>;
