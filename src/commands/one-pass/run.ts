// kct one-pass: mark one answer or a whole class. The run itself lives in src/run/: every answer
// gets its identity and a plan (plan.ts), what needs sending is sent and followed (marking.ts),
// and every row goes to the run's record (record.ts), of which the rows, the summary, the report,
// the progress line and the exit status are views. This file wires the flags to it.

import { InterruptedError, KctError, UsageError } from '../../api/errors.js';
import type { OnePassFields } from '../../api/schemas.js';
import { thousands } from '../../api/thousands.js';
import { collectAnswers } from '../../cli/answers/answers.js';
import { type Download, downloadInput, FolderLooks, openDownload } from '../../cli/answers/download.js';
import {
  checkDownloadWithin,
  checkLookalike,
  type DownloadWithin,
  downloadWithin,
  markDownloadAlone,
} from '../../cli/answers/download-lookalikes.js';
import { OwnFiles } from '../../cli/answers/own-files.js';
import { NothingToSend } from '../../cli/answers/plan-words.js';
import { stateDir } from '../../cli/core/config-store.js';
import type { Context } from '../../cli/core/context.js';
import type { OptionsOf } from '../../cli/core/define-command.js';
import { fromEnv } from '../../cli/core/environment.js';
import { err } from '../../cli/core/io.js';
import { parseModelId } from '../../cli/core/parse.js';
import { createProgressReporter, type ProgressReporter, watchTimings, withResumeHint } from '../../cli/core/watch.js';
import { type OutputFormat, resolveFormat } from '../../cli/render/format.js';
import { OutcomeWriter } from '../../cli/render/outcomes.js';
import { plural } from '../../cli/render/style.js';
import { printUnsentRows } from '../../cli/render/unsent-rows.js';
import type { openRunReport } from '../../cli/report/writer.js';
import { checkFileCount, inspectFile, type LocalFile } from '../../client/files.js';
import type { KeyRule } from '../../client/idempotency.js';
import { pollSchedule } from '../../client/poll.js';
import { againOf } from '../../run/exit-tally.js';
import { Journal } from '../../run/journal.js';
import { keyRuleOf } from '../../run/keys.js';
import { Ledger } from '../../run/ledger.js';
import { LedgerLock } from '../../run/ledger-lock.js';
import { MarkingRun } from '../../run/marking.js';
import { withoutModelsOwnMethod } from '../../run/model-method.js';
import { planRun, type RunPlan } from '../../run/plan.js';
import { RunRecord } from '../../run/record.js';
import { checkLedger, type LedgerCheck } from '../../run/reuse-check.js';
import { dropUndefined } from '../../run/settings.js';
import { chooseBatch } from './choose-batch.js';
import type { command } from './command.js';
import { classProgress, costQuote, interrupted, printRefused, printSingle, reuseNotes, roundPace } from './notes.js';
import { warnOnRubric } from './rubric-check.js';

type Options = OptionsOf<typeof command>;

/** From this many answers, a run without --resume is told what a journal would save. */
export const SUGGEST_RESUME_FROM = 300;

export async function run(options: Options, context: Context): Promise<void> {
  const keyRule = keyRuleOf(options.idempotencyKey);
  const settings = await context.settings({ model: options.model });
  const modelId = parseModelId(settings.model.value, settings.model.source);
  const format = resolveFormat(options, settings.output);
  const inputs = options.answers ?? [];
  // what this command writes is never an answer, nor a sign against a download (a journal beside the students)
  const own = OwnFiles.of(
    [
      ...(options.resume === undefined ? [] : [{ path: options.resume, what: 'the --resume journal' }]),
      ...(options.report === undefined ? [] : [{ path: options.report, what: 'the --report' }]),
    ],
    context.io,
  );
  // each folder named is looked at once for what it says of a download
  const looks = new FolderLooks(own);
  const found = downloadInput(inputs, { groupBy: options.groupBy, looks });
  // a folder that mostly looks like a download is never read file by file unasked: refused before anything is sent
  if (!found && options.groupBy === undefined) checkLookalike(inputs, looks);
  const within = !found && options.groupBy !== 'student' ? downloadWithin(inputs, looks) : undefined;
  if (within) checkDownloadWithin(within, options, (line) => err(context.io, `kct: ${line}`));
  // a zip is checked entry by entry and extracted to a private folder, removed whatever happens
  const download = found ? await openDownload(found, own) : undefined;
  try {
    await markAnswers(options, context, {
      keyRule,
      modelId,
      format,
      download,
      own,
      within,
    });
  } finally {
    await download?.cleanup();
  }
}

interface Prepared {
  keyRule: KeyRule;
  modelId: number;
  format: OutputFormat;
  download?: Download;
  own: OwnFiles;
  /** A download inside the folder named, not entered (checkDownloadWithin). */
  within?: DownloadWithin;
}

async function markAnswers(
  options: Options,
  context: Context,
  { keyRule, modelId, format, download, own, within }: Prepared,
): Promise<void> {
  const wait = options.wait !== false;
  const timings = watchTimings(options, context.env);
  // Load the client (undici, zod) while the files are being checked; nothing is sent before both are done.
  const clientReady = context.client({}, { maxRps: options.maxRps });
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
      own,
    },
    context.io,
  ).catch(async (error: unknown) => {
    if (error instanceof NothingToSend) await printUnsentRows(context.io, format, error.rows, wait);
    // a download inside the folder named: what to do is mark it on its own, whatever the folder rules say
    if (!within || !(error instanceof UsageError)) throw error;
    throw new UsageError(error.message, { suggestion: markDownloadAlone(within) });
  });
  // rubric and question files travel with every answer: all must fit in one request
  checkFileCount(rubricFiles.length + questionFiles.length + (options.pages || options.groupBy === 'folder' ? maxPages(collection) : 1));
  for (const note of collection.notes) err(context.io, `kct: ${note}`);
  const given: OnePassFields = dropUndefined({
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

  // one named answer prints its record; a folder, a glob, a list or several inputs print rows (docs/guides/marking-a-class.md, "Output shapes")
  const single = collection.shape === 'record' && collection.count === 1 && collection.skipped.length === 0;
  const client = await clientReady.catch(async (error: unknown) => {
    // refused before anything is sent (no key, no base URL): every answer found is still a row, as a refused key's are
    if (error instanceof KctError) await printRefused(context, format, collection, single, error, wait);
    throw error;
  });
  const [common] = await withoutModelsOwnMethod([given], client, context.signal);
  // one run at a time decides what to send to this server from this machine: another run's answers are in the ledger first
  const lock = await LedgerLock.take(Ledger.pathOf(stateDir(context.env), client.baseUrl), context.signal, (holder) =>
    context.note(`kct: ${holder}: another run is sending to this server; waiting until it has sent, so that no answer is charged twice`),
  );
  try {
    // what this machine marked on this server before, by identity: no answer charged twice whatever its name or route
    const { ledger, problem: ledgerProblem } = Ledger.open(stateDir(context.env), client.baseUrl);
    if (ledgerProblem)
      err(context.io, `kct: ${ledgerProblem}: answers marked by earlier runs cannot be recognised, so nothing is batched (--via one-pass)`);
    const viaBatch = chooseBatch(
      options.via,
      {
        textAnswers: collection.textCount,
        answers: collection.count,
        files: rubricFiles.length + questionFiles.length,
        journal: options.resume !== undefined,
        ledger: ledger !== undefined,
        batchFrom: fromEnv(context.env, 'KCT_BATCH_FROM'),
        markAgain: options.markAgain,
      },
      context,
    );
    const journal = options.resume ? new Journal(options.resume) : undefined;
    const record = new RunRecord(journal, ledger);
    let report: Awaited<ReturnType<typeof runReport>> | undefined;
    let plan: RunPlan;
    let ledgerCheck: LedgerCheck = 'known';
    try {
      // --report's file is opened (or refused: --no-wait, a folder that does not exist) before any answer is hashed
      if (options.report !== undefined)
        report = await runReport(options.report, {
          wait: options.wait,
          sources: options.answers,
          leftOut: collection.leftOut,
          tally: record.tally,
        });
      plan = await planRun(
        collection.answers(),
        collection.rows,
        {
          common,
          rubricFiles,
          questionFiles,
          journal,
          ledger,
          markAgain: options.markAgain,
          markCopies: options.markCopies,
          replaceFailures: keyRule.kind === 'derived',
        },
        context.signal,
      );
      ledgerCheck = await checkLedger(client, plan, context.signal);
      // the rubric is checked only when something is sent with it (a re-run of marked answers uploads nothing)
      if (plan.toSend > 0)
        await warnOnRubric(context, client, {
          rubricFiles,
          rubricText: options.rubricText,
          totalScore: common.total_score,
          cumMethod: options.cumMethod,
          modelId,
        });
    } catch (error) {
      report?.writer.discard();
      journal?.close();
      ledger?.close();
      throw error;
    }
    if (context.signal.aborted) {
      report?.writer.discard();
      journal?.close();
      ledger?.close();
      throw new InterruptedError('interrupted; no task kct knows of is left unfinished (nothing was sent)', {
        suggestion: 'Run the same command again to mark the answers.',
        run: { accepted: 0, unfinished: 0, taskIds: [], notSent: collection.count, ...(journal ? { journal: journal.path } : {}) },
      });
    }
    const labelOf = (row: number) => collection.answerAt(row)?.label;
    for (const line of reuseNotes(plan, collection.count, {
      ledger: ledgerCheck,
      labelOf,
      wait,
    }))
      err(context.io, `kct: ${line}`);
    if (journal && journal.size > 0 && plan.journalKnew === 0 && collection.count > 0)
      err(
        context.io,
        `kct: ${journal.path} holds the record of other answers (none of these ${collection.count} was in it): this run is added to it, and kct report of it shows this run only. Give each class a journal of its own.`,
      );
    // what this run sends, not the class: answers marked before are not sent again anyway
    if (!journal && plan.toSend >= SUGGEST_RESUME_FROM) {
      context.notice(
        'note',
        `${thousands(plan.toSend)} answers to send and no --resume: if this run stops, running it again replays every submission (free, thanks to the idempotency keys, but not fast); add --resume marks.journal to skip what is finished`,
      );
    }
    const writer = single
      ? undefined
      : new OutcomeWriter(context.io, format, {
          rows: collection.rows,
          waited: wait,
          leftOut: collection.leftOut,
          studentNames: collection.download !== undefined,
          tally: record.tally,
        });
    await writer?.init();
    record.view(writer && { row: (outcome, index, printed) => writer.add(outcome, index, printed) });
    record.view(report && { row: (outcome) => report.writer.add(outcome) });
    let progress: ProgressReporter | undefined;
    if (wait && single) progress = await createProgressReporter(context.io);
    else if (wait) {
      const classLine = await classProgress(context, record, collection.count, () => client.pace());
      record.view(classLine);
      progress = classLine;
    }
    record.begin(collection.rows);
    for (const skip of collection.skipped) {
      record.final(skip.index, undefined, {
        file: skip.label,
        student_id: skip.studentId,
        ...(skip.studentName !== undefined ? { student_name: skip.studentName } : {}),
        status: skip.status,
        message: skip.reason,
      });
    }

    let quoted = false;
    const marking = new MarkingRun({
      context,
      client,
      collection,
      common,
      rubricFiles,
      questionFiles,
      keyRule,
      plan,
      record,
      journal,
      ledger,
      jobs: options.jobs,
      wait,
      timeoutMs: timings.timeoutMs,
      schedule: pollSchedule(timings.startMs),
      firstPollIn: timings.startMs ?? pollSchedule().startMs,
      viaBatch,
      markAgain: options.markAgain,
      maxPending: fromEnv(context.env, 'KCT_MAX_PENDING'),
      drained: writer && (() => writer.drained()),
      sentAll: () => lock.release(),
      single,
      onSnapshot: (snapshot, changed) => progress?.update(snapshot, changed),
      onTransientError: (id, error) => progress?.warn(`${id}: ${error.message}; still watching`),
      onAccepted: (task, replayed, answers, files) => {
        if (!single) {
          // the service quotes a price with the first task it accepts: said once, for the whole run
          if (!quoted && !replayed && typeof task.credit_cost === 'number') {
            quoted = true;
            const ledgerKnown = ledgerCheck === 'known' || ledgerCheck === 'earlier';
            context.note(costQuote({ cost: task.credit_cost, answers, files }, plan, ledgerKnown, marking.resent));
          }
          return;
        }
        if (!wait) return;
        // notices with the task's id as a field (docs/guides/exit-codes.md): a script reads it, not the words
        if (replayed)
          context.notice('progress', `already submitted: following ${task.task_id} (the same answer sent before; no new charge)`, {
            task_id: task.task_id,
            replayed: true,
          });
        else
          context.notice(
            'progress',
            `accepted ${task.task_id}${typeof task.credit_cost === 'number' ? ` (cost ${plural(task.credit_cost, 'credit')}, charged only on success)` : ''}`,
            { task_id: task.task_id, ...(typeof task.credit_cost === 'number' ? { credit_cost: task.credit_cost } : {}) },
          );
      },
    });
    let outcome: Awaited<ReturnType<MarkingRun['run']>>;
    try {
      outcome = await marking.run();
    } catch (error) {
      // what was seen is counted and the rows are closed in one turn: a row ending later is not printed, nor counted
      const stopped =
        error instanceof InterruptedError || context.signal.aborted ? interrupted(marking, single, options.resume) : undefined;
      progress?.stop();
      report?.writer.discard();
      // the rows seen finished stay usable: a --json array is closed, not cut off
      await writer?.stop().catch(() => writer.discard());
      journal?.close();
      ledger?.close();
      if (stopped) throw stopped;
      throw marking.anySent() ? withResumeHint(error, againOf(options.markAgain)) : error;
    }
    progress?.stop();
    journal?.close();
    ledger?.close();
    if (single) await printSingle(context, outcome.last!, format, !wait);
    else await writer!.finish();
    if (outcome.sentAgain > 0)
      err(
        context.io,
        `kct: ${plural(outcome.sentAgain, 'answer')} marked before on this machine ${outcome.sentAgain === 1 ? 'was' : 'were'} not known to the service (another account, or a server that was reset), so ${outcome.sentAgain === 1 ? 'it was' : 'they were'} sent again and charged`,
      );
    if (outcome.sentInBatches > 0 && !single)
      err(context.io, `kct: ${plural(outcome.sentInBatches, 'answer')} went in batches of up to 100 (--via batch)`);
    // the service limited the run: said once, with the pace kct found (docs/guides/large-runs-and-reruns.md, "Polite by construction")
    const pace = client.pace();
    if (pace && pace.refusals > 0)
      context.notice(
        'note',
        `the service limited the pace: ${plural(pace.refusals, 'request')} answered 429 or 503, ${fromEnv(context.env, 'KCT_MAX_RETRIES') === 0 ? 'none sent again (KCT_MAX_RETRIES=0)' : 'each sent again after its wait'}; the run sent about ${roundPace(pace.average)} requests a second on average`,
        { refusals: pace.refusals, rps: Math.round(pace.average * 10) / 10 },
      );
    if (report) context.note(await report.written());
    marking.throwExitStatus();
  } finally {
    // whatever way the run ends, this machine's other runs may send again
    lock.release();
  }
}

/** The run's class report; its code (the page, its charts) is loaded only for a run that writes one. */
async function runReport(target: string, run: Parameters<typeof openRunReport>[1]) {
  const reports = await import('../../cli/report/writer.js');
  const writer = reports.openRunReport(target, run);
  return { writer, written: async () => reports.reportWritten(await writer.finish()) };
}

/** The most files one answer has (the pages of --pages or of a student folder). */
function maxPages(collection: { answers(): Iterable<{ files: LocalFile[] }> }): number {
  let most = 1;
  for (const answer of collection.answers()) most = Math.max(most, answer.files.length);
  return most;
}

async function inspectAll(paths: string[] | undefined): Promise<LocalFile[]> {
  return Promise.all((paths ?? []).map((path) => inspectFile(path)));
}
