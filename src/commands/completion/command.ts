// kct completion: its flags, examples and options schema; the work is in run.ts, loaded only when it runs.
import type { z } from 'zod';
import { defineCommand, type Zod } from '../../cli/define-command.js';
import { globalOptions } from '../../cli/options.js';

// built when the command runs, so listing commands never loads zod
export const schema = (z: Zod) => globalOptions(z).extend({
  shell: z.string(),
});
export type Options = z.infer<ReturnType<typeof schema>>;

export const command = defineCommand({
  name: 'completion',
  summary: 'print a shell completion script (bash, zsh or fish) for commands, flags, their values and model ids',
  args: [
    { syntax: '<shell>', description: 'bash, zsh or fish' },
  ],
  examples: [
    'source <(kct completion bash)                              # this shell only; add it to ~/.bashrc to keep it',
    'kct completion zsh > "${fpath[1]}/_kct"                    # then start a new zsh',
    'kct completion fish > ~/.config/fish/completions/kct.fish',
  ],
  schema,
  load: () => import('./run.js'),
});
