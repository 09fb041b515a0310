// kct ingest rubrics: POST /rubrics-ingest-preview, then an editable preview file and a summary.
// `runIngest` serves `kct ingest questions` too.
import type { Context } from '../cli/context.js';
import { formatFor, printRecord } from '../cli/render/rows.js';
import { ingestToFile, printIngestSummary } from '../cli/model-building.js';
import { parsePositiveNumber } from '../cli/parse.js';
import type { PreviewKind } from '../api/preview.js';

export interface IngestCommandOptions {
  files?: string[];
  asset?: string[];
  spec?: string;
  name?: string;
  desc?: string;
  totalScore?: string;
  /** commander has checked it against the choices */
  cumMethod?: 'sum' | 'average';
  output?: string;
  force?: boolean;
  json?: boolean;
}

export async function run(options: IngestCommandOptions, context: Context): Promise<void> {
  await runIngest('rubrics', options, context);
}

export async function runIngest(kind: PreviewKind, options: IngestCommandOptions, context: Context): Promise<void> {
  const output = options.output ?? `${kind}.yaml`;
  const totalScore = options.totalScore === undefined ? undefined : parsePositiveNumber(options.totalScore, '--total-score');
  const client = await context.client();
  const outcome = await ingestToFile(client, {
    kind,
    files: options.files ?? [],
    assets: options.asset ?? [],
    output,
    force: options.force,
    specification: options.spec,
    name: options.name,
    desc: options.desc,
    totalScore,
    cumMethod: options.cumMethod,
  }, context.signal);
  // -o names the preview file here, not a format: only --json and the configured output choose it
  await printRecord(context.io, await formatFor({ json: options.json }, context), outcome.preview, () => printIngestSummary(context.io, kind, outcome.content));
  for (const warning of outcome.warnings) context.note(`warning: ${warning}`);
  const other = kind === 'questions' ? '--rubrics rubrics.yaml' : '--questions questions.yaml';
  const mine = kind === 'questions' ? `--questions ${output}` : `--rubrics ${output}`;
  context.note(`Wrote ${output}. Check and edit it, then: kct models create ${kind === 'questions' ? `${mine} ${other}` : `${other} ${mine}`}`);
}
