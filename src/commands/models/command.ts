// kct models: its flags, examples and options schema; the work is in run.ts, loaded only when it runs.
import type { z } from 'zod';
import { defineCommand, type Zod } from '../../cli/define-command.js';
import { globalOptions, output, outputShape } from '../../cli/options.js';
import { command as modelsShow } from '../models-show/command.js';
import { command as modelsCreate } from '../models-create/command.js';
import { command as modelsNew } from '../models-new/command.js';

// built when the command runs, so listing commands never loads zod
export const schema = (z: Zod) => globalOptions(z).extend({
  ready: z.boolean().optional(),
  ...outputShape(z),
});
export type Options = z.infer<ReturnType<typeof schema>>;

export const command = defineCommand({
  name: 'models',
  summary: 'list the marking models this key can use; build new ones (show, create, new)',
  options: [
    { flags: '--ready', description: 'only models that are ready to mark with' },
    output(),
  ],
  examples: [
    'kct models',
    'kct models --ready --output csv',
    'kct models --json | jq ".[].model_id"',
    'kct models show 12',
    'kct models create --questions questions.yaml --rubrics rubrics.yaml --wait',
    'kct models new paper.pdf --rubric rubric.docx',
  ],
  subcommands: [modelsShow, modelsCreate, modelsNew],
  schema,
  load: () => import('./run.js'),
});
