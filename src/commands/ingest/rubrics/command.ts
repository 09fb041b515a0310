import { defineCommand } from '../../../cli/core/define-command.js';
import { assetOption, previewFileOptions } from '../../../cli/core/options.js';
import { checked, parsePositiveNumber } from '../../../cli/core/parse.js';

export const command = defineCommand({
  name: 'rubrics',
  summary: 'parse rubric files or URLs (POST /rubrics-ingest-preview) into rubrics.yaml',
  args: {
    '[files...]': 'rubric: PDF, DOCX, RTF, TXT, PNG/JPEG/WebP/GIF (up to 10, 20 MB each)',
  },
  options: {
    '--total-score <n>': { description: 'total score of the rubric', required: true, check: checked(parsePositiveNumber, '--total-score') },
    '--cum-method <method>': { description: 'how criterion scores make the total', choices: ['sum', 'average'], required: true },
    ...assetOption,
    '--spec <text>': 'use only the rubric section of the named question, e.g. "question 2"',
    ...previewFileOptions('rubrics.yaml'),
  },
  examples: [
    'kct ingest rubrics rubric.docx --total-score 30 --cum-method sum',
    'kct ingest rubrics rubric.pdf --total-score 10 --cum-method average --out rubrics.json',
    'kct ingest rubrics --asset https://school.example/rubric.pdf --total-score 30 --cum-method sum --force',
  ],
  load: () => import('./run.js'),
});
