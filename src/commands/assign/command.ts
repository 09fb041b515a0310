import { defineCommand } from '../../cli/core/define-command.js';
import { output } from '../../cli/core/options.js';
import { checked, parsePositiveInteger } from '../../cli/core/parse.js';
import { toIsoDateTime } from './dates.js';

export const command = defineCommand({
  name: 'assign',
  summary: 'create a student assignment from a ready model (for the legacy `kct evaluate` path)',
  options: {
    '-m, --model <id>': 'ready model id (default: config `model`, env KCT_MODEL)',
    '--name <name>': { description: 'assignment name', required: true },
    '--desc <text>': { description: 'assignment description', required: true },
    '--deadline <date>': {
      description: 'deadline: 2026-12-01 (end of that day), 2026-12-01T17:00, or full ISO 8601',
      required: true,
      check: checked((value, flag) => toIsoDateTime(value, flag, true), '--deadline'),
    },
    '--expected <n>': { description: 'expected number of answers', required: true, check: checked(parsePositiveInteger, '--expected') },
    '--subject <subject>': 'subject (project_subject)',
    '--start <date>': { description: 'start date, same forms as --deadline', check: checked(toIsoDateTime, '--start') },
    '--file-type <type>': { description: 'expected answer type (default pdf)', choices: ['word', 'pdf', 'image', 'text'] },
    ...output(),
  },
  examples: [
    'kct assign --model 12 --name "Uniform essay" --desc "Year 9 persuasive essay" --deadline 2026-12-01 --expected 28',
    'kct assign --model 12 --name "Essay" --desc "Draft" --deadline 2026-12-01T17:00 --expected 30 --file-type word --json',
  ],
  load: () => import('./run.js'),
});
