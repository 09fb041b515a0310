// kct ingest questions: its flags, examples and options schema; the work is in run.ts, loaded only when it runs.
import type { z } from 'zod';
import { defineCommand, type Zod } from '../../cli/define-command.js';
import { globalOptions } from '../../cli/options.js';

// built when the command runs, so listing commands never loads zod
export const schema = (z: Zod) => globalOptions(z).extend({
  files: z.array(z.string()).optional(),
  asset: z.array(z.string()).optional(),
  spec: z.string().optional(),
  name: z.string().optional(),
  desc: z.string().optional(),
  output: z.string(),
  force: z.boolean().optional(),
});
export type Options = z.infer<ReturnType<typeof schema>>;

export const command = defineCommand({
  name: 'questions',
  summary: 'parse question files or URLs (POST /questions-ingest-preview) into questions.yaml',
  args: [
    { syntax: '[files...]', description: 'question paper: PDF, DOCX, RTF, TXT, PNG/JPEG/WebP/GIF (up to 10, 20 MB each)' },
  ],
  options: [
    { flags: '--asset <url>', description: 'a public https URL of a file, or a URL from `kct upload` (repeat for several)', repeatable: true },
    { flags: '--spec <text>', description: 'parse only the named question (specification), e.g. "question 2"' },
    { flags: '--name <name>', description: 'model name to put in the preview (assignment_name); default: the paper\'s title' },
    { flags: '--desc <text>', description: 'description to put in the preview (assignment_desc); default: the paper\'s instructions' },
    { flags: '-o, --output <file>', description: 'preview file to write: .yaml, .yml or .json', defaultValue: 'questions.yaml' },
    { flags: '--force', description: 'replace the output file if it exists' },
  ],
  examples: [
    'kct ingest questions paper.pdf',
    'kct ingest questions page1.jpg page2.jpg -o questions.yaml',
    'kct ingest questions --asset "$(kct upload paper.pdf --json | jq -r ".[0].url")" -o questions.json',
    'kct ingest questions paper.docx --asset https://school.example/extract.pdf --spec "question 2" --name "Homework letter"',
    'kct ingest questions paper.pdf --json > preview.json',
  ],
  schema,
  load: () => import('./run.js'),
});
