// kct keys create: its flags, examples and options schema; the work is in run.ts, loaded only when it runs.
import type { z } from 'zod';
import { defineCommand, type Zod } from '../../cli/define-command.js';
import { globalOptions, signInOptions, signInShape } from '../../cli/options.js';

// built when the command runs, so listing commands never loads zod
export const schema = (z: Zod) => globalOptions(z).extend({
  scope: z.enum(['user', 'organization']),
  name: z.string().optional(),
  saveAs: z.string().optional(),
  ...signInShape(z),
});
export type Options = z.infer<ReturnType<typeof schema>>;

export const command = defineCommand({
  name: 'create',
  summary: 'create a key and print it once (or store it straight into a profile with --save-as; only its masked form is printed)',
  options: [
    { flags: '--scope <scope>', description: 'user: the account\'s own models; organization: its organization\'s (organization admins only)', choices: ['user', 'organization'], required: true },
    { flags: '--name <name>', description: 'a name to tell the key apart in `kct keys list`' },
    { flags: '--save-as <profile>', description: 'store the key in this profile, with the base URL, instead of printing it (never replaces a stored key)' },
    ...signInOptions,
  ],
  examples: [
    'kct keys create --scope user --name laptop --account user',
    'KEY=$(printf %s "$PASSWORD" | kct keys create --scope user --account user --password-stdin)',
    'kct keys create --scope organization --name ci --account org_admin --save-as ci && kct --profile ci credits',
    'kct keys create --scope user --account user --json | jq -r .key',
  ],
  schema,
  load: () => import('./run.js'),
});
