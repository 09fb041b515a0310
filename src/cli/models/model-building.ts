// What `kct ingest`, `kct models create` and the guided `kct models new` share: sending files to a
// preview endpoint and writing the editable file, the summary tables, the confirmation, and the
// progress lines while a new model trains (the waiting itself is client.waitForModel).
import { access } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { UsageError } from '../../api/errors.js';
import { PREVIEW_MIME_TYPES } from '../../api/limits.js';
import { mimeFromName } from '../../api/mime.js';
import type { PreviewKind } from '../../api/preview.js';
import type { Asset, CreateModelRequest, CumMethod, Model } from '../../api/schemas.js';
import type { KctClient } from '../../client/client.js';
import { checkFileCount, inspectFile } from '../../client/files.js';
import { pollSchedule } from '../../client/poll.js';
import type { Context } from '../core/context.js';
import { type IO, out, safeText } from '../core/io.js';
import { cannotAsk, prompts } from '../core/prompt.js';
import { type WatchFlags, watchTimings } from '../core/watch.js';
import { renderTable } from '../render/rows.js';
import { formatNumber, paint } from '../render/style.js';
import { formatOf } from './preview-file.js';
import { previewHeader, questionsFileContent, renderPreviewFile, rubricsFileContent, writeFileAtomic } from './preview-writer.js';

export interface IngestInput {
  kind: PreviewKind;
  files: string[];
  assets: string[];
  output: string;
  force?: boolean;
  specification?: string;
  name?: string;
  desc?: string;
  totalScore?: number;
  cumMethod?: CumMethod;
}

export interface IngestOutcome {
  path: string;
  preview: Record<string, unknown>;
  content: Record<string, unknown>;
  warnings: string[];
}

/** An `--asset` value as an asset object: a http(s) URL, with name and type from its path when known. */
function assetFromUrl(raw: string): Asset {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`--asset ${raw} is not a URL`, { suggestion: 'Give a public https URL, or a URL printed by `kct upload`.' });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`--asset ${raw}: only https URLs (and this service's upload URLs) can be fetched`, {
      suggestion: 'Upload local files with `kct upload`, or pass them as file arguments.',
    });
  }
  let name = '';
  try {
    name = decodeURIComponent(basename(url.pathname));
  } catch {
    name = basename(url.pathname);
  }
  const type = name ? mimeFromName(name) : undefined;
  return { url: url.href, ...(name ? { name } : {}), ...(type && PREVIEW_MIME_TYPES.includes(type) ? { mime_type: type } : {}) };
}

/** Everything that can be checked before a byte is sent: the output file, local files, the count. */
async function checkIngestInput(input: IngestInput): Promise<{ files: Awaited<ReturnType<typeof inspectFile>>[]; assets: Asset[] }> {
  if (input.files.length === 0 && input.assets.length === 0) {
    throw new UsageError(
      `nothing to parse: give the ${input.kind === 'questions' ? 'question paper' : 'rubric'} as files, or --asset URLs`,
      {
        suggestion: `e.g. kct ingest ${input.kind} ${input.kind === 'questions' ? 'paper.pdf' : 'rubric.docx --total-score 30 --cum-method sum'}`,
      },
    );
  }
  formatOf(input.output);
  if (!input.force && (await exists(input.output))) {
    throw new UsageError(`${input.output} already exists; kct does not overwrite a preview you may have edited`, {
      suggestion: 'Choose another file with --out, or pass --force to replace it.',
    });
  }
  if (!(await exists(dirname(input.output)))) throw new UsageError(`the folder of ${input.output} does not exist`);
  const assets = input.assets.map(assetFromUrl);
  const files = await Promise.all(input.files.map((path) => inspectFile(path, PREVIEW_MIME_TYPES)));
  checkFileCount(files.length + assets.length);
  return { files, assets };
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/** Sends the files, writes the editable preview file, and returns what was written. */
export async function ingestToFile(client: KctClient, input: IngestInput, signal: AbortSignal): Promise<IngestOutcome> {
  const { files, assets } = await checkIngestInput(input);
  const fields = {
    ...(assets.length > 0 ? { assets } : {}),
    ...(input.specification ? { specification: input.specification } : {}),
    ...(input.name ? { assignment_name: input.name } : {}),
    ...(input.desc ? { assignment_desc: input.desc } : {}),
    ...(input.totalScore !== undefined ? { total_score: input.totalScore } : {}),
    ...(input.cumMethod ? { cum_method: input.cumMethod } : {}),
  };
  const preview = await client.ingestPreview(input.kind, { fields, files }, { signal });
  const warnings = Array.isArray(preview.warnings) ? preview.warnings.filter((w): w is string => typeof w === 'string') : [];
  const content =
    input.kind === 'questions'
      ? questionsFileContent(preview)
      : rubricsFileContent(preview, { totalScore: input.totalScore, cumMethod: input.cumMethod });
  const found = (content[input.kind] as unknown[]).length;
  if (found === 0) {
    const what = input.kind === 'questions' ? 'questions' : 'rubric criteria with a maximum score';
    throw new UsageError(`no ${what} were found${warnings.length > 0 ? `: ${warnings.join(' ')}` : ''}`, {
      suggestion:
        input.kind === 'questions'
          ? 'Check that the file is the question paper and its text can be read (number the questions "1.", "Q1" or "Question 1"); scans are read by OCR and need a clear image.'
          : 'A rubric needs a maximum for each criterion, e.g. "Evidence (6 marks)", or a table with a Max column.',
    });
  }
  await writeFileAtomic(input.output, renderPreviewFile(input.output, content, previewHeader(input.kind, input.output, preview)));
  return { path: input.output, preview, content, warnings };
}

// ---------- summaries ----------

/** One line of at most `max` characters, cut at a word. */
const clip = (text: string, max = 120) => {
  const one = text.replace(/\s+/g, ' ').trim();
  if (one.length <= max) return one;
  const cut = one.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`;
};

interface QuestionLike {
  number?: unknown;
  text?: unknown;
  marks?: unknown;
  sub_questions?: unknown;
}
interface CriterionLike {
  item?: unknown;
  max_score?: unknown;
  description?: unknown;
  levels?: unknown;
}

async function questionsTable(io: IO, questions: readonly QuestionLike[]): Promise<string> {
  const rows: string[][] = [];
  for (const q of questions) {
    rows.push([safeText(io, String(q.number ?? '')), safeText(io, clip(String(q.text ?? ''))), formatNumber(q.marks)]);
    for (const s of (Array.isArray(q.sub_questions) ? q.sub_questions : []) as QuestionLike[]) {
      rows.push([
        safeText(io, `${String(q.number ?? '')}(${String(s.number ?? '')})`),
        safeText(io, `  ${clip(String(s.text ?? ''), 118)}`),
        formatNumber(s.marks),
      ]);
    }
  }
  return renderTable(io, ['No.', 'Question', 'Marks'], rows, [false, true, false], { compact: true });
}

async function criteriaTable(io: IO, criteria: readonly CriterionLike[]): Promise<string> {
  const rows = criteria.map((r) => [
    safeText(io, String(r.item ?? '')),
    formatNumber(r.max_score),
    String(Array.isArray(r.levels) ? r.levels.length : 0),
    safeText(io, clip(String(r.description ?? ''), 100)),
  ]);
  return renderTable(io, ['Criterion', 'Max', 'Levels', 'Description'], rows, [false, false, false, true], { compact: true });
}

/** The sum of the values when every one is a number (criteria's max_score), else undefined. */
export function sumOf(values: unknown[]): number | undefined {
  if (values.length === 0 || values.some((v) => typeof v !== 'number')) return undefined;
  return Math.round((values as number[]).reduce((a, b) => a + b, 0) * 100) / 100;
}

/** The total a rubric preview says its text states ("Total: 20 marks"): the sandbox's stated_total (the spec leaves the shape open). */
function statedTotalOf(preview: Record<string, unknown>): number | undefined {
  const stated = preview.stated_total;
  return typeof stated === 'number' && Number.isFinite(stated) && stated > 0 ? stated : undefined;
}

/**
 * A rubric whose text states one total while its criteria's maxima add up to another: for a sum,
 * which of the two the teacher meant is theirs to say, so it is refused (exit 2) before anything
 * is created. Nothing to say when the text states no total, or a maximum is not a number.
 */
export function statedTotalError(preview: Record<string, unknown>, maxima: unknown[], source: string): UsageError | undefined {
  const stated = statedTotalOf(preview);
  const sum = sumOf(maxima);
  if (stated === undefined || sum === undefined || sum === stated) return undefined;
  return new UsageError(
    `the rubric (${source}) states a total of ${formatNumber(stated)}, but its criteria's maxima add up to ${formatNumber(sum)}`,
    {
      suggestion: `Fix the rubric (a criterion's maximum, or the total it states) and run again, or pass --total-score ${formatNumber(sum)} to mark out of what its criteria add up to.`,
    },
  );
}

/** The table and total line printed after an ingest. */
export async function printIngestSummary(
  io: IO,
  kind: PreviewKind,
  content: Record<string, unknown>,
  { total: withTotal = true } = {},
): Promise<void> {
  if (kind === 'questions') {
    const questions = content.questions as QuestionLike[];
    out(io, await questionsTable(io, questions));
    const total = sumOf(questions.map((q) => q.marks));
    out(
      io,
      `${questions.length} question${questions.length === 1 ? '' : 's'}${total === undefined ? '' : `, ${formatNumber(total)} marks`}`,
    );
  } else {
    const criteria = content.rubrics as CriterionLike[];
    out(io, await criteriaTable(io, criteria));
    const total = sumOf(criteria.map((r) => r.max_score));
    out(
      io,
      `${criteria.length} criteri${criteria.length === 1 ? 'on' : 'a'}${total === undefined ? '' : ` worth ${formatNumber(total)}`}${withTotal ? `; total_score ${formatNumber(content.total_score)} (${String(content.cum_method)})` : ''}`,
    );
  }
}

/** What `kct models create` is about to send, for a person to check (on stderr). */
export async function describeModel(io: IO, request: CreateModelRequest): Promise<string> {
  const c = paint(io);
  const lines = [
    c.bold(`Model to create: ${safeText(io, request.assignment_name, 'stderr')}`),
    `  Description: ${safeText(io, clip(request.assignment_desc, 200), 'stderr')}`,
    ...(request.project_subject ? [`  Subject: ${safeText(io, request.project_subject, 'stderr')}`] : []),
    `  Total score: ${formatNumber(request.total_score)} (${request.cum_method === 'sum' ? 'criterion scores are added' : 'average of the criteria, scaled to the total'})`,
    '',
    await questionsTable(io, request.questions),
    await criteriaTable(io, request.rubrics),
  ];
  return lines.join('\n');
}

/**
 * Asks "Create this model?" on a terminal. Off a terminal it never asks: it proceeds only with
 * --yes, else throws a UsageError (exit 2) with the hint.
 */
export async function confirmCreate(context: Context, yes: boolean | undefined, question = 'Create this model?'): Promise<boolean> {
  if (yes) return true;
  if (context.io.noPrompt) {
    throw cannotAsk(
      context.io,
      'not confirmed: kct asks before creating a model, and cannot ask here',
      'Check the summary above and run the same command with --yes.',
    );
  }
  return (await prompts(context, 'cancelled; nothing was created')).confirm(question, true);
}

// ---------- waiting for training ----------

/**
 * Waits for a new model to be ready (client.waitForModel: spec 4.10's schedule, or --poll-interval
 * to start; overall --timeout), telling each change of its status on stderr.
 */
export async function waitForModel(context: Context, client: KctClient, modelId: string, flags: WatchFlags): Promise<Model> {
  const { timeoutMs, startMs } = watchTimings(flags, context.env);
  return client.waitForModel(modelId, {
    timeoutMs,
    schedule: pollSchedule(startMs),
    signal: context.signal,
    onProgress: (status) => context.notice('progress', `model ${modelId} ${status}`),
    onTransientError: (error) => context.notice('progress', `model ${modelId}: ${error.message}; still waiting`),
  });
}

// ---------- one model ----------

const MODEL_FIELDS: [string, string][] = [
  ['model_id', 'ID'],
  ['assignment_name', 'Name'],
  ['assignment_desc', 'Description'],
  ['post_status', 'Status'],
  ['creation_method', 'Creation method'],
  ['total_score', 'Total score'],
  ['cum_method', 'Method'],
  ['criteria_count', 'Criteria'],
  ['project_subject', 'Subject'],
];

/** A model's criteria with their maxima, from whichever field the server used; undefined when it sent none. */
function modelCriteria(model: Record<string, unknown>): { item: string; max_score?: number }[] | undefined {
  for (const key of ['criteria', 'rubrics']) {
    const list = model[key];
    if (!Array.isArray(list)) continue;
    return list
      .filter(
        (entry): entry is Record<string, unknown> =>
          typeof entry === 'object' && entry !== null && typeof (entry as { item?: unknown }).item === 'string',
      )
      .map((entry) => ({ item: entry.item as string, ...(typeof entry.max_score === 'number' ? { max_score: entry.max_score } : {}) }));
  }
  return undefined;
}

/** A model as a two-column table (known fields first, then whatever else the server sent), then its criteria and maxima. */
export async function printModel(io: IO, model: Record<string, unknown>): Promise<void> {
  const criteria = modelCriteria(model);
  const known = new Set([...MODEL_FIELDS.map(([key]) => key), ...(criteria ? ['criteria', 'rubrics'] : [])]);
  const rows: string[][] = [];
  for (const [key, label] of MODEL_FIELDS)
    if (model[key] !== undefined && model[key] !== null)
      rows.push([label, safeText(io, typeof model[key] === 'number' ? formatNumber(model[key]) : String(model[key]))]);
  for (const [key, value] of Object.entries(model)) {
    if (known.has(key) || value === undefined || value === null) continue;
    rows.push([key, safeText(io, typeof value === 'object' ? JSON.stringify(value) : String(value))]);
  }
  out(io, await renderTable(io, ['Field', 'Value'], rows, [false, true], { compact: true }));
  if (criteria === undefined) return;
  const body = criteria.map((c) => [safeText(io, c.item), c.max_score === undefined ? '' : formatNumber(c.max_score)]);
  const sum = criteria.every((c) => c.max_score !== undefined) ? criteria.reduce((n, c) => n + (c.max_score as number), 0) : undefined;
  if (sum !== undefined && criteria.length > 0)
    body.push([model.cum_method === 'average' ? 'Sum of maxima (averaged)' : 'Sum of maxima', formatNumber(sum)]);
  out(io, await renderTable(io, ['Criterion', 'Max'], body, [true, false], { compact: true }));
}
