// kct assign: its flags, arguments and examples, from which its options are typed and checked; run.ts, loaded only when it runs, does the work.
import { defineCommand, type OptionsOf } from '../../cli/define-command.js';

export const command = defineCommand({
  name: 'assign',
  summary: 'create a student assignment from a ready model (for the legacy `kct evaluate` path)',
  options: [
    { flags: '-m, --model <id>', description: 'ready model id (default: config `model`, env KCT_MODEL)' },
    { flags: '--name <name>', description: 'assignment name', required: true },
    { flags: '--desc <text>', description: 'assignment description', required: true },
    { flags: '--deadline <date>', description: 'deadline: 2026-12-01 (end of that day), 2026-12-01T17:00, or full ISO 8601', required: true },
    { flags: '--expected <n>', description: 'expected number of answers', required: true },
    { flags: '--subject <subject>', description: 'subject (project_subject)' },
    { flags: '--start <date>', description: 'start date, same forms as --deadline' },
    { flags: '--file-type <type>', description: 'expected answer type (default pdf)', choices: ['word', 'pdf', 'image', 'text'] },
  ],
  examples: [
    'kct assign --model 12 --name "Uniform essay" --desc "Year 9 persuasive essay" --deadline 2026-12-01 --expected 28',
    'kct assign --model 12 --name "Essay" --desc "Draft" --deadline 2026-12-01T17:00 --expected 30 --file-type word --json',
  ],
  load: () => import('./run.js'),
});
export type Options = OptionsOf<typeof command>;
