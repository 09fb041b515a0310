// kct keys list: its flags, examples and options schema; the work is in run.ts, loaded only when it runs.
import type { z } from 'zod';
import { defineCommand, type Zod } from '../../cli/define-command.js';
import { globalOptions, output, outputShape, signInOptions, signInShape } from '../../cli/options.js';

// built when the command runs, so listing commands never loads zod
export const schema = (z: Zod) => globalOptions(z).extend({
  ...signInShape(z),
  ...outputShape(z),
});
export type Options = z.infer<ReturnType<typeof schema>>;

export const command = defineCommand({
  name: 'list',
  summary: 'list the account\'s keys, masked (kct_****abcd), with scope, creation date and state (active or revoked)',
  options: [
    ...signInOptions,
    output(),
  ],
  examples: [
    'kct keys list --account user',
    'KCT_ACCOUNT=org_admin kct keys list --output csv',
    'printf %s "$PASSWORD" | kct keys list --account user --password-stdin --json',
  ],
  schema,
  load: () => import('./run.js'),
});
