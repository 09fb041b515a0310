// kct models new: its flags, arguments and examples, from which its options are typed and checked; run.ts, loaded only when it runs, does the work.
import { defineCommand, type OptionsOf } from '../../../cli/define-command.js';
import { watchOptions } from '../../../cli/options.js';

export const command = defineCommand({
  name: 'new',
  summary: 'guided, on a terminal: parse a question paper and a rubric, edit the previews, create, wait until ready',
  args: [
    { syntax: '<question-files...>', description: 'the question paper: PDF, DOCX, RTF, TXT or images (pages in order)' },
  ],
  options: [
    { flags: '--rubric <files...>', description: 'the rubric file(s)', required: true },
    { flags: '--total-score <n>', description: 'total score of the rubric (asked when missing)' },
    { flags: '--cum-method <method>', description: 'how criterion scores make the total (asked when missing)', choices: ['sum', 'average'] },
    { flags: '--name <name>', description: 'model name (default: the paper\'s title)' },
    { flags: '--desc <text>', description: 'description (default: the paper\'s instructions)' },
    { flags: '--subject <subject>', description: 'subject (project_subject)' },
    { flags: '--spec <text>', description: 'use only the named question, e.g. "question 2"' },
    { flags: '--dir <folder>', description: 'where to keep the preview files (default: a new temporary folder)' },
    { flags: '-y, --yes', description: 'create without the final question' },
    ...watchOptions,
  ],
  examples: [
    'kct models new paper.pdf --rubric rubric.docx',
    'EDITOR=nano kct models new page1.png page2.png --rubric rubric.pdf --total-score 30 --cum-method sum',
    'kct models new examples/question-paper.pdf --rubric examples/rubric.pdf --dir ./homework-model',
  ],
  load: () => import('./run.js'),
});
export type Options = OptionsOf<typeof command>;
