// The topics of `kct help <topic>` that are no command: main.ts runs each as the hidden command
// help-<topic> (program.ts), and shell completion offers them after `kct help`.
export const HELP_TOPICS = ['exit-codes'] as const;
