import { defineCommand } from '../../../cli/core/define-command.js';
import { assetOption, previewFileOptions } from '../../../cli/core/options.js';

export const command = defineCommand({
  name: 'questions',
  summary: 'parse question files or URLs (POST /questions-ingest-preview) into questions.yaml',
  args: {
    '[files...]': 'question paper: PDF, DOCX, RTF, TXT, PNG/JPEG/WebP/GIF (up to 10, 20 MB each)',
  },
  options: {
    ...assetOption,
    '--spec <text>': 'parse only the named question (specification), e.g. "question 2"',
    '--name <name>': "model name to put in the preview (assignment_name); default: the paper's title",
    '--desc <text>': "description to put in the preview (assignment_desc); default: the paper's instructions",
    ...previewFileOptions('questions.yaml'),
  },
  examples: [
    'kct ingest questions paper.pdf',
    'kct ingest questions page1.jpg page2.jpg --out questions.yaml',
    'kct ingest questions --asset "$(kct upload paper.pdf --json | jq -r ".[0].url")" --out questions.json',
    'kct ingest questions paper.docx --asset https://school.example/extract.pdf --spec "question 2" --name "Homework letter"',
    'kct ingest questions paper.pdf --json > preview.json',
  ],
  load: () => import('./run.js'),
});
