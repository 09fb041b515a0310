// kct rewrite: its flags, examples and options schema; the work is in run.ts, loaded only when it runs.
import type { z } from 'zod';
import { defineCommand, type Zod } from '../../cli/define-command.js';
import { globalOptions, output, outputShape } from '../../cli/options.js';

// built when the command runs, so listing commands never loads zod
export const schema = (z: Zod) => globalOptions(z).extend({
  source: z.string(),
  style: z.enum(['bullet_points', 'paragraph', 'short_sentences']).optional(),
  item: z.string().optional(),
  instruction: z.string().optional(),
  ...outputShape(z),
});
export type Options = z.infer<ReturnType<typeof schema>>;

export const command = defineCommand({
  name: 'rewrite',
  summary: 'rewrite a finished evaluation\'s feedback in another style',
  args: [
    { syntax: '<source>', description: 'task id, a result file saved with `kct result <id> --json` (any name), or - to read it from stdin' },
  ],
  options: [
    { flags: '--style <style>', description: 'new style', choices: ['bullet_points', 'paragraph', 'short_sentences'] },
    { flags: '--item <criterion>', description: 'rewrite only this criterion' },
    { flags: '--instruction <text>', description: 'free-text instruction, e.g. "address the student as you"' },
    output(),
  ],
  examples: [
    'kct rewrite tsk_0123abcd --style paragraph',
    'kct rewrite result.json --style short_sentences --item "Evidence & reasoning"',
    'kct result tsk_0123abcd --json | kct rewrite - --style paragraph',
    'kct rewrite tsk_0123abcd --style bullet_points --instruction "encouraging, second person" --json',
  ],
  schema,
  load: () => import('./run.js'),
});
