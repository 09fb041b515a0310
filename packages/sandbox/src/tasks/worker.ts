// What a worker does with one task, stage by stage. Each stage ends in a compare-and-swap, so a
// task cancelled meanwhile is left alone, and a task interrupted by a restart redoes only the
// stage it was in (the grader is deterministic, the charge happens once at SUCCESS).
import { setTimeout as sleep } from 'node:timers/promises';
import { isFinalStatus } from 'kct/api/status.js';
import type { Engines, TextFlags } from '../engines/jobs.js';
import type { GradingEngine } from '../engines/llm/types.js';
import type { PrepareInput } from '../engines/work/prepare.js';
import { jobFailureReason } from '../engines/work/refusals.js';
import type { FileArea } from '../store/file-area.js';
import { readSpilled } from '../store/spilled.js';
import type { Store, TaskRow } from '../store/store.js';
import { isSlow, MAGIC_FAIL } from './faults.js';
import { advance, completeAndCharge, completePrepaid, fail, type TaskPatch } from './transitions.js';

export interface WorkerDeps {
  store: Store;
  files: FileArea;
  /** Reading files and marking run here, in worker threads when the work is heavy. */
  engines: Engines;
  /** A language-model engine (kct sandbox --grader openai) marks instead of the deterministic grader. */
  grader?: GradingEngine;
  latencyMs: number;
  /** Time each stage of a KCT-SANDBOX-SLOW answer takes in addition (faults.ts SLOW_EXTRA_MS over the time scale). */
  slowMs: number;
  log?: (line: string) => void;
  /** Called whenever the worker finds its task final (e.g. to settle the task's batch). */
  onFinal?: (task: TaskRow) => void;
  /** Commits a state change, with others of the same turn (write-group.ts); default: at once, alone. */
  write?: <T>(change: () => T) => Promise<T>;
}

const alone = <T>(change: () => T): Promise<T> => Promise.resolve(change());
const write = <T>(deps: WorkerDeps, change: () => T): Promise<T> => (deps.write ?? alone)(change);

const PROGRESS_STEPS = ['Reading the answer', 'Matching the rubric criteria', 'Scoring each criterion', 'Writing feedback'];
const SCORING_STEP = 3;

/**
 * Runs a task from the stage it is in to a final status. The row is read once; after each stage
 * whose compare-and-swap succeeded, the worker knows the new row without reading it back (it
 * wrote it). When a swap fails (the task was cancelled meanwhile) or a stage ends the task, the
 * row is read again and decides, as before.
 */
export async function runTask(deps: WorkerDeps, taskId: string, signal: AbortSignal): Promise<void> {
  let task: TaskRow | undefined;
  const parsed = new ParsedTask();
  try {
    task = deps.store.task(taskId);
    while (task !== undefined && !signal.aborted) {
      let next: TaskRow | undefined;
      switch (task.status) {
        case 'QUEUED':
        case 'PENDING': {
          const from = task.status;
          if (deps.latencyMs === 0 && from === 'QUEUED' && task.kind !== 'legacy') {
            next = await atOnce(deps, task, parsed, signal);
            break;
          }
          next = moved(task, await write(deps, () => advance(deps.store, taskId, from, 'UPLOADING')), { status: 'UPLOADING' });
          break;
        }
        case 'UPLOADING':
          next = await uploading(deps, task, parsed, signal);
          break;
        case 'SUBMITTED': {
          const extra = deps.latencyMs + (await slowExtra(deps, task, parsed, signal));
          await pause(extra, signal);
          // With no latency the steps would last microseconds, unseen by any poll: go straight to
          // the last one and spare three writes per task (docs/sandbox.md "Task lifecycle").
          const first = extra === 0 ? PROGRESS_STEPS.length : 1;
          const patch = {
            cur_step: first,
            total_step: PROGRESS_STEPS.length,
            cur_step_name: PROGRESS_STEPS[first - 1],
            progress: Math.round(((first - 1) / PROGRESS_STEPS.length) * 100),
          };
          next = moved(task, await write(deps, () => advance(deps.store, taskId, 'SUBMITTED', 'PROGRESS', patch)), {
            status: 'PROGRESS',
            ...patch,
          });
          break;
        }
        case 'PROGRESS':
          next = await progressStep(deps, task, parsed, signal);
          break;
        default:
          deps.onFinal?.(task);
          return;
      }
      task = next ?? deps.store.task(taskId);
    }
  } catch (err) {
    if (signal.aborted) return;
    // The stack goes to the server's log only: the task's comment is read by the client and must
    // never carry server paths or library internals.
    deps.log?.(`worker: task ${taskId} failed with an internal error: ${(err as Error).stack ?? String(err)}`);
    if (!task) return;
    fail(deps.store, taskId, task.status, INTERNAL_ERROR_COMMENT, true);
    // Final now (failed here, or cancelled meanwhile): the same hook as the normal path, so a
    // batch item settles its batch and the batch's callback is sent.
    const after = deps.store.task(taskId);
    if (after && isFinalStatus(after.status)) deps.onFinal?.(after);
  }
}

/** The row after a stage's compare-and-swap: known when it succeeded, to be read again when not. */
function moved(task: TaskRow, swapped: boolean, changes: Partial<TaskRow>): TaskRow | undefined {
  return swapped ? { ...task, ...changes } : undefined;
}

/**
 * What the worker knows of a task's text during one run, so no stage reads or parses it again:
 * the stored request fields (read once: from the row, or from the file a long one went to),
 * and the answer's magic-input flags, which the UPLOADING stage reports with the text it put
 * together (or, after a restart, are read back from it).
 */
class ParsedTask {
  private inputOf: string | undefined;
  private inputText: string | undefined;
  private inputValue: Record<string, unknown> | undefined;
  private flagsOf: string | undefined;
  private flagsValue: TextFlags | undefined;

  /** The request's fields as JSON text. */
  async inputJson(deps: WorkerDeps, task: TaskRow): Promise<string> {
    if (this.inputText === undefined || this.inputOf !== task.input_json) {
      this.inputText = await readSpilled(task.input_json, deps.files.taskDir(task.task_id));
      this.inputValue = undefined;
      this.inputOf = task.input_json;
    }
    return this.inputText;
  }

  async input(deps: WorkerDeps, task: TaskRow): Promise<Record<string, unknown>> {
    const text = await this.inputJson(deps, task);
    this.inputValue ??= JSON.parse(text) as Record<string, unknown>;
    return this.inputValue;
  }

  /** The flags of the answer: of the prepared text once there is one, else of paper_content. */
  async flags(deps: WorkerDeps, task: TaskRow, signal: AbortSignal): Promise<TextFlags> {
    if (task.prepared_json === null) {
      const paper = ((await this.input(deps, task)) as { paper_content?: string }).paper_content ?? '';
      return { slow: isSlow(paper), fail: false };
    }
    if (this.flagsValue === undefined || this.flagsOf !== task.prepared_json) {
      this.flagsValue = await deps.engines.textFlags(task.prepared_json, deps.files.taskDir(task.task_id), signal);
      this.flagsOf = task.prepared_json;
    }
    return this.flagsValue;
  }

  /** What the UPLOADING stage just wrote. */
  remember(preparedJson: string, flags: TextFlags): void {
    this.flagsOf = preparedJson;
    this.flagsValue = flags;
  }
}

export const INTERNAL_ERROR_COMMENT = 'The sandbox hit an internal error while marking this answer; submit it again.';

/**
 * The pause of a stage. With no latency it only yields to the event loop (requests in flight
 * are answered between stages, as with a real service), through a bare setImmediate: cheaper
 * than timers/promises' abortable one, and an abort is noticed as soon as it resumes.
 */
async function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (ms > 0) {
    await sleep(ms, undefined, { signal });
    return;
  }
  signal.throwIfAborted();
  await new Promise<void>((resume) => setImmediate(resume));
  signal.throwIfAborted();
}

async function slowExtra(deps: WorkerDeps, task: TaskRow, parsed: ParsedTask, signal: AbortSignal): Promise<number> {
  return (await parsed.flags(deps, task, signal)).slow ? deps.slowMs : 0;
}

/** UPLOADING: read every file's text (spec 4.8 rule 3: parsing happens in the queue). */
async function uploading(deps: WorkerDeps, task: TaskRow, parsed: ParsedTask, signal: AbortSignal): Promise<TaskRow | undefined> {
  await pause(deps.latencyMs + (await slowExtra(deps, task, parsed, signal)), signal);
  const preparedJson = await prepare(deps, task, 'UPLOADING', await prepareInput(deps, task, parsed), parsed, signal);
  if (preparedJson === undefined) return undefined;
  return moved(
    task,
    await write(deps, () => advance(deps.store, task.task_id, 'UPLOADING', 'SUBMITTED', { prepared_json: preparedJson })),
    { status: 'SUBMITTED', prepared_json: preparedJson },
  );
}

/** What the UPLOADING stage reads: the task's files and pasted text. */
async function prepareInput(deps: WorkerDeps, task: TaskRow, parsed: ParsedTask): Promise<PrepareInput> {
  const files = deps.store
    .taskFiles(task.task_id)
    .map((f) => ({ role: f.role, name: f.name, mime: f.mime, path: deps.files.absolute(f.path) }));
  const paper = ((await parsed.input(deps, task)) as { paper_content?: string }).paper_content;
  return { files, taskDir: deps.files.taskDir(task.task_id), ...(paper !== undefined ? { paperContent: paper } : {}) };
}

/** The task's text put together; undefined when it cannot be (the task failed, from `from`). */
async function prepare(
  deps: WorkerDeps,
  task: TaskRow,
  from: string,
  input: PrepareInput,
  parsed: ParsedTask,
  signal: AbortSignal,
): Promise<string | undefined> {
  let prepared;
  try {
    prepared = await deps.engines.prepareTask(input, signal);
  } catch (err) {
    const reason = jobFailureReason(err, 'reading the files');
    if (reason === undefined) throw err;
    await write(deps, () => fail(deps.store, task.task_id, from, reason, false));
    return undefined;
  }
  if (!prepared.ok) {
    const comment = prepared.comment;
    await write(deps, () => fail(deps.store, task.task_id, from, comment, false));
    return undefined;
  }
  parsed.remember(prepared.preparedJson, prepared.flags);
  return prepared.preparedJson;
}

/**
 * With no latency, a queued task of pasted text marked by the grader runs its stages in memory
 * and goes QUEUED → SUCCESS (or FAILURE) in one compare-and-swap: the stages would last
 * microseconds, seen by no poll, and each write costs more than its stage (docs/sandbox.md
 * "Task lifecycle"). Work that takes time (files to read, a language model, KCT-SANDBOX-SLOW)
 * goes through the stages, so a poll sees where it is.
 */
async function atOnce(deps: WorkerDeps, task: TaskRow, parsed: ParsedTask, signal: AbortSignal): Promise<TaskRow | undefined> {
  await pause(0, signal);
  const input = await prepareInput(deps, task, parsed);
  if (deps.grader !== undefined || !deps.engines.preparesInline(input)) {
    return moved(task, await write(deps, () => advance(deps.store, task.task_id, 'QUEUED', 'UPLOADING')), { status: 'UPLOADING' });
  }
  const preparedJson = await prepare(deps, task, 'QUEUED', input, parsed, signal);
  if (preparedJson === undefined) return undefined;
  const flags = await parsed.flags(deps, { ...task, prepared_json: preparedJson }, signal);
  if (flags.slow) {
    const taskId = task.task_id;
    const swapped = await write(
      deps,
      () =>
        advance(deps.store, taskId, 'QUEUED', 'UPLOADING') &&
        advance(deps.store, taskId, 'UPLOADING', 'SUBMITTED', { prepared_json: preparedJson }),
    );
    return moved(task, swapped, { status: 'SUBMITTED', prepared_json: preparedJson });
  }
  const last = PROGRESS_STEPS.length;
  const patch = {
    prepared_json: preparedJson,
    cur_step: last,
    total_step: last,
    cur_step_name: PROGRESS_STEPS[last - 1]!,
    progress: Math.round(((last - 1) / last) * 100),
  };
  return finish(deps, { ...task, ...patch }, 'QUEUED', flags.fail, parsed, signal);
}

/** One PROGRESS step; the last one marks, validates and completes with the charge. */
async function progressStep(deps: WorkerDeps, task: TaskRow, parsed: ParsedTask, signal: AbortSignal): Promise<TaskRow | undefined> {
  const total = task.total_step ?? PROGRESS_STEPS.length;
  const step = task.cur_step ?? 1;
  await pause(deps.latencyMs + Math.round((await slowExtra(deps, task, parsed, signal)) / total), signal);
  // >=: a run with no latency starts PROGRESS at the last step (see SUBMITTED above)
  const failing = step >= SCORING_STEP && (await parsed.flags(deps, task, signal)).fail;
  if (step < total && !failing) {
    const patch = {
      cur_step: step + 1,
      cur_step_name: PROGRESS_STEPS[step] ?? `Step ${step + 1}`,
      progress: Math.round((step / total) * 100),
    };
    return moved(task, await write(deps, () => advance(deps.store, task.task_id, 'PROGRESS', 'PROGRESS', patch)), patch);
  }
  return finish(deps, task, 'PROGRESS', failing, parsed, signal);
}

/**
 * Marks the task and completes it from `from` with the charge, or fails it (`failing`: the
 * magic input asked to). Returns the final row when it wrote it, undefined when it is to be read again.
 */
async function finish(
  deps: WorkerDeps,
  task: TaskRow,
  from: string,
  failing: boolean,
  parsed: ParsedTask,
  signal: AbortSignal,
): Promise<TaskRow | undefined> {
  const taskId = task.task_id;
  // the columns a task completed from the queue gets in the same swap (atOnce)
  const patch: TaskPatch =
    from === 'PROGRESS'
      ? {}
      : {
          prepared_json: task.prepared_json,
          cur_step: task.cur_step,
          total_step: task.total_step,
          cur_step_name: task.cur_step_name,
          progress: task.progress,
        };
  const failed = async (reason: string, retryable: boolean) => {
    await write(deps, () => fail(deps.store, taskId, from, reason, retryable, patch));
    return undefined;
  };
  if (failing) return failed(`Marking failed on purpose: the answer contains the sandbox magic input ${MAGIC_FAIL}.`, false);
  const model = deps.store.model(task.model_id);
  if (!model) return failed(`Model ${task.model_id} no longer exists.`, false);
  let marked;
  try {
    const input = {
      kind: task.kind,
      modelId: task.model_id,
      inputJson: await parsed.inputJson(deps, task),
      model,
      preparedJson: task.prepared_json,
      taskDir: deps.files.taskDir(taskId),
    };
    marked = deps.grader ? await deps.engines.markWith(deps.grader, input, signal) : await deps.engines.markTask(input, signal);
  } catch (err) {
    const reason = jobFailureReason(err, 'marking the answer');
    if (reason === undefined) throw err;
    return failed(reason, false);
  }
  if (!marked.ok) return failed(marked.reason, marked.retryable);
  const { result } = marked;
  if (task.kind === 'legacy') {
    return moved(task, await write(deps, () => completePrepaid(deps.store, taskId, result)), { status: 'SUCCESS' });
  }
  // the charge and, if it cannot be paid, the failure: one change, so one group
  const outcome = await write(deps, () => {
    const charged = completeAndCharge(deps.store, taskId, result, from, patch);
    if (charged === 'insufficient_credits') {
      fail(
        deps.store,
        taskId,
        from,
        'The key owner no longer has enough credits to pay for this result; nothing was charged.',
        true,
        patch,
      );
    }
    return charged;
  });
  return moved(task, outcome === 'charged', { status: 'SUCCESS' });
}
