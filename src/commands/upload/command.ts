import { defineCommand } from '../../cli/core/define-command.js';
import { output } from '../../cli/core/options.js';

export const command = defineCommand({
  name: 'upload',
  summary: 'upload files and print their reusable public URLs (for --asset)',
  args: {
    '<files...>': 'files to upload, one request each',
  },
  options: {
    ...output(),
  },
  examples: ['kct upload questions.pdf rubric.docx', 'kct upload scan.png --json | jq -r ".[0].url"'],
  load: () => import('./run.js'),
});
