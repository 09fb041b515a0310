// What a worker does with one task, stage by stage. Each stage ends in a compare-and-swap, so a
// task cancelled meanwhile is left alone, and a task interrupted by a restart redoes only the
// stage it was in (the grader is deterministic, the charge happens once at SUCCESS).
import { setTimeout as sleep } from 'node:timers/promises';
import { LegacyEvaluationFields, OnePassFields } from '../api/schemas.js';
import { isFinalStatus } from '../api/status.js';
import { ExtractionError, extractText, grade } from './engines.js';
import type { GradeOutput } from './engines.js';
import type { FileArea } from './files.js';
import { GraderFailure, type GradingEngine } from './llm/types.js';
import { forcesFailure, isSlow, MAGIC_FAIL, SLOW_EXTRA_MS } from './magic.js';
import type { PreparedText } from './plan.js';
import { planGrading, rubricsUsed } from './plan.js';
import type { Store, TaskRow } from './store.js';
import { advance, completeAndCharge, completePrepaid, fail } from './transitions.js';

export interface WorkerDeps {
  store: Store;
  files: FileArea;
  latencyMs: number;
  log?: (line: string) => void;
  /** Called whenever the worker finds its task final (e.g. to settle the task's batch). */
  onFinal?: (task: TaskRow) => void;
  /** A language-model engine (kct sandbox --grader openai) marks instead of the deterministic grader. */
  grader?: GradingEngine;
}

export const PROGRESS_STEPS = ['Reading the answer', 'Matching the rubric criteria', 'Scoring each criterion', 'Writing feedback'];
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
        case 'PENDING':
          next = moved(task, advance(deps.store, taskId, task.status, 'UPLOADING'), { status: 'UPLOADING' });
          break;
        case 'UPLOADING':
          next = await uploading(deps, task, parsed, signal);
          break;
        case 'SUBMITTED': {
          await pause(deps.latencyMs + slowExtra(task, parsed), signal);
          const patch = { cur_step: 1, total_step: PROGRESS_STEPS.length, cur_step_name: PROGRESS_STEPS[0], progress: 0 };
          next = moved(task, advance(deps.store, taskId, 'SUBMITTED', 'PROGRESS', patch), { status: 'PROGRESS', ...patch });
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

/** The task's stored JSON, parsed once per run rather than once per stage. */
class ParsedTask {
  private inputText: string | undefined;
  private inputValue: Record<string, unknown> | undefined;
  private preparedText: string | undefined;
  private preparedValue: PreparedText | undefined;

  input(task: TaskRow): Record<string, unknown> {
    if (this.inputValue === undefined || this.inputText !== task.input_json) {
      this.inputValue = JSON.parse(task.input_json) as Record<string, unknown>;
      this.inputText = task.input_json;
    }
    return this.inputValue;
  }

  prepared(task: TaskRow & { prepared_json: string }): PreparedText {
    if (this.preparedValue === undefined || this.preparedText !== task.prepared_json) {
      this.preparedValue = JSON.parse(task.prepared_json) as PreparedText;
      this.preparedText = task.prepared_json;
    }
    return this.preparedValue;
  }

  /** What the UPLOADING stage just wrote, so the next stages need not parse it back. */
  remember(preparedJson: string, prepared: PreparedText): void {
    this.preparedText = preparedJson;
    this.preparedValue = prepared;
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

function answerSoFar(task: TaskRow, parsed: ParsedTask): string {
  if (task.prepared_json) return parsed.prepared(task as TaskRow & { prepared_json: string }).answerText;
  return (parsed.input(task) as { paper_content?: string }).paper_content ?? '';
}

function slowExtra(task: TaskRow, parsed: ParsedTask): number {
  return isSlow(answerSoFar(task, parsed)) ? SLOW_EXTRA_MS : 0;
}

/** UPLOADING: read every file's text (spec 4.8 rule 3: parsing happens in the queue). */
async function uploading(deps: WorkerDeps, task: TaskRow, parsed: ParsedTask, signal: AbortSignal): Promise<TaskRow | undefined> {
  await pause(deps.latencyMs + slowExtra(task, parsed), signal);
  const texts: Record<'answer' | 'rubric' | 'question', string[]> = { answer: [], rubric: [], question: [] };
  const files = deps.store.taskFiles(task.task_id);
  for (const file of files) {
    try {
      const { text, body } = await extractText(deps.files.absolute(file.path), file.mime);
      // An answer is marked on its body (paragraphs, no headings or page furniture).
      texts[file.role].push(file.role === 'answer' ? body : text);
    } catch (err) {
      // Only an ExtractionError is the file's fault (its message is written for the sender);
      // anything else (a stored file gone, a library crash) is the sandbox's: retryable, and
      // reported with a generic comment by runTask.
      if (!(err instanceof ExtractionError)) throw err;
      fail(deps.store, task.task_id, 'UPLOADING', `Could not read ${file.role} file "${file.name}": ${err.message}`, false);
      return undefined;
    }
  }
  const paper = (parsed.input(task) as { paper_content?: string }).paper_content;
  const answerText = [paper, ...texts.answer].filter((t) => t !== undefined && t.trim() !== '').join('\n\n');
  if (answerText.trim() === '') {
    const names = files.filter((f) => f.role === 'answer').map((f) => `"${f.name}"`);
    fail(deps.store, task.task_id, 'UPLOADING', `The answer has no usable text: nothing could be read from ${names.join(', ') || 'the answer'}, even with OCR. Send a clearer scan or the text itself.`, false);
    return undefined;
  }
  const prepared: PreparedText = {
    answerText,
    ...(texts.rubric.length ? { rubricFileText: texts.rubric.join('\n\n') } : {}),
    ...(texts.question.length ? { questionFileText: texts.question.join('\n\n') } : {}),
  };
  const preparedJson = JSON.stringify(prepared);
  parsed.remember(preparedJson, prepared);
  return moved(task, advance(deps.store, task.task_id, 'UPLOADING', 'SUBMITTED', { prepared_json: preparedJson }),
    { status: 'SUBMITTED', prepared_json: preparedJson });
}

/** One PROGRESS step; the last one grades, validates and completes with the charge. */
async function progressStep(deps: WorkerDeps, task: TaskRow, parsed: ParsedTask, signal: AbortSignal): Promise<TaskRow | undefined> {
  const total = task.total_step ?? PROGRESS_STEPS.length;
  const step = task.cur_step ?? 1;
  await pause(deps.latencyMs + Math.round(slowExtra(task, parsed) / total), signal);
  const prepared = task.prepared_json !== null ? parsed.prepared(task as TaskRow & { prepared_json: string }) : { answerText: '' };
  if (step === SCORING_STEP && forcesFailure(prepared.answerText)) {
    fail(deps.store, task.task_id, 'PROGRESS', `Marking failed on purpose: the answer contains the sandbox magic input ${MAGIC_FAIL}.`, false);
    return undefined;
  }
  if (step < total) {
    const patch = { cur_step: step + 1, cur_step_name: PROGRESS_STEPS[step] ?? `Step ${step + 1}`, progress: Math.round((step / total) * 100) };
    return moved(task, advance(deps.store, task.task_id, 'PROGRESS', 'PROGRESS', patch), patch);
  }
  await finish(deps, task, parsed, prepared, signal);
  return undefined;
}

async function finish(deps: WorkerDeps, task: TaskRow, parsed: ParsedTask, prepared: PreparedText, signal: AbortSignal): Promise<void> {
  const model = deps.store.model(task.model_id);
  if (!model) {
    fail(deps.store, task.task_id, 'PROGRESS', `Model ${task.model_id} no longer exists.`, false);
    return;
  }
  const { input } = planGrading(gradingFields(task, parsed.input(task)), model, prepared);
  let output: GradeOutput;
  try {
    output = deps.grader ? await deps.grader.grade(input, signal) : grade(input);
  } catch (err) {
    // The engine's own failures (server down or slow, a reply that stays invalid) end the task
    // with its reason; the compare-and-swap leaves a task cancelled meanwhile alone.
    if (!(err instanceof GraderFailure)) throw err;
    fail(deps.store, task.task_id, 'PROGRESS', `${err.message} No credits were charged.`, err.retryable);
    return;
  }
  const problem = invalidResult(output, input.rubrics.length);
  if (problem) {
    fail(deps.store, task.task_id, 'PROGRESS', `The marking result did not pass validation (${problem}); no credits were charged. Submit again.`, true);
    return;
  }
  const result = {
    score: output.score,
    max_score: input.totalScore,
    evaluation: output.evaluation.map((e) => ({ item: e.item, score: e.score, max_score: e.max_score, feedback: e.feedback })),
    rubrics: rubricsUsed(input.rubrics),
  };
  if (task.kind === 'legacy') {
    completePrepaid(deps.store, task.task_id, result);
    return;
  }
  if (completeAndCharge(deps.store, task.task_id, result) === 'insufficient_credits') {
    fail(deps.store, task.task_id, 'PROGRESS', 'The key owner no longer has enough credits to pay for this result; nothing was charged.', true);
  }
}

/** The one-pass fields a task is marked with; a legacy task uses its assignment's model as saved. */
function gradingFields(task: TaskRow, input: Record<string, unknown>): OnePassFields {
  if (task.kind !== 'legacy') return OnePassFields.parse(input);
  const legacy = LegacyEvaluationFields.parse(input);
  return {
    model_id: task.model_id,
    ...(legacy.paper_content !== undefined ? { paper_content: legacy.paper_content } : {}),
    ...(legacy.style !== undefined ? { style: legacy.style } : {}),
    ...(legacy.current_feedbacks !== undefined ? { current_feedbacks: legacy.current_feedbacks } : {}),
  };
}

/** "Credits are charged only after a complete result is validated" (spec 4.8 rule 7). */
function invalidResult(output: GradeOutput, criteria: number): string | undefined {
  if (!Number.isFinite(output.score)) return 'the total is not a number';
  if (output.evaluation.length !== criteria) return `${output.evaluation.length} criteria marked, ${criteria} expected`;
  for (const e of output.evaluation) {
    if (!Number.isFinite(e.score) || e.score < 0 || e.score > e.max_score) return `criterion "${e.item}" scored ${e.score} of ${e.max_score}`;
    if (typeof e.feedback !== 'string' || e.feedback.trim() === '') return `criterion "${e.item}" has no feedback`;
  }
  return undefined;
}
