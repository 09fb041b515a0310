// kct keys revoke: its flags, examples and options schema; the work is in run.ts, loaded only when it runs.
import type { z } from 'zod';
import { defineCommand, type Zod } from '../../cli/define-command.js';
import { globalOptions, signInOptions, signInShape } from '../../cli/options.js';

// built when the command runs, so listing commands never loads zod
export const schema = (z: Zod) => globalOptions(z).extend({
  key: z.string(),
  yes: z.boolean().optional(),
  ...signInShape(z),
});
export type Options = z.infer<ReturnType<typeof schema>>;

export const command = defineCommand({
  name: 'revoke',
  summary: 'revoke one of the account\'s keys: every request with it is refused from then on (asks first on a terminal)',
  args: [
    { syntax: '<key>', description: 'the key\'s id or its masked form (kct_****abcd), from `kct keys list`' },
  ],
  options: [
    { flags: '-y, --yes', description: 'revoke without asking (needed off a terminal)' },
    ...signInOptions,
  ],
  examples: [
    'kct keys revoke 7 --account user',
    'kct keys revoke "kct_****3f9a" --account user',
    'printf %s "$PASSWORD" | kct keys revoke 7 --account user --password-stdin --yes',
  ],
  schema,
  load: () => import('./run.js'),
});
