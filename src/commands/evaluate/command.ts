// kct evaluate: its flags, arguments and examples, from which its options are typed and checked; run.ts, loaded only when it runs, does the work.
import { defineCommand, type OptionsOf } from '../../cli/define-command.js';
import { output, watchOptions } from '../../cli/options.js';

export const command = defineCommand({
  name: 'evaluate',
  summary: 'submit one answer to an assignment (legacy path: charged at acceptance, never retried)',
  args: [
    { syntax: '[files...]', description: 'the answer: up to 10 files (pages of one answer), or - for text on stdin' },
  ],
  options: [
    { flags: '-a, --assignment <id>', description: 'assignment id from `kct assign` (not a model id)', required: true },
    { flags: '--text <answer>', description: 'the answer as text' },
    { flags: '--feedback-json <file>', description: 'JSON array of {item, comment, score} sent as current_feedbacks' },
    { flags: '--style <style>', description: 'feedback style', choices: ['Bullet', 'Short', 'Long'] },
    { flags: '--student-id <id>', description: 'your anonymous student id' },
    { flags: '--no-wait', description: 'print the accepted task and exit' },
    ...watchOptions,
    output(),
  ],
  examples: [
    'kct evaluate --assignment 1001 essay.pdf',
    'kct evaluate --assignment 1001 page1.png page2.png --student-id s-7',
    'kct evaluate --assignment 1001 - --feedback-json feedback.json < essay.txt',
  ],
  load: () => import('./run.js'),
});
export type Options = OptionsOf<typeof command>;
