// kct batch: send a manifest of answers through POST /evaluations/batch, in requests of at most
// 100 items, each with its own idempotency key, then wait and print one row per item.
import { ApiError, TaskUnsuccessfulError, UsageError, WatchTimeoutError } from '../api/errors.js';
import { MAX_BATCH_ITEMS } from '../api/limits.js';
import { EvaluationResult, type Task } from '../api/schemas.js';
import { isUnsuccessfulFinal } from '../api/status.js';
import type { KctClient } from '../client/client.js';
import { parseLoose } from '../client/client.js';
import { isPlainObject, listFrom } from '../client/envelope.js';
import { deriveIdempotencyKey } from '../client/idempotency.js';
import { limiter } from '../client/limit.js';
import { pollSchedule } from '../client/poll.js';
import type { Context } from '../cli/context.js';
import { err, out } from '../cli/io.js';
import { readManifest, type ManifestItem } from '../cli/manifest.js';
import { parseModelId } from '../cli/parse.js';
import { OutcomeWriter, outcomeFromResult, type AnswerOutcome } from '../cli/render/outcomes.js';
import { resolveFormat } from '../cli/render/rows.js';
import { watchTimings, type WatchFlags } from '../cli/watching.js';

export interface BatchOptions extends WatchFlags {
  manifest: string;
  model?: string;
  callbackUrl?: string;
  idempotencyKey?: string;
  wait?: boolean;
  output?: string;
  json?: boolean;
}

export function checkCallbackUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--callback-url is not a URL: ${value}`);
  }
  if (url.protocol !== 'https:') throw new UsageError('--callback-url must be an https URL (spec 4.9: a public HTTPS URL)');
  return url.href;
}

export function chunk<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

export async function run(options: BatchOptions, context: Context): Promise<void> {
  const settings = await context.settings({ model: options.model });
  const modelId = settings.model.value === undefined ? undefined : parseModelId(settings.model.value, settings.model.source);
  const callbackUrl = options.callbackUrl === undefined ? undefined : checkCallbackUrl(options.callbackUrl);
  const format = resolveFormat(options, settings.output);
  const timings = watchTimings(options, context.env);
  const items = await readManifest(options.manifest, modelId);
  const groups = chunk(items, MAX_BATCH_ITEMS);
  const client = await context.client();

  const accepted: { task: Task; items: ManifestItem[] }[] = [];
  // A refused request (say 402 on the third) must not lose the batches already accepted: they
  // are still followed and printed, and the refusal decides the exit code afterwards.
  let refused: unknown;
  for (const [index, group] of groups.entries()) {
    const body = { evaluations: group.map((item) => item.fields), ...(callbackUrl ? { callback_url: callbackUrl } : {}) };
    const key = options.idempotencyKey !== undefined
      ? (groups.length === 1 ? options.idempotencyKey : `${options.idempotencyKey}-${index + 1}`)
      : await deriveIdempotencyKey('batch', body);
    let task: Task;
    try {
      task = await client.batch(body, { idempotencyKey: key, signal: context.signal });
    } catch (error) {
      if (accepted.length === 0 || !(error instanceof ApiError)) throw error;
      refused = error;
      err(context.io, `kct: batch ${index + 1}/${groups.length} was refused (${(error as Error).message}); ${groups.length - index} request(s) not sent`);
      break;
    }
    accepted.push({ task, items: group });
    err(context.io, `kct: batch ${index + 1}/${groups.length} accepted as ${task.task_id} (${group.length} items${typeof task.credit_cost === 'number' ? `, cost ${task.credit_cost} credits on success` : ''})`);
  }

  if (options.wait === false) {
    const rows = accepted.map(({ task }) => task);
    if (format === 'table') for (const task of rows) out(context.io, `${task.task_id}  ${task.status ?? ''}  ${String(task.count ?? '')} items`);
    else out(context.io, JSON.stringify(rows, null, format === 'json' ? 2 : 0));
    if (refused !== undefined) throw refused;
    return;
  }

  const poller = client.poller({ timeoutMs: timings.timeoutMs, schedule: pollSchedule(timings.startMs), signal: context.signal });
  const writer = new OutcomeWriter(context.io, format);
  await writer.init();
  const late: string[] = [];
  await Promise.all(accepted.map(async ({ task, items: group }) => {
    try {
      await poller.watch(task.task_id, timings.startMs ?? 0);
    } catch (error) {
      if (error instanceof WatchTimeoutError) {
        late.push(task.task_id);
        return;
      }
      throw error;
    }
    const record = await client.result(task.task_id, { signal: context.signal });
    for (const outcome of await itemOutcomes(client, record, group, context.signal)) writer.add(outcome);
  }));
  const order = new Map(items.map((item, index) => [item.label, index]));
  const outcomes = await writer.finish((outcome) => order.get(outcome.file) ?? 0);
  if (refused !== undefined) throw refused;
  if (late.length > 0) throw new WatchTimeoutError(late, timings.timeoutMs);
  const unsuccessful = outcomes.filter((o) => isUnsuccessfulFinal(o.status) || o.status === 'ERROR');
  if (unsuccessful.length > 0) {
    throw new TaskUnsuccessfulError(Object.fromEntries(unsuccessful.map((o) => [o.task_id ?? o.file, o.status])), `${unsuccessful.length} of ${outcomes.length} items did not succeed`);
  }
}

/**
 * The items of a finished batch, matched to the manifest by position. Liberal: items may sit
 * under `items`, `evaluations` or `results`; an item without its evaluation is read alone.
 */
async function itemOutcomes(client: KctClient, record: EvaluationResult, group: ManifestItem[], signal: AbortSignal): Promise<AnswerOutcome[]> {
  const raw = listFrom(record, ['items', 'evaluations', 'results', 'tasks']).filter(isPlainObject);
  const fetchLimit = limiter(8);
  return Promise.all(group.map(async (item, index) => {
    const entry = raw.find((candidate) => candidate.index === index) ?? raw[index];
    const base: AnswerOutcome = { file: item.label, student_id: item.fields.student_id, status: 'ERROR' };
    if (!entry) return { ...base, message: `the batch ${record.task_id} returned no item ${index + 1}` };
    let result = parseLoose(EvaluationResult, { task_id: String(entry.task_id ?? ''), ...entry }, 'item');
    if (result.status === 'SUCCESS' && !Array.isArray(result.evaluation) && result.task_id) {
      result = await fetchLimit(() => client.result(result.task_id, { signal }));
    }
    return outcomeFromResult(base, result);
  }));
}
