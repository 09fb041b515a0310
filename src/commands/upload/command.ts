// kct upload: its flags, examples and options schema; the work is in run.ts, loaded only when it runs.
import type { z } from 'zod';
import { defineCommand, type Zod } from '../../cli/define-command.js';
import { globalOptions, output, outputShape } from '../../cli/options.js';

// built when the command runs, so listing commands never loads zod
export const schema = (z: Zod) => globalOptions(z).extend({
  files: z.array(z.string()),
  ...outputShape(z),
});
export type Options = z.infer<ReturnType<typeof schema>>;

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
  schema,
  load: () => import('./run.js'),
});
