import { defineGroup } from '../../cli/core/define-command.js';
import { command as ingestQuestions } from './questions/command.js';
import { command as ingestRubrics } from './rubrics/command.js';

export const command = defineGroup({
  name: 'ingest',
  summary: 'parse a question paper or a rubric into a preview file to check and edit before `kct models create`',
  examples: [
    'kct ingest questions paper.pdf --out questions.yaml',
    'kct ingest rubrics rubric.docx --total-score 30 --cum-method sum --out rubrics.yaml',
  ],
  subcommands: [ingestQuestions, ingestRubrics],
});
