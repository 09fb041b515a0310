import { defineCommand } from '../../../cli/core/define-command.js';
import { output, watchOptions } from '../../../cli/core/options.js';
import { checked, parsePositiveNumber } from '../../../cli/core/parse.js';

export const command = defineCommand({
  name: 'create',
  summary: 'create (train) a model from checked question and rubric previews (see `kct ingest`); prints "<id>  <status>  <name>"',
  options: {
    '--questions <file>': { description: 'questions preview (.yaml or .json) from `kct ingest questions`', required: true },
    '--rubrics <file>': { description: 'rubrics preview (.yaml or .json) from `kct ingest rubrics`', required: true },
    '--name <name>': "model name (assignment_name); default: the questions file's assignment_name",
    '--desc <text>': "description (assignment_desc); default: the questions file's assignment_desc",
    '--subject <subject>': 'subject (project_subject)',
    '--total-score <n>': {
      description: "total score; default: the rubrics file's total_score",
      check: checked(parsePositiveNumber, '--total-score'),
    },
    '--cum-method <method>': {
      description: "how criterion scores make the total; default: the rubrics file's cum_method",
      choices: ['sum', 'average'],
    },
    '--wait': 'poll until the model is ready (same backoff and --timeout as task watching)',
    '-y, --yes': 'create without asking (needed off a terminal)',
    ...watchOptions,
    ...output(),
  },
  examples: [
    'kct models create --questions questions.yaml --rubrics rubrics.yaml',
    'kct models create --questions questions.yaml --rubrics rubrics.yaml --name "Homework letter" --desc "Year 10 persuasive letter" --wait --yes',
    'kct models create --questions q.json --rubrics r.json --total-score 30 --cum-method sum --yes --json',
    'id=$(kct models create --questions questions.yaml --rubrics rubrics.yaml --yes | cut -d" " -f1)',
  ],
  load: () => import('./run.js'),
});
