// kct batch: send a manifest of answers through POST /evaluations/batch, in requests of at most
// 100 items, each with its own idempotency key, then wait and print one row per item.
import { ApiError, ConnectionError, InterruptedError, KctError, UsageError, WatchTimeoutError } from '../../api/errors.js';
import { MAX_BATCH_ITEMS } from '../../api/limits.js';
import type { Task } from '../../api/schemas.js';
import { isFinalStatus, isUnsuccessfulFinal } from '../../api/status.js';
import type { SkippedAnswer } from '../../cli/answers/answers.js';
import { itemOutcomes } from '../../cli/answers/batch-items.js';
import { NothingToSend } from '../../cli/answers/plan-words.js';
import { stateDir } from '../../cli/core/config-store.js';
import type { Context } from '../../cli/core/context.js';
import type { OptionsOf } from '../../cli/core/define-command.js';
import { parseModelId } from '../../cli/core/parse.js';
import { watchTimings } from '../../cli/core/watch.js';
import { exporterFor } from '../../cli/render/export.js';
import type { AnswerOutcome } from '../../cli/render/outcome.js';
import { OutcomeWriter } from '../../cli/render/outcomes.js';
import type { Column } from '../../cli/render/rows.js';
import { plural } from '../../cli/render/style.js';
import { printUnsentRows } from '../../cli/render/unsent-rows.js';
import { pollSchedule } from '../../client/poll.js';
import { ExitTally } from '../../run/exit-tally.js';
import { keyRuleOf } from '../../run/keys.js';
import { Ledger } from '../../run/ledger.js';
import { LedgerLock } from '../../run/ledger-lock.js';
import { withoutModelsOwnMethod } from '../../run/model-method.js';
import { BatchLedger, type BatchSend } from './batch-ledger.js';
import type { command } from './command.js';
import { copyRow, distinctItems } from './copies.js';
import { type ManifestItem, readManifest } from './manifest.js';
import { batchProgress } from './progress.js';
import { checkCallbackUrl, toldRefusal } from './refusals.js';
import { batchInterrupted } from './stopped.js';

type Options = OptionsOf<typeof command>;

/** What --no-wait prints of each accepted request: its batch task. */
const ACCEPTED_COLUMNS: Column<Task>[] = [
  { name: 'task_id', header: 'Task', value: (task) => task.task_id },
  { name: 'status', header: 'Status', value: (task) => task.status },
  { name: 'count', header: 'Items', value: (task) => task.count },
  { name: 'credit_cost', header: 'Cost on success', value: (task) => task.credit_cost },
];

/** A replayed batch's acceptance with its state now: status, stage and what it was charged, from its result. */
async function stateNow(client: Awaited<ReturnType<Context['client']>>, task: Task, signal: AbortSignal): Promise<Task> {
  const now = await client.result(task.task_id, { signal });
  return {
    ...task,
    ...(typeof now.status === 'string' ? { status: now.status } : {}),
    ...(typeof now.stage === 'string' ? { stage: now.stage } : {}),
    ...(typeof now.credits_charged === 'number' ? { credits_charged: now.credits_charged } : {}),
  };
}

/** How a batch request came to be not sent: refused by the service, or never reached it. */
const notSentWord = (error: unknown) => (error instanceof ConnectionError ? 'not delivered' : 'refused');

export function chunk<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

export async function run(options: Options, context: Context): Promise<void> {
  const keyRule = keyRuleOf(options.idempotencyKey);
  const settings = await context.settings({ model: options.model });
  const modelId = settings.model.value === undefined ? undefined : parseModelId(settings.model.value, settings.model.source);
  const callbackUrl = options.callbackUrl === undefined ? undefined : checkCallbackUrl(options.callbackUrl, settings.baseUrl.value);
  const exporter = await exporterFor(options, context);
  const timings = watchTimings(options, context.env);
  const unsent: SkippedAnswer[] = [];
  const listed = await readManifest(options.manifest, modelId, {
    io: context.io,
    // a line that is a note (shared student ids) is a note notice, its prefix its code
    note: (line) => (line.startsWith('note: ') ? context.notice('note', line.slice(6)) : context.notice('progress', line)),
    unsent: (rows) => unsent.push(...rows),
    recursive: options.recursive,
    exclude: options.exclude,
  }).catch(async (error: unknown) => {
    // a folder with nothing to send: a row for each thing found, printed before the refusal (as one-pass)
    if (error instanceof NothingToSend) await printUnsentRows(context.io, exporter.format, error.rows, options.wait !== false);
    throw error;
  });
  const client = await context.client({}, { maxRps: options.maxRps }).catch(async (error: unknown) => {
    // refused before anything is sent (no key, no base URL): each item a NOT_SENT row, as a refused batch's are (--no-wait lists none)
    if (error instanceof KctError && options.wait !== false) {
      const reason = `not sent: ${error.message}`;
      const items = listed.map((item) => ({ label: item.label, studentId: item.fields.student_id, status: 'NOT_SENT' as const, reason }));
      await printUnsentRows(context.io, exporter.format, [...items, ...unsent], true);
    }
    throw error;
  });
  // an item's cum_method that is its model's own is left out (model-method.ts): the same marking, the same answer
  const fields = await withoutModelsOwnMethod(
    listed.map((item) => item.fields),
    client,
    context.signal,
  );
  const manifest = listed.map((item, at) => ({ ...item, fields: fields[at] }));
  // identical items are one answer, sent once (copies.ts); `items` are those sent
  const distinct = await distinctItems(manifest, options.markCopies === true);
  const { items } = distinct;
  const rowsOf = (index: number) => 1 + (distinct.copies.get(index)?.length ?? 0);
  const groups = chunk(items, MAX_BATCH_ITEMS);

  // a batch request is charged whole: items marked before in another request are said before they are charged again
  const sends: BatchSend[] = groups.map((group) => ({
    body: { evaluations: group.map((item) => item.fields), ...(callbackUrl ? { callback_url: callbackUrl } : {}) },
    // a base key is joined to the request's name: its items' files or student ids, never its position
    idempotency: keyRule.kind === 'base' ? { base: keyRule.base, names: group.map((item) => item.label) } : 'derive',
    items: group,
  }));
  // one run at a time decides what it sends to this server from this machine (ledger-lock.ts)
  const lock = await LedgerLock.take(Ledger.pathOf(stateDir(context.env), client.baseUrl), context.signal, (holder) =>
    context.note(`kct: ${holder}: another run is sending to this server; waiting until it has sent`),
  );
  const ledger = await BatchLedger.open(context.env, client.baseUrl, sends, distinct.identities).catch((error: unknown) => {
    lock.release();
    throw error;
  });
  const again = ledger.chargedAgain(sends);
  const sentBefore = `${plural(again, 'item')} of ${items.length} ${again === 1 ? 'was' : 'were'} sent before on this machine`;
  if (again > 0 && !options.markAgain) {
    // never charged twice unless asked: nothing is sent
    ledger.close();
    lock.release();
    throw new UsageError(
      `${sentBefore}: a batch request is charged whole, so this manifest would charge ${again === 1 ? 'it' : 'them'} again. Nothing was sent.`,
      { suggestion: batchAgainAdvice(again === items.length) },
    );
  }
  // the ledger stays open while the run waits: an item that failed is recorded, to be sent again without refusal
  try {
    if (again > 0)
      context.notice(
        'warning',
        `${sentBefore}; a batch request is charged whole, so with --mark-again ${again === 1 ? 'it is' : 'they are'} charged again.`,
      );
    if (distinct.copyCount > 0)
      context.notice(
        'note',
        `${plural(distinct.copyCount, 'item')} of ${manifest.length} ${distinct.copyCount === 1 ? 'is' : 'are'} identical to another of the manifest (the same answer, model and options): sent once, charged once${options.wait === false ? '' : ', each row flagged duplicate_of'} (--mark-copies sends each on its own)`,
      );

    const accepted: { task: Task; items: readonly ManifestItem[]; first: number }[] = [];
    // A refused request (say 402 on the third) must not lose the batches already accepted: they
    // are still followed and printed, and the refusal decides the exit code afterwards.
    let refused: unknown;
    let stoppedSending = false;
    try {
      for (const [index, { body, items: group }] of sends.entries()) {
        let task: Task;
        try {
          task = await client.batch(body, { idempotency: ledger.idempotencyOf(index), signal: context.signal });
        } catch (error) {
          // Ctrl-C while sending: what was accepted is said, by id, below
          if (error instanceof InterruptedError || context.signal.aborted) {
            stoppedSending = true;
            break;
          }
          // the service refused (401, 402, a model not ready ...) or could not be reached: this request and
          // the rest are not sent, and each of their items is a NOT_SENT row of a waiting run, as one-pass's are
          const unsent = error instanceof ApiError || error instanceof ConnectionError;
          if (!unsent || (accepted.length === 0 && options.wait === false)) throw toldRefusal(error, callbackUrl, keyRule);
          refused = accepted.length === 0 ? toldRefusal(error, callbackUrl, keyRule) : error;
          if (accepted.length > 0)
            context.notice(
              'warning',
              `batch ${index + 1}/${groups.length} was ${notSentWord(error)} (${(error as Error).message}); ${groups.length - index} request(s) not sent`,
            );
          break;
        }
        accepted.push({ task, items: group, first: index * MAX_BATCH_ITEMS });
        ledger.accepted(index, task.task_id, index * MAX_BATCH_ITEMS, group.length);
        // the service answered with the batch it already had (the same request before): no new charge
        const price = task.replayed
          ? ', sent before: not charged again'
          : typeof task.credit_cost === 'number'
            ? `, cost ${plural(task.credit_cost, 'credit')} on success`
            : '';
        context.notice(
          'progress',
          `batch ${index + 1}/${groups.length} ${task.replayed ? 'already submitted' : 'accepted'} as ${task.task_id} (${plural(group.length, 'item')}${price})`,
          {
            task_id: task.task_id,
            items: group.length,
            ...(task.replayed ? { replayed: true } : typeof task.credit_cost === 'number' ? { credit_cost: task.credit_cost } : {}),
          },
        );
      }
    } finally {
      lock.release();
    }
    const rowsSent = accepted.reduce((n, { items: group, first }) => n + group.reduce((m, _, i) => m + rowsOf(first + i), 0), 0);
    const stopped = (running: readonly string[], finishedItems: number) =>
      batchInterrupted({ running, runningItems: rowsSent - finishedItems, finishedItems, notSent: manifest.length - rowsSent });

    if (options.wait === false) {
      // the accepted batch tasks as the service sent them; a replay's acceptance is the stored one, so
      // its state now is read (as one-pass --no-wait does); a refused request's items have none
      const tasks = await Promise.all(accepted.map(({ task }) => (task.replayed ? stateNow(client, task, context.signal) : task)));
      await exporter.list(tasks, ACCEPTED_COLUMNS);
      const first = accepted[0]?.task.task_id;
      // a batch sent before may be finished already: then its marks are there to read
      const done = tasks.every((task) => isFinalStatus(task.status));
      // several batches: each is named (the ids are on stdout too), the same command again collects them all
      const ids = accepted.map(({ task }) => task.task_id);
      const which = ids.length === 1 ? first : `<task_id> (${ids.slice(0, 3).join(', ')}${ids.length > 3 ? ', ...' : ''})`;
      const all = ids.length === 1 ? '' : '; or run this command again without --no-wait for every row (nothing is charged again)';
      if (first)
        context.notice(
          'next',
          done
            ? `${accepted.length === 1 ? 'It is' : 'They are'} finished: see the marks with kct result ${which}${all}`
            : `Follow ${accepted.length === 1 ? 'it' : 'each'} with: kct status ${which} --watch, then kct result ${which}${all}`,
        );
      // a batch holds each answer once: its copies' rows come from the manifest, not from kct result
      if (first && distinct.copyCount > 0)
        context.notice(
          'next',
          `kct result lists the ${plural(items.length, 'item')} sent, not the ${distinct.copyCount === 1 ? 'copy' : `${distinct.copyCount} copies`}: run this command again (without --no-wait) for a row per item of the manifest, copies included; nothing is charged again`,
        );
      if (unsent.length > 0)
        context.notice(
          'note',
          `--no-wait lists the batches sent: the ${plural(unsent.length, 'row')} of what was not sent come with the run that waits`,
        );
      if (stoppedSending)
        throw stopped(
          tasks.filter((task) => !isFinalStatus(task.status)).map((task) => task.task_id),
          0,
        );
      if (refused !== undefined) throw refused;
      return;
    }

    const writer = new OutcomeWriter(context.io, exporter.format, {
      rows: manifest.length + unsent.length,
      severalModels: severalRubrics(manifest),
    });
    await writer.init();
    if (stoppedSending) {
      await writer.stop();
      throw stopped(
        accepted.map(({ task }) => task.task_id),
        0,
      );
    }
    const progress = await batchProgress(
      context,
      accepted.map(({ task }) => task.task_id),
      rowsSent,
    );
    const poller = client.poller({
      timeoutMs: timings.timeoutMs,
      schedule: pollSchedule(timings.startMs),
      signal: context.signal,
      onUpdate: (snapshot, changed) => progress.update(snapshot, changed),
      onTransientError: (id, error) => progress.warn(`${id}: ${error.message}; still watching`),
    });
    const late: string[] = [];
    const finished: string[] = [];
    let finishedItems = 0;
    /** What the exit status is made of, counted from the rows printed, as a marking run's is. */
    const exit = new ExitTally();
    const add = (outcome: AnswerOutcome, row: number) => {
      writer.add(outcome, row);
      exit.count(outcome);
    };
    /** Items' rows at their places in the manifest, with their copies', added in manifest order (CSV and NDJSON print as added). */
    const addRows = (found: [index: number, outcome: AnswerOutcome][]) => {
      const placed: [number, AnswerOutcome][] = [];
      for (const [index, outcome] of found) {
        placed.push([distinct.rows[index], outcome]);
        for (const copy of distinct.copies.get(index) ?? []) placed.push([copy, copyRow(outcome, manifest[copy])]);
      }
      for (const [row, outcome] of placed.sort((a, b) => a[0] - b[0])) add(outcome, row);
    };
    // the items of the batches refused or never sent: a row each, saying why (before the others, so
    // they never hold back --json's order)
    const unsentRows: [number, AnswerOutcome][] = [];
    for (let index = accepted.reduce((n, { items: group }) => n + group.length, 0); index < items.length; index++) {
      const { label, fields } = items[index];
      const why =
        Math.floor(index / MAX_BATCH_ITEMS) === accepted.length
          ? `not sent: ${refused instanceof ConnectionError ? 'its batch could not be sent' : 'the service refused its batch'} (${(refused as Error).message})`
          : `not sent: the run stopped after batch ${accepted.length + 1}/${groups.length} was ${notSentWord(refused)} (${(refused as Error).message})`;
      unsentRows.push([index, { file: label, student_id: fields.student_id, status: 'NOT_SENT', message: why }]);
    }
    addRows(unsentRows);
    try {
      await Promise.all(
        accepted.map(async ({ task, items: group, first }) => {
          try {
            await poller.watch(task.task_id, timings.startMs ?? 0, group.length);
          } catch (error) {
            if (error instanceof WatchTimeoutError) {
              late.push(task.task_id);
              return;
            }
            throw error;
          }
          const record = await client.result(task.task_id, { signal: context.signal });
          const outcomes = (await itemOutcomes(
            client,
            record,
            group.map((item) => ({ label: item.label, studentId: item.fields.student_id })),
            context.signal,
          )) as AnswerOutcome[];
          const rows: AnswerOutcome[] = [];
          // a replayed batch's items were charged when it was first sent, not by this run
          addRows(outcomes.map((outcome, i) => [first + i, task.replayed ? { ...outcome, replayed: true } : outcome]));
          outcomes.forEach((outcome, i) => {
            rows.push(outcome, ...(distinct.copies.get(first + i) ?? []).map(() => outcome));
            if (isUnsuccessfulFinal(outcome.status)) ledger.failed(task.task_id, first, i);
          });
          finished.push(task.task_id);
          finishedItems += rows.length;
          progress.finished(task.task_id, rows);
        }),
      );
    } catch (error) {
      await writer.stop().catch(() => writer.discard());
      if (error instanceof InterruptedError || context.signal.aborted)
        throw stopped(
          accepted.map(({ task }) => task.task_id).filter((id) => !finished.includes(id)),
          finishedItems,
        );
      throw error;
    } finally {
      progress.stop();
    }
    // rows of batches still running at the deadline are not printed, and count as the time-outs they are
    for (const { task, items: group, first } of accepted)
      if (late.includes(task.task_id))
        for (let i = 0; i < group.length; i++)
          for (const row of [distinct.rows[first + i], ...(distinct.copies.get(first + i) ?? [])]) {
            writer.skip(row);
            exit.count({ file: manifest[row].label, status: 'TIMEOUT', task_id: task.task_id });
          }
    // a folder's subfolders not entered (and student folders with nothing to send) are rows, after the items
    for (const [i, row] of unsent.entries())
      add({ file: row.label, student_id: row.studentId, status: row.status, message: row.reason }, manifest.length + i);
    await writer.finish();
    if (refused !== undefined) throw refused;
    // a batch run again is replayed as it ended: failures are sent again in a request of their own
    // only items read from files can go through one-pass as files: a manifest of text names no file
    const sendAgain = manifest.some((item) => item.fromFile)
      ? `${AGAIN_HINT}, or send their files with \`kct one-pass\`.`
      : `${AGAIN_HINT}.`;
    exit.throwExitStatus({ anySent: true, timeoutMs: timings.timeoutMs, failedAdvice: (every) => (every ? NONE_MARKED_HINT : sendAgain) });
  } finally {
    ledger.close();
  }
}

/** What to do with a manifest whose request would charge again items marked before (every one of them: no new item to send). */
function batchAgainAdvice(all: boolean): string {
  const same = 'A request is the same (and free again) only with the same items and --callback-url.';
  const reuse = 'kct one-pass <files> --via batch, which reuses earlier marks';
  return `${same} ${all ? `Every item was marked before: run the manifest that marked them again, or mark the answers with ${reuse}.` : `To mark only the new items, send them in a manifest of their own, or mark the answers with ${reuse}.`} To pay for them again, add --mark-again.`;
}

/**
 * None marked (a batch cancelled whole): a manifest of the same items is the same request again, replayed
 * as it ended; a base key of their own makes new ones, and nothing was charged to charge twice.
 */
const NONE_MARKED_HINT =
  'The same command again replays these batches as they ended, and so would a copy of the manifest. To mark the items, send them again under a key of their own: the same command with --idempotency-key <a new key, e.g. retry-1> (none of them was charged).';

/** The same manifest again is the same request, which the service replays as it ended: the way to send what failed again. */
const AGAIN_HINT =
  'The same command again replays these batches as they ended. To mark the items that did not succeed, put them in a manifest of their own and send it (other items are another request)';

/** Whether the items may be marked on different rubrics: several models named, or a rubric of an item's own. */
function severalRubrics(manifest: readonly ManifestItem[]): boolean {
  return new Set(manifest.map((item) => item.fields.model_id)).size > 1 || manifest.some((item) => item.fields.rubrics !== undefined);
}
