import { defineCommand } from '../../cli/core/define-command.js';

export const command = defineCommand({
  name: 'completion',
  summary: 'print a shell completion script (bash, zsh or fish) for commands, flags, their values and model ids',
  args: {
    '<shell>': 'bash, zsh or fish',
  },
  examples: [
    'source <(kct completion bash)                              # this shell only; add it to ~/.bashrc to keep it',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: ${fpath[1]} is zsh's, printed as it is
    'kct completion zsh > "${fpath[1]}/_kct"                    # then start a new zsh',
    'kct completion fish > ~/.config/fish/completions/kct.fish',
  ],
  load: () => import('./run.js'),
});
