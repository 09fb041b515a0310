// What a marking run is given, and the small rules its parts share.
import { setMaxListeners } from 'node:events';
import {
  AuthenticationError,
  ConnectionError,
  InsufficientCreditsError,
  NotFoundError,
  PermissionError,
  refusalOf,
} from '../api/errors.js';
import type { OnePassFields, StatusSnapshot, Task } from '../api/schemas.js';
import type { Collection } from '../cli/answers/answers.js';
import type { Context } from '../cli/core/context.js';
import type { AnswerOutcome } from '../cli/render/outcome.js';
import type { KctClient } from '../client/client.js';
import type { LocalFile } from '../client/files.js';
import type { KeyRule } from '../client/idempotency.js';
import type { PollSchedule } from '../client/poll.js';
import type { Journal } from './journal.js';
import type { Ledger } from './ledger.js';
import type { RunPlan } from './plan.js';
import type { RunRecord } from './record.js';

export interface RunSettings {
  context: Context;
  client: KctClient;
  collection: Collection;
  /** The fields every answer shares (model, rubric text, style...). */
  common: OnePassFields;
  rubricFiles: LocalFile[];
  questionFiles: LocalFile[];
  keyRule: KeyRule;
  /** Each answer's identity and what becomes of it (plan.ts). */
  plan: RunPlan;
  /** The run's record: every row goes there, and from there to every view. */
  record: RunRecord;
  journal?: Journal;
  /** This machine's index of identities across runs (ledger.ts). */
  ledger?: Ledger;
  jobs: number;
  wait: boolean;
  timeoutMs: number;
  schedule: PollSchedule;
  /** When a new task is first looked at. */
  firstPollIn: number;
  /** Send plain-text answers in batches of 100. */
  viaBatch: boolean;
  /** --mark-again: answers this machine marked before are sent again, under new keys. */
  markAgain?: boolean;
  /** A waiting run's tasks unfinished at once, at most (default MAX_PENDING; KCT_MAX_PENDING). */
  maxPending?: number;
  /** Resolves when the rows' reader has taken what was printed: no more is sent before (a slow pipe holds the run back, not kct's memory). */
  drained?: () => Promise<void>;
  /** Everything the plan sends has been sent: what else this machine runs may now decide what it sends (ledger-lock.ts). */
  sentAll?: () => void;
  /** Rows are printed by views: a run of one named answer keeps its only row for the caller to print as a record. */
  single: boolean;
  onSnapshot?: (snapshot: StatusSnapshot, changed: boolean) => void;
  onTransientError?: (taskId: string, error: Error) => void;
  /** Told when a task is accepted; `replayed`: it is an earlier submission's; `answers` and `files`: what it holds (a batch: its items, no files). */
  onAccepted?: (task: Task, replayed: boolean, answers: number, files: number) => void;
}

/** Errors that would hit every remaining answer the same way: stop submitting. */
export function stopsTheRun(error: unknown): boolean {
  // unreachable after the retries: sending or watching the other answers would only wait too
  if (error instanceof ConnectionError) return true;
  if (
    error instanceof AuthenticationError ||
    error instanceof InsufficientCreditsError ||
    error instanceof PermissionError ||
    error instanceof NotFoundError
  )
    return true;
  return refusalOf(error) === 'model_not_ready';
}

/** An answer left unsent because an earlier error stopped the run. */
export class NotSent extends Error {}

/** A file that vanished or changed permissions after the checks: that answer fails, not the run. */
export function isLocalFileError(error: unknown): boolean {
  return typeof (error as { code?: unknown }).code === 'string' && typeof (error as { path?: unknown }).path === 'string';
}

export function dropUndefined<T extends Record<string, unknown>>(value: T): T {
  // once an answer: a loop, not arrays of entries to filter
  const kept: Record<string, unknown> = {};
  for (const key in value) if (Object.hasOwn(value, key) && value[key] !== undefined) kept[key] = value[key];
  return kept as T;
}

/** A row read back from the journal, under the answer's labels now. */
export function outcomeFromRow(base: AnswerOutcome, row: Record<string, unknown>): AnswerOutcome {
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const number = (value: unknown) => (typeof value === 'number' ? value : null);
  const sentFor = text(row.earlier_student_id) ?? text(row.student_id);
  return {
    ...base,
    task_id: text(row.task_id),
    status: text(row.status) ?? 'UNKNOWN',
    score: number(row.score),
    max_score: number(row.max_score),
    credits_charged: number(row.credits_charged),
    evaluation: Array.isArray(row.evaluation) ? (row.evaluation as AnswerOutcome['evaluation']) : null,
    // a marked row's message named that answer's own files; a failure's is the reason, whoever sent it
    message: text(row.status) === 'SUCCESS' ? undefined : text(row.message),
    ...(text(row.graded_by) ? { graded_by: text(row.graded_by) } : {}),
    // the student its task was sent under, when not this row's: the saved row's earlier one, else its
    // own (a file renamed since, or given another id); its note (row-names.ts) is said from this
    ...(sentFor !== undefined && sentFor !== base.student_id ? { earlier_student_id: sentFor } : {}),
  };
}

/**
 * A signal aborted `ms` after `signal` is: Ctrl-C lets a submission already under way finish, so a
 * task the service accepted is counted and journaled; a second Ctrl-C exits at once (main.ts).
 */
export function graceAfter(signal: AbortSignal, ms: number): AbortSignal {
  const grace = new AbortController();
  setMaxListeners(0, grace.signal); // one listener per submission in flight: --jobs may be any number
  const later = () => setTimeout(() => grace.abort(signal.reason), ms).unref();
  if (signal.aborted) later();
  else signal.addEventListener('abort', later, { once: true });
  return grace.signal;
}
