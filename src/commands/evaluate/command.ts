import { defineCommand } from '../../cli/core/define-command.js';
import { output, watchOptions } from '../../cli/core/options.js';
import { checked, parsePositiveInteger } from '../../cli/core/parse.js';

export const command = defineCommand({
  name: 'evaluate',
  summary: 'submit one answer to an assignment (legacy path: charged at acceptance, never retried)',
  args: {
    '[files...]': 'the answer: up to 10 files (pages of one answer), or - for text on stdin',
  },
  options: {
    '-a, --assignment <id>': {
      description: 'assignment id from `kct assign` (not a model id)',
      required: true,
      check: checked(parsePositiveInteger, '--assignment'),
    },
    '--text <answer>': 'the answer as text',
    '--feedback-json <file>': 'JSON array of {item, comment, score} sent as current_feedbacks',
    '--style <style>': { description: 'feedback style', choices: ['Bullet', 'Short', 'Long'] },
    '--student-id <id>': 'your anonymous student id',
    '--no-wait': 'print the accepted task and exit',
    '--mark-again':
      'send an answer this machine sent to this assignment before (the same content and options, whatever its student id), paying again',
    ...watchOptions,
    ...output(),
  },
  examples: [
    'kct evaluate --assignment 1001 essay.pdf',
    'kct evaluate --assignment 1001 page1.png page2.png --student-id s-7',
    'kct evaluate --assignment 1001 - --feedback-json feedback.json < essay.txt',
    'kct evaluate --assignment 1001 essay.pdf --mark-again   # pay again for an answer sent before',
  ],
  load: () => import('./run.js'),
});
