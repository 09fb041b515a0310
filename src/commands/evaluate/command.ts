// kct evaluate: its flags, examples and options schema; the work is in run.ts, loaded only when it runs.
import type { z } from 'zod';
import { defineCommand, type Zod } from '../../cli/define-command.js';
import { globalOptions, output, outputShape, watchOptions, watchShape } from '../../cli/options.js';

// built when the command runs, so listing commands never loads zod
export const schema = (z: Zod) => globalOptions(z).extend({
  files: z.array(z.string()).optional(),
  assignment: z.string(),
  text: z.string().optional(),
  feedbackJson: z.string().optional(),
  style: z.enum(['Bullet', 'Short', 'Long']).optional(),
  studentId: z.string().optional(),
  wait: z.boolean(),
  ...watchShape(z),
  ...outputShape(z),
});
export type Options = z.infer<ReturnType<typeof schema>>;

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
  schema,
  load: () => import('./run.js'),
});
