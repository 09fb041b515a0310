// What `kct ingest questions` and `kct ingest rubrics` share: POST the files to the preview route,
// write the editable preview file, print its summary and the next step.

import type { PreviewKind } from '../../api/preview.js';
import type { Context } from '../../cli/core/context.js';
import { ingestToFile, printIngestSummary } from '../../cli/models/model-building.js';
import { exporterFor } from '../../cli/render/export.js';

/** The options of either subcommand; each declares (in its command.ts) the ones it takes. */
export interface IngestOptions {
  files?: string[];
  asset?: string[];
  spec?: string;
  name?: string;
  desc?: string;
  totalScore?: number;
  cumMethod?: 'sum' | 'average';
  out: string;
  /** The deprecated -o/--output FILE (the file, when given). */
  output?: string;
  force?: boolean;
  json?: boolean;
}

export async function runIngest(kind: PreviewKind, options: IngestOptions, context: Context): Promise<void> {
  if (options.output !== undefined)
    context.notice(
      'note',
      '-o/--output FILE is now --out FILE (-o/--output name a format everywhere else in kct); it still works for now.',
    );
  const output = options.output ?? options.out;
  const client = await context.client();
  const outcome = await ingestToFile(
    client,
    {
      kind,
      files: options.files ?? [],
      assets: options.asset ?? [],
      output,
      force: options.force,
      specification: options.spec,
      name: options.name,
      desc: options.desc,
      totalScore: options.totalScore,
      cumMethod: options.cumMethod,
    },
    context.signal,
  );
  // the preview file is --out (-o/--output is the old name of the file, not a format): --json or the configured format
  await (await exporterFor({ json: options.json }, context)).record(outcome.preview, () =>
    printIngestSummary(context.io, kind, outcome.content),
  );
  for (const warning of outcome.warnings) context.notice('warning', warning);
  // kct models create needs the students' instructions: said now, not when the model is created
  // the file holds null where the paper gave none (preview-writer.ts decides what text is)
  if (kind === 'questions' && (outcome.content as { assignment_desc?: unknown }).assignment_desc === null)
    context.notice(
      'warning',
      `no instructions to the students were found in the paper (assignment_desc is empty in ${output}): write them there, or give them with --desc to kct models create, which needs them`,
    );
  const other = kind === 'questions' ? '--rubrics rubrics.yaml' : '--questions questions.yaml';
  const mine = kind === 'questions' ? `--questions ${output}` : `--rubrics ${output}`;
  context.notice(
    'next',
    `Wrote ${output}. Check and edit it, then: kct models create ${kind === 'questions' ? `${mine} ${other}` : `${other} ${mine}`}`,
  );
}
