// What a worker does with one task, stage by stage. Each stage ends in a compare-and-swap, so a
// task cancelled meanwhile is left alone, and a task interrupted by a restart redoes only the
// stage it was in (the grader is deterministic, the charge happens once at SUCCESS).
import { setTimeout as sleep } from 'node:timers/promises';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { LegacyEvaluationFields, OnePassFields } from '../api/schemas.js';
import { isFinalStatus } from '../api/status.js';
import { ExtractionError, extractText, grade } from './engines.js';
import type { GradeOutput } from './engines.js';
import type { FileArea } from './files.js';
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
}

export const PROGRESS_STEPS = ['Reading the answer', 'Matching the rubric criteria', 'Scoring each criterion', 'Writing feedback'];
const SCORING_STEP = 3;

export async function runTask(deps: WorkerDeps, taskId: string, signal: AbortSignal): Promise<void> {
  let task: TaskRow | undefined;
  try {
    while ((task = deps.store.task(taskId)) !== undefined && !signal.aborted) {
      switch (task.status) {
        case 'QUEUED':
        case 'PENDING':
          advance(deps.store, taskId, task.status, 'UPLOADING');
          break;
        case 'UPLOADING':
          await uploading(deps, task, signal);
          break;
        case 'SUBMITTED':
          await pause(deps.latencyMs + slowExtra(task), signal);
          advance(deps.store, taskId, 'SUBMITTED', 'PROGRESS', {
            cur_step: 1, total_step: PROGRESS_STEPS.length, cur_step_name: PROGRESS_STEPS[0], progress: 0,
          });
          break;
        case 'PROGRESS':
          await progressStep(deps, task, signal);
          break;
        default:
          deps.onFinal?.(task);
          return;
      }
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

export const INTERNAL_ERROR_COMMENT = 'The sandbox hit an internal error while marking this answer; submit it again.';

async function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (ms > 0) await sleep(ms, undefined, { signal });
  else await yieldToLoop(undefined, { signal });
}

function answerSoFar(task: TaskRow): string {
  if (task.prepared_json) return (JSON.parse(task.prepared_json) as PreparedText).answerText;
  return (JSON.parse(task.input_json) as { paper_content?: string }).paper_content ?? '';
}

function slowExtra(task: TaskRow): number {
  return isSlow(answerSoFar(task)) ? SLOW_EXTRA_MS : 0;
}

/** UPLOADING: read every file's text (spec 4.8 rule 3: parsing happens in the queue). */
async function uploading(deps: WorkerDeps, task: TaskRow, signal: AbortSignal): Promise<void> {
  await pause(deps.latencyMs + slowExtra(task), signal);
  const texts: Record<'answer' | 'rubric' | 'question', string[]> = { answer: [], rubric: [], question: [] };
  for (const file of deps.store.taskFiles(task.task_id)) {
    try {
      const { text } = await extractText(deps.files.absolute(file.path), file.mime);
      texts[file.role].push(text);
    } catch (err) {
      // Only an ExtractionError is the file's fault (its message is written for the sender);
      // anything else (a stored file gone, a library crash) is the sandbox's: retryable, and
      // reported with a generic comment by runTask.
      if (!(err instanceof ExtractionError)) throw err;
      fail(deps.store, task.task_id, 'UPLOADING', `Could not read ${file.role} file "${file.name}": ${err.message}`, false);
      return;
    }
  }
  const paper = (JSON.parse(task.input_json) as { paper_content?: string }).paper_content;
  const answerText = [paper, ...texts.answer].filter((t) => t !== undefined && t.trim() !== '').join('\n\n');
  if (answerText.trim() === '') {
    const names = deps.store.taskFiles(task.task_id).filter((f) => f.role === 'answer').map((f) => `"${f.name}"`);
    fail(deps.store, task.task_id, 'UPLOADING', `The answer has no usable text: nothing could be read from ${names.join(', ') || 'the answer'}, even with OCR. Send a clearer scan or the text itself.`, false);
    return;
  }
  const prepared: PreparedText = {
    answerText,
    ...(texts.rubric.length ? { rubricFileText: texts.rubric.join('\n\n') } : {}),
    ...(texts.question.length ? { questionFileText: texts.question.join('\n\n') } : {}),
  };
  advance(deps.store, task.task_id, 'UPLOADING', 'SUBMITTED', { prepared_json: JSON.stringify(prepared) });
}

/** One PROGRESS step; the last one grades, validates and completes with the charge. */
async function progressStep(deps: WorkerDeps, task: TaskRow, signal: AbortSignal): Promise<void> {
  const total = task.total_step ?? PROGRESS_STEPS.length;
  const step = task.cur_step ?? 1;
  await pause(deps.latencyMs + Math.round(slowExtra(task) / total), signal);
  const prepared = JSON.parse(task.prepared_json ?? '{"answerText": ""}') as PreparedText;
  if (step === SCORING_STEP && forcesFailure(prepared.answerText)) {
    fail(deps.store, task.task_id, 'PROGRESS', `Marking failed on purpose: the answer contains the sandbox magic input ${MAGIC_FAIL}.`, false);
    return;
  }
  if (step < total) {
    advance(deps.store, task.task_id, 'PROGRESS', 'PROGRESS', {
      cur_step: step + 1, cur_step_name: PROGRESS_STEPS[step] ?? `Step ${step + 1}`, progress: Math.round((step / total) * 100),
    });
    return;
  }
  finish(deps, task, prepared);
}

function finish(deps: WorkerDeps, task: TaskRow, prepared: PreparedText): void {
  const model = deps.store.model(task.model_id);
  if (!model) {
    fail(deps.store, task.task_id, 'PROGRESS', `Model ${task.model_id} no longer exists.`, false);
    return;
  }
  const { input } = planGrading(gradingFields(task), model, prepared);
  const output = grade(input);
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
function gradingFields(task: TaskRow): OnePassFields {
  const input = JSON.parse(task.input_json) as Record<string, unknown>;
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
