// kct grades moodle: Moodle's grading worksheet filled from a saved run (the work is fill.ts, shared with kct grades canvas).
import type { Context } from '../../../cli/core/context.js';
import type { OptionsOf } from '../../../cli/core/define-command.js';
import { fillGrades } from '../fill.js';
import type { command } from './command.js';

type Options = OptionsOf<typeof command>;

export async function run(options: Options, context: Context): Promise<void> {
  await fillGrades({ ...options, platform: 'moodle', file: options.worksheet }, context);
}
