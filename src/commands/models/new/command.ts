import { defineCommand } from '../../../cli/core/define-command.js';
import { watchOptions } from '../../../cli/core/options.js';
import { checked, parsePositiveNumber } from '../../../cli/core/parse.js';

export const command = defineCommand({
  name: 'new',
  summary: 'guided, on a terminal: parse a question paper and a rubric, edit the previews, create, wait until ready',
  args: {
    '<question-files...>': 'the question paper: PDF, DOCX, RTF, TXT or images (pages in order)',
  },
  options: {
    '--rubric <files...>': { description: 'the rubric file(s)', required: true },
    '--total-score <n>': {
      description: 'total score of the rubric (asked when missing)',
      check: checked(parsePositiveNumber, '--total-score'),
    },
    '--cum-method <method>': { description: 'how criterion scores make the total (asked when missing)', choices: ['sum', 'average'] },
    '--name <name>': "model name (default: the paper's title)",
    '--desc <text>': "description (default: the paper's instructions)",
    '--subject <subject>': 'subject (project_subject)',
    '--spec <text>': 'use only the named question, e.g. "question 2"',
    '--dir <folder>': 'where to keep the preview files (default: a new temporary folder)',
    '-y, --yes': 'create without the final question',
    ...watchOptions,
  },
  examples: [
    'kct models new paper.pdf --rubric rubric.docx',
    'EDITOR=nano kct models new page1.png page2.png --rubric rubric.pdf --total-score 30 --cum-method sum',
    'kct models new examples/question-paper.pdf --rubric examples/rubric.pdf --dir ./homework-model',
  ],
  load: () => import('./run.js'),
});
