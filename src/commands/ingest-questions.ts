// kct ingest questions: POST /questions-ingest-preview, then an editable preview file and a summary.
import type { Context } from '../cli/context.js';
import { runIngest, type IngestCommandOptions } from './ingest-rubrics.js';

export interface IngestQuestionsOptions extends IngestCommandOptions {
  name?: string;
  desc?: string;
}

export async function run(options: IngestQuestionsOptions, context: Context): Promise<void> {
  await runIngest('questions', options, context);
}
