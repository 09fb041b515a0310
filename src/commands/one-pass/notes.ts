// What one-pass says besides its rows: what it reuses and what it will cost (before), the progress
// line (during), a single answer's record and the Ctrl-C message (after).
import { InterruptedError } from '../../api/errors.js';
import type { Task } from '../../api/schemas.js';
import { isFinalStatus } from '../../api/status.js';
import type { Collection } from '../../cli/answers/answers.js';
import type { Context } from '../../cli/core/context.js';
import { err, out } from '../../cli/core/io.js';
import { type ProgressReporter, startSpinner } from '../../cli/core/watch.js';
import type { OutputFormat } from '../../cli/render/format.js';
import { type AnswerOutcome, isUnsentRow, ndjsonRow } from '../../cli/render/outcome.js';
import { OutcomeWriter, printOneResult } from '../../cli/render/outcomes.js';
import { printEarlierStudent } from '../../cli/render/result.js';
import { plural } from '../../cli/render/style.js';
import { notSentRows, printUnsentRows } from '../../cli/render/unsent-rows.js';
import type { PaceReading } from '../../client/budget.js';
import { againOf, WITHOUT_MARK_AGAIN } from '../../run/exit-tally.js';
import type { MarkingRun } from '../../run/marking.js';
import type { RunPlan } from '../../run/plan.js';
import type { RunRecord } from '../../run/record.js';
import type { LedgerCheck } from '../../run/reuse-check.js';

/**
 * Said once before anything is sent: the answers sent before (their tasks are followed, not sent
 * again), and the identical ones marked once. `ledgerKnown`: the service knows the tasks this
 * machine's ledger names (reuse-check.ts); when it does not, they are said to be sent again, and charged.
 */
export function reuseNotes(
  plan: RunPlan,
  answers: number,
  {
    ledger = 'known',
    labelOf = () => undefined,
    wait = true,
  }: {
    /** What the service said of the ledger's tasks (reuse-check.ts): nothing is said of them when it could not be asked. */
    ledger?: LedgerCheck;
    labelOf?: (row: number) => string | undefined;
    /** --no-wait: a reused answer's task is read once, not followed. */
    wait?: boolean;
  } = {},
): string[] {
  const lines: string[] = plan.changed.slice(0, 20).map((label) => `${label} changed since the last run: submitting it as a new answer`);
  if (plan.changed.length > 20) lines.push(`... and ${plan.changed.length - 20} more answers changed since the last run`);
  if (plan.reused > 0 && ledger !== 'unasked') {
    const one = plan.reused === 1;
    const tasks = `${plan.reusedTasks.join(', ')}${plan.reused > plan.reusedTasks.length ? ', ...' : ''}`;
    // named, so that a teacher can tell which answer is identical to one sent before (another class's?)
    const labels = plan.reusedRows.map(labelOf).filter((label) => label !== undefined);
    const named = labels.length === 0 ? '' : `${labels.join(', ')}${plan.reused > labels.length ? ', ...' : ''}; `;
    const sent = `${plural(plan.reused, 'answer')} of ${answers} ${one ? 'was' : 'were'} sent before`;
    lines.push(
      ledger === 'known' || ledger === 'earlier'
        ? `${sent} (${named}the same content, model and options${
            // the latest tasks are another server's: this one knows the tasks recorded before them
            ledger === 'earlier' ? '; to this service as earlier tasks' : plan.reusedTasks.length > 0 ? `; ${tasks}` : ''
          }): not sent again: ${wait ? `kct follows ${one ? 'that task for its mark' : 'their tasks for their marks'}` : `kct prints ${one ? "that task's state now" : "their tasks' state now"}`}, under the ${one ? 'name it has' : 'names they have'} now, charging nothing (--mark-again pays to mark ${one ? 'it' : 'them'} anew)`
        : `${sent} from this machine (${named}${tasks}), but the service does not know task ${plan.ledgerTask} (another account, or a server started afresh): ${one ? 'if it does not know the answer, it is' : 'each one it does not know is'} sent again as a new task, and charged`,
    );
  }
  // as of the answers reused: a service that could not be asked (a key refused) is told nothing of them
  if (plan.again > 0 && ledger !== 'unasked')
    lines.push(
      `${plural(plan.again, 'answer')} of ${answers} ended FAILURE or CANCEL when sent before: sent again as ${plan.again === 1 ? 'a new task' : 'new tasks'} (a task that does not mark its answer is never charged)`,
    );
  const copies = [...plan.copies.values()].reduce((sum, rows) => sum + rows.length, 0);
  if (copies > 0)
    lines.push(
      `${plural(copies, 'answer')} ${copies === 1 ? 'is' : 'are'} identical to another of this run (the same text or bytes): marked once, charged once, each row flagged duplicate_of (--mark-copies marks each on its own)`,
    );
  return lines;
}

/**
 * The price of a class run, from the quote of the first task accepted: per answer, or per file when
 * the answer had files (the service may price each file on its own, as the sandbox does, so an
 * answer of several files costs more), and what the answers this run sends come to at that rate.
 * Answers reused and identical copies are not among them: they are not charged.
 */
export function costQuote(
  first: { cost: number; answers: number; files: number },
  plan: RunPlan,
  ledgerKnown = true,
  resent: { answers: number; files: number; units: number; ledgerUnits: number } = { answers: 0, files: 0, units: 0, ledgerUnits: 0 },
): string {
  const round = (n: number) => (Number.isInteger(n) ? n : Math.round(n * 100) / 100);
  const batch = first.answers > 1;
  const perUnit = first.cost / Math.max(1, batch ? first.answers : first.files);
  const quoted = batch
    ? `the service quoted ${plural(first.cost, 'credit')} for a batch of ${first.answers} answers (${plural(round(perUnit), 'credit')} an answer)`
    : first.files > 0
      ? `the service quoted ${plural(first.cost, 'credit')} for the first answer (${plural(first.files, 'file')}: ${plural(round(perUnit), 'credit')} a file)`
      : `the service quoted ${plural(first.cost, 'credit')} for the first answer`;
  // answers sent before whose task turned out gone or unmarked are sent after all: to mark, not reused
  const toSend = plan.toSend + resent.answers;
  const filesToSend = plan.filesToSend + resent.files;
  const unitsToSend = plan.unitsToSend + resent.units;
  const reusedLeft = plan.reused - resent.answers;
  // an answer of text (no file) is priced as one unit: said apart from the answers with files, so both add up
  const texts = unitsToSend - filesToSend;
  const files =
    filesToSend === 0
      ? ''
      : texts > 0
        ? ` (${toSend - texts} with ${plural(filesToSend, 'file')}, ${texts} of text)`
        : ` (${plural(filesToSend, 'file')})`;
  const again = resent.answers === 0 ? '' : `, ${resent.answers} of them sent before, their earlier task not having marked them`;
  // a run of answers all sent before has none "to mark": only what those may cost is said
  const toMark =
    toSend > 0 || reusedLeft === 0
      ? `${plural(toSend, 'answer')}${files} to mark${again}, about ${plural(Math.ceil(perUnit * unitsToSend), 'credit')} at that rate`
      : undefined;
  const reused =
    reusedLeft === 0
      ? undefined
      : ledgerKnown
        ? `${plural(reusedLeft, 'answer')} sent before ${reusedLeft === 1 ? 'is' : 'are'} not charged again`
        : `up to ${plural(Math.ceil(perUnit * (plan.unitsReused - resent.ledgerUnits)), 'credit')}${toMark ? ' more' : ''} for the ${plural(reusedLeft, 'answer')} sent before from this machine, which the service may not know`;
  // the rate is the first answer's: a service may price a file by its size (the sandbox: 1 credit a started 2 MiB)
  const large =
    plan.largestFile > LARGE_FILE && toMark
      ? `files may be priced by their size, and the largest is ${(plan.largestFile / MIB).toFixed(1)} MiB`
      : undefined;
  return `kct: cost: ${[quoted, toMark, large, reused].filter(Boolean).join('; ')} (charged only for answers marked)`;
}

const MIB = 1024 * 1024;
/** Past this size a file's price may be more than one unit's: the cost line says so. */
const LARGE_FILE = 2 * MIB;

/** A pace as said to people: a tenth under 10 a second (a service that allows 0.5 is not "0"), whole above. */
export function roundPace(rps: number): string {
  return rps < 10 ? String(Math.round(rps * 10) / 10) : String(Math.round(rps));
}

type ClassProgress = ProgressReporter & { row(outcome: AnswerOutcome): void };

/** How often the spinner's line is drawn again, to show the pace kct has found. */
const PACE_REDRAW_MS = 1_000;

/**
 * The progress of a class run: a spinner on a terminal, with the pace kct has found (the requests
 * a second it sends, and a pause a 429 or 503 asked for), else a line per answer as it ends; its
 * figures are the record's.
 */
export async function classProgress(
  context: Context,
  record: RunRecord,
  total: number,
  pace?: () => PaceReading | undefined,
): Promise<ClassProgress> {
  const line = () => {
    const { answers, marked } = record.tally.answersSoFar();
    const now = pace?.();
    const speed =
      now === undefined
        ? ''
        : now.pausedForMs > 0
          ? ` · paused ${Math.ceil(now.pausedForMs / 1000)} s as the service asked`
          : ` · ${roundPace(now.sending)} requests/s`;
    return `marking ${plural(total, 'answer')}: ${marked} marked, ${answers - marked} not marked, ${total - answers} queued or running${speed}`;
  };
  const spinner = await startSpinner(context.io, line());
  if (!spinner) {
    let ended = 0;
    return {
      update() {},
      warn(text) {
        err(context.io, `kct: ${text}`);
      },
      stop() {},
      row(outcome) {
        if (isUnsentRow(outcome.status)) return;
        ended += 1;
        const score =
          typeof outcome.score === 'number'
            ? ` ${outcome.score}${typeof outcome.max_score === 'number' ? `/${outcome.max_score}` : ''}`
            : '';
        err(context.io, `kct: [${ended}/${total}] ${outcome.file} ${outcome.status}${score}`);
      },
    };
  }
  const redraw = pace ? setInterval(() => spinner.text(line()), PACE_REDRAW_MS).unref() : undefined;
  return {
    update: () => spinner.text(line()),
    warn: (text) => spinner.warn(text),
    stop: () => {
      clearInterval(redraw);
      spinner.stop();
    },
    row: () => spinner.text(line()),
  };
}

/** One named answer: its result record (json, or the score table), or with --no-wait what was accepted; csv and ndjson print the row a class run prints. */
export async function printSingle(context: Context, outcome: AnswerOutcome, format: OutputFormat, noWait: boolean): Promise<void> {
  const result = outcome.result;
  // not accepted: the error, on stderr, says why; a script still gets the answer's row (NOT_SENT), as for a folder
  if (outcome.task_id === undefined && format !== 'csv' && format !== 'ndjson' && format !== 'json') return;
  if (format === 'csv' || format === 'ndjson') {
    const writer = new OutcomeWriter(context.io, format, { waited: !noWait });
    await writer.init();
    writer.add(outcome);
    writer.flush();
    return;
  }
  if (format === 'json') {
    // the record as the service sent it (the result; with --no-wait the task accepted, or a replay's state now);
    // a run that ends without one (TIMEOUT, ERROR) prints its row, in the shape of every row (docs/guides/marking-a-class.md)
    const printed = result ? { ...result, ...(outcome.replayed ? { replayed: true } : {}) } : ndjsonRow(outcome);
    out(context.io, JSON.stringify(printed, null, 2));
    return;
  }
  if (!noWait) {
    if (result) await printOneResult(context.io, format, result, { label: outcome.file });
    return;
  }
  if (outcome.replayed) {
    // a replay: the state read now, never the acceptance stored when it was first sent
    out(context.io, `Already submitted: ${outcome.task_id} (the same answer was sent before; no new charge)`);
    printEarlierStudent(context.io, outcome.earlier_student_id);
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
    return;
  }
  out(context.io, `Accepted ${outcome.task_id}  ${outcome.status}`);
  const cost = (result as Task | undefined)?.credit_cost;
  if (typeof cost === 'number') out(context.io, `Cost: ${plural(cost, 'credit')}, charged only when the result is complete`);
  out(context.io, `Follow it with: kct status ${outcome.task_id} --watch`);
}

/**
 * A run refused before it sent anything (no API key, no base URL): every answer is still a result,
 * its row (or a single answer's record) NOT_SENT, as when the service refuses the key.
 */
export async function printRefused(
  context: Context,
  format: OutputFormat,
  collection: Collection,
  single: boolean,
  error: Error,
  wait: boolean,
) {
  const rows = notSentRows(collection, `not sent: ${error.message}`);
  if (!single) return printUnsentRows(context.io, format, rows, wait);
  const [row] = rows;
  await printSingle(context, { file: row.label, student_id: row.studentId, status: row.status, message: row.reason }, format, !wait);
}

/** Tasks the Ctrl-C message names by id (--json's error names more: StoppedRun.taskIds). */
const NAMED_IN_MESSAGE = 5;

/**
 * The Ctrl-C message: only what kct saw, every answer counted once (accepted, its task named; refused,
 * its row printed; or not sent), and how to collect them; for scripts the same as the error's `run`.
 */
export function interrupted(marking: MarkingRun, single: boolean, journal: string | undefined): InterruptedError {
  const { accepted, unprinted, unfinished, taskIds, refused, finished, firstTaskId, notSent } = marking.progress();
  const run = { accepted, unfinished, taskIds, notSent, ...(journal === undefined ? {} : { journal }) };
  const markAgain = marking.settings.markAgain === true;
  // one answer's task: accepted by this run, or sent before and followed (reused from the ledger)
  const taskId = firstTaskId ?? taskIds[0];
  if (single && unfinished === 1 && taskId) {
    return new InterruptedError(`stopped watching ${taskId}; the task keeps running`, {
      suggestion: `Resume with: kct status ${taskId} --watch (${markAgain ? WITHOUT_MARK_AGAIN : 'running the same command again'} also finds it, with no second charge)`,
      run,
    });
  }
  // counted in answers, named by task: a batch's answers share one task
  const done = finished > 0 ? ` (${plural(finished, 'answer')} seen finished, ${finished === 1 ? 'its row' : 'their rows'} printed)` : '';
  const notAccepted =
    refused > 0 ? `; ${plural(refused, 'answer')} not accepted (${refused === 1 ? 'its row says' : 'their rows say'} why)` : '';
  const unsent = notSent > 0 ? `; ${plural(notSent, 'answer')} not sent` : '';
  const ids = listed(taskIds.slice(0, NAMED_IN_MESSAGE), unfinished);
  // --no-wait: every answer accepted is printed as it is accepted, with its task (a replay being read when stopped is not)
  const printed =
    unprinted === 0 ? ' (their rows printed)' : unfinished > unprinted ? ` (${unfinished - unprinted} of their rows printed)` : '';
  const head =
    unfinished === 0
      ? `interrupted; no task kct knows of is left unfinished${done}${notAccepted}${unsent}`
      : marking.settings.wait
        ? `interrupted; ${plural(unfinished, 'answer')} not yet seen finished may still be running on the service${ids}${done}${notAccepted}${unsent}`
        : `interrupted; ${plural(unfinished, 'answer')} accepted and not yet marked${printed}${ids}${done}${notAccepted}${unsent}`;
  const collect =
    unfinished === 0
      ? notSent > 0
        ? `send the ${plural(notSent, 'answer')} not sent`
        : 'collect what it marked'
      : `collect them${notSent > 0 ? ` and send the ${plural(notSent, 'answer')} not sent` : ''}`;
  // where every task is, past those named: the rows of a --no-wait run, and the journal
  const where = [...(marking.settings.wait ? [] : ['the rows printed']), ...(journal === undefined ? [] : [journal])];
  const every = taskIds.length > NAMED_IN_MESSAGE && where.length > 0 ? ` Every task is named in ${where.join(' and in ')}.` : '';
  return new InterruptedError(head, {
    suggestion: `${
      markAgain
        ? `Run ${againOf(true)} to collect ${unfinished === 0 ? 'what it marked' : 'them'}.`
        : `Run the same command again to ${collect}${journal !== undefined || single ? '' : ' (add --resume <journal> to skip finished answers)'}: it finds the accepted tasks by their idempotency keys, so nothing is charged twice.`
    }${unfinished > 0 ? ' To stop one instead: kct cancel <task_id>.' : ''}${every}`,
    run,
  });
}

/** ": tasks tsk_1, tsk_2, …": the first tasks a stopped run left running, by id (kct cancel takes one). */
function listed(ids: readonly string[], answers: number): string {
  if (ids.length === 0) return '';
  return `: ${ids.length === 1 ? 'task' : 'tasks'} ${ids.join(', ')}${answers > ids.length && ids.length > 1 ? ', …' : ''}`;
}
