// kct one-pass: mark one answer or a whole class. Each answer is its own task (or, with
// --via batch, plain-text answers go 100 to a request); the run itself is marking-run.ts, next to it:
// bounded memory, one polling loop, one request budget. Every submission carries an idempotency
// key derived from what is sent, so running the same command again is never charged twice.
import { InterruptedError, UsageError } from '../../api/errors.js';
import type { OnePassFields, Task } from '../../api/schemas.js';
import { isFinalStatus } from '../../api/status.js';
import { collectAnswers } from '../../cli/answers/answers.js';
import { type Download, downloadHint, downloadInput, openDownload } from '../../cli/answers/download.js';
import { stateDir } from '../../cli/core/config-store.js';
import type { Context } from '../../cli/core/context.js';
import type { OptionsOf } from '../../cli/core/define-command.js';
import { fromEnv } from '../../cli/core/environment.js';
import { err, out, safeText } from '../../cli/core/io.js';
import { parseModelId } from '../../cli/core/parse.js';
import { createProgressReporter, type ProgressReporter, startSpinner, watchTimings, withResumeHint } from '../../cli/core/watch.js';
import { type AnswerOutcome, OutcomeWriter, printOneResult } from '../../cli/render/outcomes.js';
import { type OutputFormat, resolveFormat } from '../../cli/render/rows.js';
import { plural } from '../../cli/render/style.js';
import { openRunReport, reportWritten } from '../../cli/report/writer.js';
import { checkFileCount, inspectFile, type LocalFile } from '../../client/files.js';
import { cachedHasher, checkBaseKey, type KeyRule } from '../../client/idempotency.js';
import { pollSchedule } from '../../client/poll.js';
import { type FillReport, StudentsMismatchError } from '../../platforms/fill-report.js';
import type { command } from './command.js';
import { GradeFile, importHint, MarkBook, reportLines } from './grade-file.js';
import { Journal } from './journal.js';
import { Ledger } from './ledger.js';
import { AGAIN, dropUndefined, MarkingRun } from './marking-run.js';
import { warnOnRubricTotal } from './rubric-total.js';

type Options = OptionsOf<typeof command>;

/** From this many plain-text answers, `--via auto` sends them in batches of 100 when the run has --resume (KCT_BATCH_FROM). */
export const BATCH_FROM = 500;
/** From this many answers, a run without --resume is told what a journal would save. */
export const SUGGEST_RESUME_FROM = 300;

export async function run(options: Options, context: Context): Promise<void> {
  // an empty key (an unset variable in a script) would send none: every run charged again
  const keyRule: KeyRule =
    options.idempotencyKey === undefined
      ? { kind: 'derived' }
      : { kind: 'base', base: checkBaseKey(options.idempotencyKey, '--idempotency-key') };
  const settings = await context.settings({ model: options.model });
  const modelId = parseModelId(settings.model.value, settings.model.source);
  const format = resolveFormat(options, settings.output);
  const { jobs } = options;
  const timings = watchTimings(options, context.env);
  // the grade file is read and checked, and the file kct will write chosen, before anything is sent
  const gradeFile = GradeFile.open(options, { wait: options.wait !== false });
  const inputs = options.answers ?? [];
  const found = downloadInput(inputs, {
    groupBy: options.groupBy,
    gradeFileFlag:
      options.moodleWorksheet !== undefined
        ? '--moodle-worksheet'
        : options.canvasGradebook !== undefined
          ? '--canvas-gradebook'
          : undefined,
  });
  if (!found && !options.recursive && options.groupBy === undefined) {
    const hint = downloadHint(inputs);
    if (hint) err(context.io, `kct: ${hint}`);
  }
  // a zip is checked entry by entry and extracted to a private folder, removed whatever happens
  const download = found ? await openDownload(found) : undefined;
  try {
    if (gradeFile && download)
      gradeFile.checkAgainst({ input: download.input, platform: download.platform, students: download.recognised.students });
    await markAnswers(options, context, { keyRule, modelId, format, jobs, timings, gradeFile, download });
  } finally {
    await download?.cleanup();
  }
}

interface Prepared {
  keyRule: KeyRule;
  modelId: number;
  format: OutputFormat;
  jobs: number;
  timings: ReturnType<typeof watchTimings>;
  gradeFile?: GradeFile;
  download?: Download;
}

async function markAnswers(
  options: Options,
  context: Context,
  { keyRule, modelId, format, jobs, timings, gradeFile, download }: Prepared,
): Promise<void> {
  const maxRps = options.maxRps;
  // Load the client (undici, zod) while the files are being checked; nothing is sent before both are done.
  const clientReady = context.client({}, { maxRps });
  clientReady.catch(() => {}); // its error, if any, is raised where it is awaited
  const [rubricFiles, questionFiles] = await Promise.all([inspectAll(options.rubricFile), inspectAll(options.questionFile)]);
  const collection = await collectAnswers(
    {
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
      download,
    },
    context.io,
  );
  // rubric and question files travel with every answer: all must fit in one request
  checkFileCount(rubricFiles.length + questionFiles.length + (options.pages || options.groupBy === 'folder' ? maxPages(collection) : 1));
  for (const note of collection.notes) err(context.io, `kct: ${note}`);

  const common: OnePassFields = dropUndefined({
    model_id: modelId,
    rubric_text: options.rubricText,
    question_text: options.questionText,
    assignment_name: options.name,
    assignment_desc: options.desc,
    cum_method: options.cumMethod,
    total_score: options.totalScore,
    specification: options.spec,
    style: options.style,
  });

  const client = await clientReady;
  // what this machine sent to this server before, by route: no answer charged twice whatever route a run takes
  const { ledger, problem: ledgerProblem } = Ledger.open(stateDir(context.env), client.baseUrl);
  if (ledgerProblem)
    err(context.io, `kct: ${ledgerProblem}: answers sent in batches before cannot be recognised, so nothing is batched (--via one-pass)`);
  const viaBatch = chooseBatch(
    options.via,
    {
      textAnswers: collection.textCount,
      answers: collection.count,
      files: rubricFiles.length + questionFiles.length,
      journal: options.resume !== undefined,
      ledger: ledger !== undefined,
      batchFrom: fromEnv(context.env, 'KCT_BATCH_FROM') ?? BATCH_FROM,
    },
    context,
  );
  await warnOnRubricTotal(context, client, {
    rubricFiles,
    rubricText: options.rubricText,
    totalScore: common.total_score,
    cumMethod: options.cumMethod,
    modelId,
  });
  const report =
    options.report === undefined
      ? undefined
      : openRunReport(options.report, { wait: options.wait, sources: options.answers, leftOut: collection.leftOut });
  const journal = options.resume ? new Journal(options.resume) : undefined;
  if (!journal && collection.count >= SUGGEST_RESUME_FROM) {
    err(
      context.io,
      `kct: ${collection.count.toLocaleString('en')} answers and no --resume: if this run stops, running it again replays every submission (free, thanks to the idempotency keys, but not fast); add --resume marks.journal to skip what is finished`,
    );
  }
  // one named answer prints its record; a folder, a glob, a list or several inputs print rows (docs/guides/marking-a-class.md, "Output shapes")
  const single = collection.shape === 'record' && collection.count === 1 && collection.skipped.length === 0;
  const writer = single
    ? undefined
    : new OutcomeWriter(context.io, format, {
        rows: collection.rows,
        waited: options.wait !== false,
        leftOut: collection.leftOut,
        studentNames: collection.download !== undefined,
        // with a grade file, --json is one object: the rows, and the import report
        envelope: gradeFile !== undefined,
      });
  await writer?.init();
  const markBook = gradeFile ? new MarkBook() : undefined;
  for (const skip of collection.skipped) {
    const outcome: AnswerOutcome = {
      file: skip.label,
      student_id: skip.studentId,
      ...(skip.studentName !== undefined ? { student_name: skip.studentName } : {}),
      status: skip.status,
      message: skip.reason,
    };
    writer?.add(outcome, skip.index);
    report?.add(outcome);
    markBook?.add(outcome);
  }
  const counts = { done: 0, failed: 0, total: collection.count };
  let progress: ProgressReporter | undefined;
  if (options.wait !== false) progress = single ? await createProgressReporter(context.io) : await classProgress(context, counts);

  let quoted = false;
  const marking = new MarkingRun({
    context,
    client,
    collection,
    common,
    rubricFiles,
    questionFiles,
    keyRule,
    hasher: cachedHasher(),
    journal,
    ledger,
    jobs,
    wait: options.wait !== false,
    timeoutMs: timings.timeoutMs,
    schedule: pollSchedule(timings.startMs),
    firstPollIn: timings.startMs ?? pollSchedule().startMs,
    viaBatch,
    maxPending: fromEnv(context.env, 'KCT_MAX_PENDING'),
    writer,
    onRow: (outcome) => {
      report?.add(outcome);
      markBook?.add(outcome);
      counts.done += 1;
      if (outcome.status !== 'SUCCESS') counts.failed += 1;
      (progress as ClassProgress | undefined)?.finished?.(outcome, counts);
    },
    onSnapshot: (snapshot, changed) => progress?.update(snapshot, changed),
    onTransientError: (id, error) => progress?.warn(`${id}: ${error.message}; still watching`),
    onAccepted: (task, replayed, answers) => {
      if (!single) {
        // the service quotes a price with the first task it accepts: said once, for the whole run
        if (!quoted && !replayed && typeof task.credit_cost === 'number') {
          quoted = true;
          context.note(costQuote(task.credit_cost / answers, collection.count));
        }
        return;
      }
      if (options.wait === false) return;
      if (replayed) context.note(`kct: already submitted: following ${task.task_id} (the same answer sent before; no new charge)`);
      else
        context.note(
          `kct: accepted ${task.task_id}${typeof task.credit_cost === 'number' ? ` (cost ${plural(task.credit_cost, 'credit')}, charged only on success)` : ''}`,
        );
    },
  });
  let outcome;
  try {
    outcome = await marking.run();
  } catch (error) {
    progress?.stop();
    report?.discard();
    writer?.discard();
    journal?.close();
    ledger?.close();
    if (error instanceof InterruptedError || context.signal.aborted) throw interrupted(marking, single, options.resume !== undefined);
    throw marking.anySent() ? withResumeHint(error, AGAIN) : error;
  }
  progress?.stop();
  journal?.close();
  ledger?.close();
  // the grade file filled from the marks, and set against every student of the download
  const filled = gradeFile && markBook ? gradeFile.fill(markBook.marks, markBook.students(collection.download?.students ?? [])) : undefined;
  const output = filled && filled.report.counts.filled > 0 ? gradeFile!.target : null;
  if (single) await printSingle(context, outcome.last!, format, options.wait === false);
  else await writer!.finish(filled ? { import: { file: gradeFile!.path, output, ...filled.report } } : undefined);
  if (outcome.sentInBatches > 0 && !single)
    err(context.io, `kct: ${plural(outcome.sentInBatches, 'answer')} went in batches of up to 100 (--via batch)`);
  if (report) context.note(reportWritten(await report.finish()));
  if (gradeFile && filled) {
    // what the platform would import and skip, said before the file is written
    for (const line of reportLines(gradeFile, filled.report, output))
      (format === 'table' ? out : err)(context.io, safeText(context.io, line, format === 'table' ? 'stdout' : 'stderr'));
    if (output !== null) {
      gradeFile.write(filled.bytes);
      context.note(`kct: wrote ${output}: ${plural(filled.report.counts.filled, 'grade')} filled; ${importHint(gradeFile.platform)}`);
    }
  }
  marking.throwExitStatus();
  if (filled && !filled.report.studentsMatch) throw mismatch(gradeFile!, filled.report, collection.download?.input);
}

/** The cost of a class run, from the price quoted for its first answer. */
export function costQuote(perAnswer: number, answers: number): string {
  const each = Number.isInteger(perAnswer) ? perAnswer : Math.round(perAnswer * 100) / 100;
  const about = Math.ceil(perAnswer * answers);
  return `kct: cost: ${plural(each, 'credit')} an answer as quoted by the service, about ${plural(about, 'credit')} for the ${plural(answers, 'answer')} of this run (charged only for answers marked; answers sent before are not charged again)`;
}

/** Exit 10: the file is written, but students are on one side only; the report above names them. */
function mismatch(gradeFile: GradeFile, report: FillReport, input: string | undefined): StudentsMismatchError {
  const noRow = report.entries.filter((entry) => entry.status === 'not-in-file').length;
  const noSubmission = report.entries.filter((entry) => entry.status === 'not-marked' && entry.download === undefined).length;
  const parts = [
    ...(noRow > 0
      ? [`${plural(noRow, 'student')} of ${input ?? 'the download'} ${noRow === 1 ? 'has' : 'have'} no row in ${gradeFile.path}`]
      : []),
    ...(noSubmission > 0
      ? [
          `${plural(noSubmission, 'row')} of ${gradeFile.path} ${noSubmission === 1 ? 'is a student' : 'are students'} with no submission in the download`,
        ]
      : []),
  ];
  return new StudentsMismatchError(`students do not match: ${parts.join('; ')}`, {
    suggestion: `${report.counts.filled > 0 ? 'The grades filled can be imported as they are; the' : 'No grade was filled, so no file was written; the'} report above names each student on one side only (a new student needs a fresh download of the file; one who handed nothing in needs no grade, or one by hand).`,
  });
}

/** The Ctrl-C message: only what kct saw (tasks not yet seen finished), and how to collect them. */
function interrupted(marking: MarkingRun, single: boolean, resumed: boolean): InterruptedError {
  const { unfinished, finished, firstTaskId } = marking.progress();
  if (single && unfinished === 1 && firstTaskId) {
    return new InterruptedError(`stopped watching ${firstTaskId}; the task keeps running`, {
      suggestion: `Resume with: kct status ${firstTaskId} --watch (running the same command again also finds it, with no second charge)`,
    });
  }
  const done = finished > 0 ? ` (${plural(finished, 'task')} seen finished, ${finished === 1 ? 'its row' : 'their rows'} printed)` : '';
  const head =
    unfinished === 0
      ? `interrupted; no task kct knows of is left unfinished${done}`
      : `interrupted; ${plural(unfinished, 'task')} not yet seen finished may still be running on the service${done}`;
  return new InterruptedError(head, {
    suggestion: `Run the same command again to collect ${unfinished === 0 ? 'the answers not sent yet' : 'them'}${resumed ? '' : ' (add --resume <journal> to skip finished answers)'}: it finds the accepted tasks by their idempotency keys, so nothing is charged twice.`,
  });
}

/**
 * Whether plain-text answers go in batches: --via batch, or --via auto from `batchFrom` of them
 * when the run has a --resume journal. A batch's key covers the whole request, so only a record
 * of what each batch held (the journal, this machine's ledger) keeps a re-run from charging its
 * answers again: auto never batches without the journal a user carries. A batch is JSON: rubric
 * and question files cannot go with it.
 */
function chooseBatch(
  via: 'auto' | 'one-pass' | 'batch',
  run: { textAnswers: number; answers: number; files: number; journal: boolean; ledger: boolean; batchFrom: number },
  context: Context,
): boolean {
  if (via === 'one-pass') return false;
  if (via === 'batch') {
    if (run.files > 0) {
      throw new UsageError('--via batch sends answers as JSON, which cannot carry --rubric-file or --question-file', {
        suggestion:
          'Give the rubric and question as text (--rubric-text, --question-text), or send one answer per request with --via one-pass.',
      });
    }
    if (!run.ledger && !run.journal) {
      throw new UsageError("--via batch needs a record of what each batch held, and this machine's ledger cannot be used", {
        suggestion:
          'Add --resume <journal> (keep the file for later runs), set KCT_STATE_DIR to a folder kct can write to, or use --via one-pass.',
      });
    }
    if (run.textAnswers < run.answers)
      err(
        context.io,
        `kct: --via batch: ${run.answers - run.textAnswers} of ${run.answers} answers are not plain text; they are sent one per request`,
      );
    return true;
  }
  if (run.files > 0 || run.textAnswers < run.batchFrom || !run.journal || !run.ledger) return false;
  err(
    context.io,
    `kct: sending ${run.textAnswers.toLocaleString('en')} plain-text answers in batches of up to 100 (POST /evaluations/batch; --via auto from ${run.batchFrom} with --resume; --via one-pass for one request per answer)`,
  );
  return true;
}

/** The most files one answer has (the pages of --pages or of a student folder). */
function maxPages(collection: { answers(): Iterable<{ files: LocalFile[] }> }): number {
  let most = 1;
  for (const answer of collection.answers()) most = Math.max(most, answer.files.length);
  return most;
}

type ClassProgress = ProgressReporter & {
  finished?: (outcome: AnswerOutcome, counts: { done: number; failed: number; total: number }) => void;
};

async function classProgress(context: Context, counts: { done: number; failed: number; total: number }): Promise<ClassProgress> {
  const line = () =>
    `marking ${counts.total} answers: ${counts.done - counts.failed} marked, ${counts.failed} not marked, ${counts.total - counts.done} queued or running`;
  const spinner = await startSpinner(context.io, line());
  if (!spinner) {
    return {
      update() {},
      warn(text) {
        err(context.io, `kct: ${text}`);
      },
      stop() {},
      finished(outcome, now) {
        const score =
          typeof outcome.score === 'number'
            ? ` ${outcome.score}${typeof outcome.max_score === 'number' ? `/${outcome.max_score}` : ''}`
            : '';
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
  if (noWait && outcome.replayed) {
    // a replay: the state read now, never the acceptance stored when it was first sent
    if (format !== 'table') out(context.io, JSON.stringify({ ...(result ?? outcome), replayed: true }, null, format === 'json' ? 2 : 0));
    else {
      out(context.io, `Already submitted: ${outcome.task_id} (the same answer was sent before; no new charge)`);
      const score =
        typeof outcome.score === 'number'
          ? `, score ${outcome.score}${typeof outcome.max_score === 'number' ? ` / ${outcome.max_score}` : ''}`
          : '';
      const charged = typeof outcome.credits_charged === 'number' ? `, ${plural(outcome.credits_charged, 'credit')} charged` : '';
      out(context.io, `Status now: ${outcome.status}${score}${charged}`);
      out(
        context.io,
        isFinalStatus(outcome.status)
          ? `See it with: kct result ${outcome.task_id}`
          : `Follow it with: kct status ${outcome.task_id} --watch`,
      );
    }
    return;
  }
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

async function inspectAll(paths: string[] | undefined): Promise<LocalFile[]> {
  return Promise.all((paths ?? []).map((path) => inspectFile(path)));
}
