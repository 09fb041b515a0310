// kct ingest rubrics: its flags, arguments and examples, from which its options are typed and checked; run.ts, loaded only when it runs, does the work.
import { defineCommand, type OptionsOf } from '../../../cli/define-command.js';
import { assetOption, positiveNumber, previewFileOptions } from '../../../cli/options.js';

export const command = defineCommand({
  name: 'rubrics',
  summary: 'parse rubric files or URLs (POST /rubrics-ingest-preview) into rubrics.yaml',
  args: [
    { syntax: '[files...]', description: 'rubric: PDF, DOCX, RTF, TXT, PNG/JPEG/WebP/GIF (up to 10, 20 MB each)' },
  ],
  options: [
    { flags: '--total-score <n>', description: 'total score of the rubric', required: true, check: positiveNumber('--total-score') },
    { flags: '--cum-method <method>', description: 'how criterion scores make the total', choices: ['sum', 'average'], required: true },
    assetOption,
    { flags: '--spec <text>', description: 'use only the rubric section of the named question, e.g. "question 2"' },
    ...previewFileOptions('rubrics.yaml'),
  ],
  examples: [
    'kct ingest rubrics rubric.docx --total-score 30 --cum-method sum',
    'kct ingest rubrics rubric.pdf --total-score 10 --cum-method average -o rubrics.json',
    'kct ingest rubrics --asset https://school.example/rubric.pdf --total-score 30 --cum-method sum --force',
  ],
  load: () => import('./run.js'),
});
export type Options = OptionsOf<typeof command>;
