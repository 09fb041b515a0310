// `kct one-pass --rubric-file ... --total-score N`: warn, as `kct ingest rubrics` does, when the
// rubric's criteria add up to a different total. The rubric is parsed by the service's own preview
// (POST /rubrics-ingest-preview: it creates and charges nothing), once per run, before any answer
// is sent. A warning only: if the preview fails, marking goes on and --debug shows why.
import { type CumMethod, criteriaTotalProblem } from '../../api/schemas.js';
import type { Context } from '../../cli/core/context.js';
import type { KctClient } from '../../client/client.js';
import type { LocalFile } from '../../client/files.js';

export async function warnOnRubricTotal(
  context: Context,
  client: KctClient,
  input: {
    rubricFiles: LocalFile[];
    rubricText?: string;
    totalScore?: number;
    cumMethod?: CumMethod;
    modelId: number;
  },
): Promise<void> {
  if (input.totalScore === undefined || (input.rubricFiles.length === 0 && input.rubricText === undefined)) return;
  try {
    // without --cum-method the model's own method applies (spec 4.8)
    const method =
      input.cumMethod ??
      ((await client.models({ signal: context.signal })).find((m) => String(m.model_id) === String(input.modelId))?.cum_method as
        | CumMethod
        | undefined) ??
      'sum';
    const files = input.rubricFiles.length > 0 ? input.rubricFiles : [textFile(input.rubricText!)];
    const preview = await client.ingestPreview(
      'rubrics',
      { fields: { total_score: input.totalScore, cum_method: method }, files },
      { signal: context.signal },
    );
    const maxima = (Array.isArray(preview.rubrics) ? preview.rubrics : [])
      .map((criterion) => (criterion as { max_score?: unknown }).max_score)
      .filter((max): max is number => typeof max === 'number');
    if (maxima.length === 0) return;
    const problem = criteriaTotalProblem(maxima, input.totalScore, method);
    const source = input.rubricFiles.length > 0 ? input.rubricFiles.map((file) => file.path).join(', ') : '--rubric-text';
    if (problem) context.note(`warning: --total-score ${input.totalScore}: ${problem} (criteria of ${source}, as the service parses them)`);
  } catch (error) {
    if (context.signal.aborted) throw error;
    if (context.globals.debug) context.note(`[debug] the rubric total was not checked: ${(error as Error).message}`);
  }
}

function textFile(text: string): LocalFile {
  const data = Buffer.from(text, 'utf8');
  return { path: '--rubric-text', name: 'rubric.txt', type: 'text/plain', size: data.length, data };
}
