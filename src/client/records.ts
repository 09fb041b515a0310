// The API's records both ways: what kct sends is checked strictly against the contract, what it
// is answered is read liberally (an answer that does not match is kept as it came, unknown
// fields and all: the spec leaves many shapes open).

import { KctError, TaskUnsuccessfulError, UnscoredResultError, UsageError } from '../api/errors.js';
import { type Credits, EvaluationResult, Task } from '../api/schemas.js';
import { isFinalStatus, isUnscoredSuccess, isUnsuccessfulFinal, statusOf } from '../api/status.js';
import type * as z from '../api/zod.js';
import { isPlainObject } from './envelope.js';
import type { HttpResponse } from './http.js';

/**
 * An accepted submission as the server answered it. `replayed` is kct's, not the server's field: true
 * when the server marked the answer as the replay of an earlier submission with the same
 * Idempotency-Key (`Idempotent-Replayed: true`, as Stripe does). The rest of the record is then
 * the acceptance stored back then, not the task's state now: read that with `status` or `result`.
 */
export type AcceptedTask = Task & { replayed?: boolean };

/** Strict on the way out: what kct sends must match the contract. */
export function validateRequest<S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`).join('; ');
  throw new UsageError(`invalid ${what}: ${problems}`);
}

/** Liberal on the way in: a response that does not match is kept as it came, unknown fields and all. */
export function parseLoose<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  return (isPlainObject(value) ? value : { value }) as z.infer<S>;
}

/** An acceptance, marked `replayed` when the server says it is an earlier submission's. */
export function accepted(response: HttpResponse): AcceptedTask {
  const task: AcceptedTask = parseLoose(Task, response.data);
  const header = response.headers['idempotent-replayed'];
  if ((Array.isArray(header) ? header[0] : header)?.trim().toLowerCase() === 'true') task.replayed = true;
  return task;
}

/** A result as it may come (from the API, a file, a batch's item), read liberally. */
export function readResult(value: unknown): EvaluationResult {
  return parseLoose(EvaluationResult, value);
}

/**
 * The items of a batch's record, each read as a result, or undefined for a single task. The spec
 * leaves the shape open (4.9): the list may sit under any of these keys, each item with its
 * `index` or in order; `evaluation` (singular) is a task's criteria.
 */
export function batchItemsOf(record: EvaluationResult): EvaluationResult[] | undefined {
  for (const key of ['items', 'results', 'tasks', 'evaluations']) {
    const value = record[key];
    if (Array.isArray(value))
      return value.filter(isPlainObject).map((item) => readResult({ ...item, task_id: String(item.task_id ?? '') }));
  }
  return typeof record.count === 'number' ? [] : undefined;
}

/**
 * Why a result is not a success (exit 3, docs/commands/kct.md#exit-codes), or undefined: its items
 * that did not succeed (a batch ends SUCCESS when one item did; like `kct batch`, any item counts),
 * else its own status. `kct result` and `kct status` decide it here.
 */
export function unsuccessful(result: EvaluationResult): TaskUnsuccessfulError | undefined {
  const items = batchItemsOf(result) ?? [];
  const failed = items.filter((item) => isUnsuccessfulFinal(statusOf(item)));
  if (failed.length > 0)
    return new TaskUnsuccessfulError(
      Object.fromEntries(failed.map((item) => [String(item.task_id ?? ''), statusOf(item)])),
      `${failed.length} of ${items.length} items did not succeed`,
    );
  return isUnsuccessfulFinal(statusOf(result)) ? new TaskUnsuccessfulError({ [result.task_id]: statusOf(result) }) : undefined;
}

/**
 * A result that ended SUCCESS with no score (for a batch: its items that did), or undefined: no
 * mark and no failure, so exit 1 (UnscoredResultError). `kct result`, `kct status` and `kct doctor`
 * decide it here; a marking run's rows, in its exit tally.
 */
export function unscored(result: EvaluationResult): UnscoredResultError | undefined {
  const items = batchItemsOf(result);
  const ids = items
    ? // an item without its evaluation is a summary, read alone for its marks (batch-items.ts): not judged here
      items.flatMap((item, index) =>
        isUnscoredSuccess(item) && Array.isArray(item.evaluation) ? [item.task_id || `${result.task_id} item ${index + 1}`] : [],
      )
    : isUnscoredSuccess(result)
      ? [result.task_id]
      : [];
  return ids.length > 0 ? new UnscoredResultError(ids, { of: items?.length }) : undefined;
}

/**
 * A finished batch whose record lists fewer items than its `count` (an item left out): the service's answer
 * kct does not know (exit 1), as a marking run's row for such an item is. Undefined otherwise.
 */
export function missingItems(result: EvaluationResult): KctError | undefined {
  // a batch still running lists its items as they end
  if (!isFinalStatus(statusOf(result))) return undefined;
  const items = batchItemsOf(result);
  const count = result.count;
  if (items === undefined || typeof count !== 'number' || items.length >= count) return undefined;
  return new KctError(
    'unknown_answer',
    `the batch ${result.task_id} lists ${items.length} of its ${count} items: the service did not say the others' results`,
    {
      suggestion: "Its record lists the items it has; ask the service's support why the others are missing.",
    },
  );
}

const CREDIT_KEYS = ['credits', 'available', 'balance', 'remaining', 'credit', 'remaining_credits'] as const;

function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}

/** The balance at the top level or one object down (`{credits: {available: 5}}`), or undefined. */
export function normalizeCredits(data: unknown): (Credits & { credits: number }) | undefined {
  const bare = asNumber(data);
  if (bare !== undefined) return { credits: bare };
  if (!isPlainObject(data)) return undefined;
  const values = CREDIT_KEYS.map((key) => data[key]);
  const nested = values.filter(isPlainObject).flatMap((inner) => CREDIT_KEYS.map((key) => inner[key]));
  const credits = [...values, ...nested].map(asNumber).find((value) => value !== undefined);
  return credits === undefined ? undefined : { ...data, credits };
}
