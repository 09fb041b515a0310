// kct models create: its flags, examples and options schema; the work is in run.ts, loaded only when it runs.
import type { z } from 'zod';
import { defineCommand, type Zod } from '../../cli/define-command.js';
import { globalOptions, positiveNumber, watchOptions, watchShape } from '../../cli/options.js';

// built when the command runs, so listing commands never loads zod
export const schema = (z: Zod) => globalOptions(z).extend({
  questions: z.string(),
  rubrics: z.string(),
  name: z.string().optional(),
  desc: z.string().optional(),
  subject: z.string().optional(),
  totalScore: positiveNumber(z, '--total-score').optional(),
  cumMethod: z.enum(['sum', 'average']).optional(),
  wait: z.boolean().optional(),
  yes: z.boolean().optional(),
  ...watchShape(z),
});
export type Options = z.infer<ReturnType<typeof schema>>;

export const command = defineCommand({
  name: 'create',
  summary: 'create (train) a model from checked question and rubric previews (see `kct ingest`); prints "<id>  <status>  <name>"',
  options: [
    { flags: '--questions <file>', description: 'questions preview (.yaml or .json) from `kct ingest questions`', required: true },
    { flags: '--rubrics <file>', description: 'rubrics preview (.yaml or .json) from `kct ingest rubrics`', required: true },
    { flags: '--name <name>', description: 'model name (assignment_name); default: the questions file\'s assignment_name' },
    { flags: '--desc <text>', description: 'description (assignment_desc); default: the questions file\'s assignment_desc' },
    { flags: '--subject <subject>', description: 'subject (project_subject)' },
    { flags: '--total-score <n>', description: 'total score; default: the rubrics file\'s total_score' },
    { flags: '--cum-method <method>', description: 'how criterion scores make the total; default: the rubrics file\'s cum_method', choices: ['sum', 'average'] },
    { flags: '--wait', description: 'poll until the model is ready (same backoff and --timeout as task watching)' },
    { flags: '-y, --yes', description: 'create without asking (needed off a terminal)' },
    ...watchOptions,
  ],
  examples: [
    'kct models create --questions questions.yaml --rubrics rubrics.yaml',
    'kct models create --questions questions.yaml --rubrics rubrics.yaml --name "Homework letter" --desc "Year 10 persuasive letter" --wait --yes',
    'kct models create --questions q.json --rubrics r.json --total-score 30 --cum-method sum --yes --json',
    'id=$(kct models create --questions questions.yaml --rubrics rubrics.yaml --yes | cut -d" " -f1)',
  ],
  schema,
  load: () => import('./run.js'),
});
