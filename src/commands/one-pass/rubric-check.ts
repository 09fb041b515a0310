// `kct one-pass --rubric-file ...` (or --rubric-text): warn, as `kct ingest rubrics` does, when the
// service finds no criteria in the rubric (the answers would be marked, and charged, on something
// else), and with --total-score when the criteria add up to a different total. The rubric is parsed
// by the service's own preview (POST /rubrics-ingest-preview: it creates and charges nothing), once
// per run, before any answer is sent (none when nothing is sent). A warning only: if the preview is
// refused, marking goes on with a note; if it fails otherwise, --debug shows why.
import { ApiError } from '../../api/errors.js';
import { type CumMethod, criteriaTotalProblem } from '../../api/schemas.js';
import type { Context } from '../../cli/core/context.js';
import { shellWord } from '../../cli/core/shell-word.js';
import type { KctClient } from '../../client/client.js';
import type { LocalFile } from '../../client/files.js';

export async function warnOnRubric(
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
  if (input.rubricFiles.length === 0 && input.rubricText === undefined) return;
  try {
    // without --cum-method the model's own method applies (spec 4.8); it matters only to a total
    const method =
      input.totalScore === undefined
        ? input.cumMethod
        : (input.cumMethod ??
          ((await client.models({ signal: context.signal })).find((m) => String(m.model_id) === String(input.modelId))?.cum_method as
            | CumMethod
            | undefined) ??
          'sum');
    const files = input.rubricFiles.length > 0 ? input.rubricFiles : [textFile(input.rubricText!)];
    const fields = {
      ...(input.totalScore !== undefined ? { total_score: input.totalScore } : {}),
      ...(method ? { cum_method: method } : {}),
    };
    const preview = await client.ingestPreview('rubrics', { fields, files }, { signal: context.signal });
    const source = input.rubricFiles.length > 0 ? input.rubricFiles.map((file) => file.path).join(', ') : '--rubric-text';
    // the response's shape is not in the spec: only a list of criteria that is there and empty says "none"
    if (Array.isArray(preview.rubrics) && preview.rubrics.length === 0) {
      const said = Array.isArray(preview.warnings) && typeof preview.warnings[0] === 'string' ? ` (it says: ${preview.warnings[0]})` : '';
      const check =
        input.rubricFiles.length > 0 ? `kct ingest rubrics ${shellWord(input.rubricFiles[0].path)}` : 'kct ingest rubrics on a file of it';
      context.notice(
        'warning',
        `the service finds no criteria in ${source}${said}; the answers are marked, and charged, all the same, on what the service makes of it. Check the rubric with ${check} before marking with it.`,
      );
      return;
    }
    if (input.totalScore === undefined || method === undefined) return;
    const maxima = (Array.isArray(preview.rubrics) ? preview.rubrics : [])
      .map((criterion) => (criterion as { max_score?: unknown }).max_score)
      .filter((max): max is number => typeof max === 'number');
    if (maxima.length === 0) return;
    const problem = criteriaTotalProblem(maxima, input.totalScore, method);
    if (problem)
      context.notice('warning', `--total-score ${input.totalScore}: ${problem} (criteria of ${source}, as the service parses them)`);
  } catch (error) {
    if (context.signal.aborted) throw error;
    // a service may preview fewer file types than it marks (spec 4.5 lists PDF and images): said, as the check did not happen
    if (error instanceof ApiError && REFUSED.has(error.status))
      context.notice('note', `the rubric was not checked: the service's preview refused it (${error.message})`);
    else if (context.globals.debug) context.note(`[debug] the rubric was not checked: ${(error as Error).message}`);
  }
}

/** What a service answers a preview it will not read (a file type, a size), as against a key or a server that fails. */
const REFUSED = new Set([400, 413, 415, 422]);

function textFile(text: string): LocalFile {
  const data = Buffer.from(text, 'utf8');
  return { path: '--rubric-text', name: 'rubric.txt', type: 'text/plain', size: data.length, data };
}
