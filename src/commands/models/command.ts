import { defineCommand } from '../../cli/core/define-command.js';
import { output } from '../../cli/core/options.js';
import { command as modelsCreate } from './create/command.js';
import { command as modelsNew } from './new/command.js';
import { command as modelsShow } from './show/command.js';

export const command = defineCommand({
  name: 'models',
  summary: 'list the marking models this key can use; build new ones (show, create, new)',
  options: {
    '--ready': 'only models that are ready to mark with',
    ...output(),
  },
  examples: [
    'kct models',
    'kct models --ready --output csv',
    'kct models --json | jq ".[].model_id"',
    'kct models show 12',
    'kct models create --questions questions.yaml --rubrics rubrics.yaml --wait',
    'kct models new paper.pdf --rubric rubric.docx',
  ],
  subcommands: [modelsShow, modelsCreate, modelsNew],
  load: () => import('./run.js'),
});
