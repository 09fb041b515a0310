// kct rewrite: rewrite a finished evaluation's feedback in another style (POST /feedback-rewrite).
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { UsageError } from '../../api/errors.js';
import { plural } from '../../api/numbers.js';
import type { EvaluationResult, RewriteSection } from '../../api/schemas.js';
import type { Context } from '../../cli/core/context.js';
import type { OptionsOf } from '../../cli/core/define-command.js';
import { shellWord } from '../../cli/core/shell-word.js';
import { readStdinText } from '../../cli/core/stdin.js';
import { exporterFor } from '../../cli/render/export.js';
import { unwrapEnvelope } from '../../client/envelope.js';
import { batchItemsOf, readResult } from '../../client/records.js';
import type { command } from './command.js';

type Options = OptionsOf<typeof command>;

export async function run(options: Options, context: Context): Promise<void> {
  if (!options.style) throw new UsageError('--style is required: bullet_points, paragraph or short_sentences');
  // a saved result (any existing file, or - for stdin) is read before the client is made
  const saved = isResultFile(options.source) ? await readResultFile(options.source, context) : undefined;
  const client = await context.client();
  const result = saved ?? (await client.result(options.source, { signal: context.signal }));
  const sections = sectionsFrom(result);
  // matched as the service matches target_item (docs/sandbox.md): ignoring case; sent as the
  // evaluation names it
  const item =
    options.item === undefined ? undefined : sections.find((section) => section.item.toLowerCase() === options.item!.toLowerCase())?.item;
  if (options.item !== undefined && item === undefined) {
    throw new UsageError(`no criterion "${options.item}" in this evaluation`, {
      suggestion: `Criteria: ${sections.map((s) => s.item).join(', ')}.`,
    });
  }
  const rewritten = await client.rewrite(
    {
      style: options.style,
      sections,
      ...(item ? { target_item: item } : {}),
      ...(options.instruction ? { instruction: options.instruction } : {}),
    },
    { signal: context.signal },
  );
  const exporter = await exporterFor(options, context);
  const rows = shownSections(rewritten.sections ?? [], item).map((section) => ({
    item: section.item ?? '',
    comment: section.comment ?? '',
  }));
  // json is the service's answer as it came; ndjson and csv a row per criterion shown
  await exporter.list(
    rows,
    [
      { name: 'item', header: 'Criterion', value: (row) => row.item },
      { name: 'comment', header: 'Feedback', value: (row) => row.comment, wrap: true },
    ],
    { document: () => rewritten },
  );
}

/**
 * The sections to print: with --item, only the one rewritten (by the service's `rewritten` flag,
 * else by name, for a service that does not send it); the others came back unchanged.
 */
export function shownSections<T extends { item?: string; rewritten?: unknown }>(sections: T[], item: string | undefined): T[] {
  if (item === undefined) return sections;
  const flagged = sections.filter((section) => section.rewritten === true);
  if (flagged.length > 0) return flagged;
  return sections.filter((section) => (section.item ?? '').toLowerCase() === item.toLowerCase());
}

/** A saved result: - (stdin), any file that exists, or a name ending in .json (a missing one is reported as a file). */
function isResultFile(source: string): boolean {
  if (source === '-' || source.toLowerCase().endsWith('.json')) return true;
  try {
    return statSync(source).isFile();
  } catch {
    return false; // a task id
  }
}

async function readResultFile(path: string, context: Context): Promise<EvaluationResult> {
  let parsed: unknown;
  const where = path === '-' ? 'standard input' : `the result file ${path}`;
  try {
    const text = path === '-' ? await readStdinText(context.io, 'the result') : await readFile(path, 'utf8');
    parsed = unwrapEnvelope(JSON.parse(text));
  } catch (error) {
    throw new UsageError(`cannot read ${where}: ${(error as Error).message}`, {
      suggestion: SAVE_ONE,
    });
  }
  return readResult(oneResult(parsed, path, where));
}

/** The one result a saved file holds: a class run's list is one result only when it holds one. */
function oneResult(parsed: unknown, path: string, where: string): unknown {
  if (Array.isArray(parsed)) {
    if (parsed.length === 1) return oneResult(parsed[0], path, where);
    if (parsed.length === 0) throw new UsageError(`${where} is an empty list: it holds no result to rewrite`, { suggestion: SAVE_ONE });
    const ids = parsed.flatMap((row) => (typeof row?.task_id === 'string' && row.task_id !== '' ? [row.task_id as string] : []));
    const pick = path === '-' ? "… | jq '.[0]' | kct rewrite - …" : `jq '.[0]' ${shellWord(path)} | kct rewrite - …`;
    throw new UsageError(
      `${where} holds ${plural(parsed.length, 'result')} (a class run's --json?): feedback is rewritten one answer at a time`,
      {
        suggestion:
          ids.length > 0
            ? `Name one answer's task instead, such as kct rewrite ${shellWord(ids[0])}, or pick one: ${pick}`
            : `Pick one: ${pick}`,
      },
    );
  }
  const record = parsed as { task_id?: unknown; evaluation?: unknown } | null;
  if (record === null || typeof record !== 'object' || (record.task_id === undefined && record.evaluation === undefined))
    throw new UsageError(`${where} is not an evaluation result: it has no task_id and no evaluation`, { suggestion: SAVE_ONE });
  return parsed;
}

const SAVE_ONE = 'Save a result with: kct result <task_id> --json > result.json (then pass the file, or - to read it from stdin).';

/** item, comment, score and max_score of each criterion of a finished evaluation. */
export function sectionsFrom(result: EvaluationResult): RewriteSection[] {
  const items = batchItemsOf(result);
  if (items !== undefined) {
    // a batch has no feedback of its own: each answer's is under the answer's own task
    const ids = items.map((item) => item.task_id).filter((id) => id !== '');
    const list = `kct result ${result.task_id} --output ndjson lists every answer's task_id`;
    throw new UsageError(`${result.task_id} is a batch of ${plural(items.length, 'answer')}: feedback is rewritten one answer at a time`, {
      suggestion:
        ids.length > 0 ? `Name one answer's task instead, such as ${ids[0]} (${list}).` : `Name one answer's task instead (${list}).`,
    });
  }
  if (result.status && result.status !== 'SUCCESS') {
    throw new UsageError(`task ${result.task_id} is ${result.status}: only a finished (SUCCESS) evaluation has feedback to rewrite`);
  }
  const maxima = new Map((result.rubrics ?? []).map((rubric) => [rubric.item, (rubric as { max_score?: unknown }).max_score]));
  const sections = (result.evaluation ?? [])
    .filter((entry) => entry.type !== 'error' && entry.item)
    .map((entry) => {
      const max = typeof entry.max_score === 'number' ? entry.max_score : maxima.get(entry.item);
      return {
        item: entry.item as string,
        comment: entry.feedback ?? entry.comment ?? '',
        score: typeof entry.score === 'number' ? entry.score : 0,
        max_score: typeof max === 'number' ? max : typeof entry.score === 'number' ? entry.score : 0,
      };
    });
  if (sections.length === 0) throw new UsageError(`task ${result.task_id} has no criterion feedback to rewrite`);
  return sections;
}
