import { defineCommand } from '../../cli/core/define-command.js';
import { output } from '../../cli/core/options.js';

export const command = defineCommand({
  name: 'rewrite',
  summary: "rewrite a finished evaluation's feedback in another style",
  args: {
    '<source>':
      "one answer's task id (of a batch: an answer's, listed by `kct result <batch> --output ndjson`), a result file saved with `kct result <id> --json` (any name), or - to read it from stdin",
  },
  options: {
    '--style <style>': { description: 'new style', choices: ['bullet_points', 'paragraph', 'short_sentences'] },
    '--item <criterion>': 'rewrite only this criterion',
    '--instruction <text>': 'free-text instruction, e.g. "address the student as you"',
    ...output(),
  },
  examples: [
    'kct rewrite tsk_0123abcd --style paragraph',
    'kct rewrite result.json --style short_sentences --item "Evidence & reasoning"',
    'kct result tsk_0123abcd --json | kct rewrite - --style paragraph',
    'kct rewrite tsk_0123abcd --style bullet_points --instruction "encouraging, second person" --json',
  ],
  load: () => import('./run.js'),
});
