// kct ingest rubrics: POST /rubrics-ingest-preview, then an editable preview file and a summary.
import type { Context } from '../../../cli/core/context.js';
import type { OptionsOf } from '../../../cli/core/define-command.js';
import { runIngest } from '../run-ingest.js';
import type { command } from './command.js';

type Options = OptionsOf<typeof command>;

export async function run(options: Options, context: Context): Promise<void> {
  await runIngest('rubrics', options, context);
}
