// kct completion bash|zsh|fish: a completion script printed from the command tree.
import { UsageError } from '../../api/errors.js';
import { completionTable, SHELLS, type Shell } from '../../cli/completion/table.js';
import type { Context } from '../../cli/core/context.js';
import type { OptionsOf } from '../../cli/core/define-command.js';
import { outRaw } from '../../cli/core/io.js';
import { VERSION } from '../../version.js';
import type { command } from './command.js';

type Options = OptionsOf<typeof command>;

export async function run(options: Options, context: Context): Promise<void> {
  const shell = options.shell.toLowerCase() as Shell;
  if (!SHELLS.includes(shell)) {
    throw new UsageError(`no completion for the shell "${options.shell}"`, {
      suggestion: `Choose one of ${SHELLS.join(', ')}, e.g. source <(kct completion bash).`,
    });
  }
  const table = completionTable(await context.commands());
  const render =
    shell === 'bash'
      ? (await import('../../cli/completion/bash.js')).bashScript
      : shell === 'zsh'
        ? (await import('../../cli/completion/zsh.js')).zshScript
        : (await import('../../cli/completion/fish.js')).fishScript;
  outRaw(context.io, render(table, VERSION));
}
