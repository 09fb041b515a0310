// kct one-pass: mark one answer or a whole class. Each answer is its own task; submissions are
// bounded by --jobs, and every task is watched by one shared polling loop. Every submission
// carries an idempotency key derived from what is sent, so running the same command again is
// never charged twice.
import { ApiError, ConnectionError, InterruptedError, KctError, TaskUnsuccessfulError, WatchTimeoutError } from '../api/errors.js';
import type { EvaluationResult, OnePassFields, Task } from '../api/schemas.js';
import { isUnsuccessfulFinal, statusOf } from '../api/status.js';
import { checkFileCount, inspectFile, withContent, type LocalFile } from '../client/files.js';
import { cachedHasher, checkBaseKey, type KeyRule } from '../client/idempotency.js';
import { limiter } from '../client/limit.js';
import { pollSchedule } from '../client/poll.js';
import { collectAnswers, type Answer, type StudentIdSource } from '../cli/answers.js';
import { warnOnRubricTotal } from '../cli/rubric-total.js';
import type { Context } from '../cli/context.js';
import { err, out } from '../cli/io.js';
import { Journal, type ResumePlan } from '../cli/journal.js';
import { parseModelId, parsePositiveInteger, parsePositiveNumber } from '../cli/parse.js';
import { OutcomeWriter, outcomeFromResult, printOneResult, type AnswerOutcome } from '../cli/render/outcomes.js';
import { resolveFormat, type OutputFormat } from '../cli/render/rows.js';
import { plural } from '../cli/render/style.js';
import { openRunReport, reportWritten } from '../cli/report/writer.js';
import { createProgressReporter, startSpinner, type ProgressReporter } from '../cli/watch.js';
import { watchTimings, withResumeHint, type WatchFlags } from '../cli/watch.js';

export interface OnePassOptions extends WatchFlags {
  answers?: string[];
  model?: string;
  text?: string;
  filesFrom?: string;
  studentIdFrom?: StudentIdSource;
  groupBy?: 'folder';
  recursive?: boolean;
  exclude?: string[];
  skipUnsupported?: boolean;
  pages?: boolean;
  jobs?: string;
  resume?: string;
  rubricFile?: string[];
  rubricText?: string;
  questionFile?: string[];
  questionText?: string;
  name?: string;
  desc?: string;
  cumMethod?: 'sum' | 'average';
  totalScore?: string;
  spec?: string;
  style?: 'Bullet' | 'Short' | 'Long';
  studentId?: string;
  idempotencyKey?: string;
  wait?: boolean;
  report?: string;
  output?: string;
  json?: boolean;
}

/** Errors that would hit every remaining answer the same way: stop submitting. */
function stopsTheRun(error: unknown): boolean {
  // unreachable after the retries: sending or watching the other answers would only wait too
  if (error instanceof ConnectionError) return true;
  if (!(error instanceof ApiError)) return false;
  if ([401, 402, 403, 404].includes(error.status)) return true;
  // a server without error codes is read by its message
  return error.status === 409 && (error.errorCode === 'model_not_ready' || /not ready/i.test(error.message));
}

export async function run(options: OnePassOptions, context: Context): Promise<void> {
  // an empty key (an unset variable in a script) would send none: every run charged again
  const keyRule: KeyRule = options.idempotencyKey === undefined ? { kind: 'derived' } : { kind: 'base', base: checkBaseKey(options.idempotencyKey) };
  const settings = await context.settings({ model: options.model });
  const modelId = parseModelId(settings.model.value, settings.model.source);
  const format = resolveFormat(options, settings.output);
  const jobs = parsePositiveInteger(options.jobs ?? '4', '--jobs');
  const timings = watchTimings(options, context.env);
  // Load the client (undici, zod) while the files are being checked; nothing is sent before both are done.
  const clientReady = context.client();
  clientReady.catch(() => {}); // its error, if any, is raised where it is awaited
  const [rubricFiles, questionFiles] = await Promise.all([inspectAll(options.rubricFile), inspectAll(options.questionFile)]);
  const collection = await collectAnswers({
    inputs: options.answers ?? [],
    text: options.text,
    filesFrom: options.filesFrom,
    studentId: options.studentId,
    studentIdFrom: options.studentIdFrom,
    groupBy: options.groupBy,
    recursive: options.recursive,
    exclude: options.exclude,
    skipUnsupported: options.skipUnsupported,
    pages: options.pages,
  }, context.io);
  const { answers, skipped } = collection;
  // rubric and question files travel with every answer: all must fit in one request
  checkFileCount(rubricFiles.length + questionFiles.length + Math.max(...answers.map((answer) => answer.files.length)));
  for (const note of collection.notes) err(context.io, `kct: ${note}`);

  const common: OnePassFields = dropUndefined({
    model_id: modelId,
    rubric_text: options.rubricText,
    question_text: options.questionText,
    assignment_name: options.name,
    assignment_desc: options.desc,
    cum_method: options.cumMethod,
    total_score: options.totalScore === undefined ? undefined : parsePositiveNumber(options.totalScore, '--total-score'),
    specification: options.spec,
    style: options.style,
  });

  const client = await clientReady;
  await warnOnRubricTotal(context, client, { rubricFiles, rubricText: options.rubricText, totalScore: common.total_score, cumMethod: options.cumMethod, modelId });
  const journal = options.resume ? new Journal(options.resume) : undefined;
  // one named answer prints its record; a folder, a glob, a list or several inputs print rows (README "Output shapes")
  const single = collection.shape === 'record' && answers.length === 1 && skipped.length === 0;
  const poller = client.poller({
    timeoutMs: timings.timeoutMs,
    schedule: pollSchedule(timings.startMs),
    signal: context.signal,
    onUpdate: (snapshot, changed) => progress?.update(snapshot, changed),
    onTransientError: (id, error) => progress?.warn(`${id}: ${error.message}; still watching`),
  });
  const firstPollIn = timings.startMs ?? pollSchedule().startMs;
  const submit = limiter(jobs);
  const hasher = cachedHasher();
  let fatal: unknown;
  const accepted: string[] = [];
  let progress: ProgressReporter | undefined;
  const counts = { done: 0, failed: 0, total: answers.length };
  const writer = new OutcomeWriter(context.io, single ? 'table' : format);
  await writer.init();
  for (const skip of skipped) writer.add({ file: skip.label, student_id: skip.studentId, status: 'SKIPPED', message: skip.reason });
  if (options.wait !== false) {
    progress = single ? await createProgressReporter(context.io) : await classProgress(context, counts);
  }
  const report = options.report === undefined ? undefined : openRunReport(options.report, { wait: options.wait, sources: options.answers });

  const processAnswer = async (answer: Answer): Promise<AnswerOutcome> => {
    const base: AnswerOutcome = { file: answer.label, student_id: answer.studentId, status: 'NOT_SENT' };
    const fields: OnePassFields = dropUndefined({ ...common, paper_content: answer.text, student_id: answer.studentId });
    let taskId: string | undefined;
    try {
      // Reading, hashing, planning and sending all happen inside the --jobs limit: a class of
      // thousands of files never holds more than N open, or N reads in memory, at once.
      const { key, plan, task } = await submit(async (): Promise<{ key: string; plan: ResumePlan; task?: Task }> => {
        const answerFiles = answer.files.map(withContent);
        const key = await client.onePassKey({ fields, answerFiles, rubricFiles, questionFiles }, keyRule, answer.identity, hasher);
        const plan = journal?.plan(answer.label, key) ?? { kind: 'submit' as const, changed: false };
        if (plan.kind !== 'submit') return { key, plan };
        if (fatal !== undefined) throw new NotSent();
        if (plan.changed) err(context.io, `kct: ${answer.label} changed since the last run: submitting it as a new answer`);
        try {
          const task = await client.onePass({ fields, answerFiles, rubricFiles, questionFiles }, { idempotencyKey: key, signal: context.signal });
          return { key, plan, task };
        } catch (error) {
          throw keyConflict(error, answer, key, keyRule);
        }
      });
      if (task) {
        taskId = task.task_id;
        accepted.push(taskId);
        journal?.record(answer.label, key, taskId, task.status ?? 'QUEUED');
        if (single && options.wait !== false) {
          context.note(`kct: accepted ${taskId}${typeof task.credit_cost === 'number' ? ` (cost ${plural(task.credit_cost, 'credit')}, charged only on success)` : ''}`);
        }
      } else if (plan.kind === 'attach' || plan.kind === 'done') {
        taskId = plan.taskId;
        if (plan.kind === 'attach') err(context.io, `kct: ${answer.label}: following ${taskId} from the last run`);
      }
      if (taskId === undefined) throw new Error('no task id after submission');
      if (options.wait === false) return { ...base, task_id: taskId, status: task?.status ?? (plan.kind === 'done' ? plan.status : 'QUEUED'), result: task as EvaluationResult | undefined };
      if (plan.kind !== 'done') await poller.watch(taskId, plan.kind === 'submit' ? firstPollIn : 0);
      let result = await client.result(taskId, { signal: context.signal });
      // A failure the server calls retryable (its own fault, not the answer's) would be replayed
      // forever under the same derived key: try again under a derived follow-up key, at most twice.
      for (let attempt = 1; attempt <= 2 && keyRule.kind === 'derived' && isRetryableFailure(result); attempt++) {
        err(context.io, `kct: ${answer.label}: ${taskId} failed on the service's side and may be retried; submitting it again`);
        const again = await submit(() => client.onePass({ fields, answerFiles: answer.files, rubricFiles, questionFiles }, { idempotencyKey: `${key}-retry${attempt}`, signal: context.signal }));
        taskId = again.task_id;
        accepted.push(taskId);
        journal?.record(answer.label, key, taskId, again.status ?? 'QUEUED');
        await poller.watch(taskId, firstPollIn);
        result = await client.result(taskId, { signal: context.signal });
      }
      journal?.record(answer.label, key, taskId, statusOf(result));
      return outcomeFromResult(base, result);
    } catch (error) {
      if (error instanceof InterruptedError || context.signal.aborted) throw error;
      if (!(error instanceof KctError) && !(error instanceof NotSent) && !isLocalFileError(error)) throw error; // a bug: exit 1
      if (error instanceof WatchTimeoutError) return { ...base, task_id: taskId, status: 'TIMEOUT', message: 'still running when --timeout ran out' };
      if (error instanceof NotSent) return { ...base, message: `not sent: the run stopped after ${(fatal as Error).message}` };
      if (stopsTheRun(error) && fatal === undefined) fatal = error;
      if (single) throw error;
      return { ...base, task_id: taskId, status: taskId ? 'ERROR' : 'NOT_SENT', message: (error as Error).message, error };
    }
  };

  let outcomes: AnswerOutcome[];
  try {
    const settled = await Promise.all(answers.map(async (answer) => {
      const outcome = await processAnswer(answer);
      counts.done += 1;
      if (outcome.status !== 'SUCCESS') counts.failed += 1;
      if (!single) writer.add(outcome);
      report?.add(outcome);
      (progress as ClassProgress | undefined)?.finished?.(outcome, counts);
      return outcome;
    }));
    outcomes = settled;
  } catch (error) {
    progress?.stop();
    report?.discard();
    if (error instanceof InterruptedError || context.signal.aborted) {
      if (single && accepted.length === 1) {
        throw new InterruptedError(`stopped watching ${accepted[0]}; the task keeps running`, {
          suggestion: `Resume with: kct status ${accepted[0]} --watch (running the same command again also finds it, with no second charge)`,
        });
      }
      throw new InterruptedError(`interrupted; ${accepted.length} accepted task${accepted.length === 1 ? '' : 's'} keep running`, {
        suggestion: `Run the same command again${options.resume ? '' : ' (add --resume <journal> to skip finished answers)'}: it finds the accepted tasks by their idempotency keys, so nothing is charged twice.`,
      });
    }
    throw accepted.length > 0 ? withResumeHint(error, AGAIN) : error;
  }
  progress?.stop();

  if (single) {
    await printSingle(context, outcomes[0], format, options.wait === false);
  } else {
    // rows in the order the answers were found; skipped ones where they were found
    const order = new Map(collection.order.map((label, index) => [label, index]));
    await writer.finish((outcome) => order.get(outcome.file) ?? 0, { waited: options.wait !== false });
  }
  if (report) context.note(reportWritten(await report.finish()));
  finishWithExitStatus(outcomes, fatal, timings.timeoutMs);
}

type ClassProgress = ProgressReporter & { finished?: (outcome: AnswerOutcome, counts: { done: number; failed: number; total: number }) => void };

async function classProgress(context: Context, counts: { done: number; failed: number; total: number }): Promise<ClassProgress> {
  const line = () => `marking ${counts.total} answers: ${counts.done - counts.failed} marked, ${counts.failed} not marked, ${counts.total - counts.done} queued or running`;
  const spinner = await startSpinner(context.io, line());
  if (!spinner) {
    return {
      update() {},
      warn(text) {
        err(context.io, `kct: ${text}`);
      },
      stop() {},
      finished(outcome, now) {
        const score = typeof outcome.score === 'number' ? ` ${outcome.score}${typeof outcome.max_score === 'number' ? `/${outcome.max_score}` : ''}` : '';
        err(context.io, `kct: [${now.done}/${now.total}] ${outcome.file} ${outcome.status}${score}`);
      },
    };
  }
  return {
    update: () => spinner.text(line()),
    warn: (text) => spinner.warn(text),
    stop: () => spinner.stop(),
    finished: () => spinner.text(line()),
  };
}

async function printSingle(context: Context, outcome: AnswerOutcome, format: OutputFormat, noWait: boolean): Promise<void> {
  const result = outcome.result;
  if (noWait) {
    if (format !== 'table') out(context.io, JSON.stringify(result ?? outcome, null, format === 'json' ? 2 : 0));
    else {
      out(context.io, `Accepted ${outcome.task_id}  ${outcome.status}`);
      const cost = (result as Task | undefined)?.credit_cost;
      if (typeof cost === 'number') out(context.io, `Cost: ${plural(cost, 'credit')}, charged only when the result is complete`);
      out(context.io, `Follow it with: kct status ${outcome.task_id} --watch`);
    }
    return;
  }
  if (result) await printOneResult(context.io, format, result, outcome.file);
}

const AGAIN = 'the same command (it finds the accepted tasks by their idempotency keys: nothing is charged twice)';

function finishWithExitStatus(outcomes: AnswerOutcome[], fatal: unknown, timeoutMs: number): void {
  // The most telling failure decides the exit code: an error that stopped the run, then any
  // answer the server refused, then time-outs, then tasks that ended FAILURE or CANCEL.
  const firstError = outcomes.find((o) => o.error !== undefined)?.error;
  if (fatal !== undefined) throw outcomes.some((o) => o.task_id) ? withResumeHint(fatal, AGAIN) : fatal;
  if (firstError !== undefined) throw firstError;
  const late = outcomes.filter((o) => o.status === 'TIMEOUT');
  if (late.length > 0) throw new WatchTimeoutError(late.map((o) => o.task_id ?? o.file), timeoutMs);
  const unsuccessful = outcomes.filter((o) => isUnsuccessfulFinal(o.status));
  if (unsuccessful.length > 0) {
    const statuses = Object.fromEntries(unsuccessful.map((o) => [o.task_id ?? o.file, o.status]));
    throw new TaskUnsuccessfulError(statuses, outcomes.length > 1 ? `${unsuccessful.length} of ${outcomes.length} answers ended FAILURE or CANCEL` : undefined);
  }
}

function isRetryableFailure(result: EvaluationResult): boolean {
  return statusOf(result) === 'FAILURE' && result.retryable === true;
}

/** A file that vanished or changed permissions after the checks: that answer fails, not the run. */
function isLocalFileError(error: unknown): boolean {
  return typeof (error as { code?: unknown }).code === 'string' && typeof (error as { path?: unknown }).path === 'string';
}

function isKeyReused(error: ApiError): boolean {
  return error.status === 409 && (error.errorCode === 'idempotency_key_reused' || /idempotency/i.test(error.message));
}

/**
 * A 409 for a key reused on a changed answer, told in the user's terms: which file changed, under
 * which key, and the two ways on. With derived keys a changed file gets a new key, so this comes
 * from a base key given with --idempotency-key.
 */
function keyConflict(error: unknown, answer: Answer, key: string, rule: KeyRule): unknown {
  if (!(error instanceof ApiError) || !isKeyReused(error) || rule.kind !== 'base') return error;
  return new ApiError({
    status: error.status,
    message: `${answer.label === '-' ? 'the answer on standard input' : answer.label === '--text' ? 'the --text answer' : answer.label} changed since it was sent with the key ${key}: the service refused the changed answer (${error.message})`,
    method: error.method,
    url: error.url,
    requestId: error.requestId,
    errorCode: error.errorCode,
    body: error.body,
    headers: error.headers,
  }, {
    suggestion: `To mark the new version, run again with a new --idempotency-key (e.g. ${rule.base}-v2), or without one (keys are then derived from each answer's content). To keep the first marks, restore the file.`,
  });
}

/** An answer left unsent because an earlier error stopped the run. */
class NotSent extends Error {}

async function inspectAll(paths: string[] | undefined): Promise<LocalFile[]> {
  return Promise.all((paths ?? []).map((path) => inspectFile(path)));
}

function dropUndefined<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
