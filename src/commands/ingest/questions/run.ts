// kct ingest questions: POST /questions-ingest-preview, then an editable preview file and a summary.
import type { Context } from '../../../cli/context.js';
import { runIngest } from '../run-ingest.js';
import type { Options } from './command.js';

export async function run(options: Options, context: Context): Promise<void> {
  await runIngest('questions', options, context);
}
