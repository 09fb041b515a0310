// kct models create: its flags, arguments and examples, from which its options are typed and checked; run.ts, loaded only when it runs, does the work.
import { defineCommand, type OptionsOf } from '../../../cli/define-command.js';
import { positiveNumber, watchOptions } from '../../../cli/options.js';

export const command = defineCommand({
  name: 'create',
  summary: 'create (train) a model from checked question and rubric previews (see `kct ingest`); prints "<id>  <status>  <name>"',
  options: [
    { flags: '--questions <file>', description: 'questions preview (.yaml or .json) from `kct ingest questions`', required: true },
    { flags: '--rubrics <file>', description: 'rubrics preview (.yaml or .json) from `kct ingest rubrics`', required: true },
    { flags: '--name <name>', description: 'model name (assignment_name); default: the questions file\'s assignment_name' },
    { flags: '--desc <text>', description: 'description (assignment_desc); default: the questions file\'s assignment_desc' },
    { flags: '--subject <subject>', description: 'subject (project_subject)' },
    { flags: '--total-score <n>', description: 'total score; default: the rubrics file\'s total_score', check: positiveNumber('--total-score') },
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
  load: () => import('./run.js'),
});
export type Options = OptionsOf<typeof command>;
