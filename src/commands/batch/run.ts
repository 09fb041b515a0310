// kct batch: send a manifest of answers through POST /evaluations/batch, in requests of at most
// 100 items, each with its own idempotency key, then wait and print one row per item. Items this
// machine marked before are not sent: their marks are reused (reuse.ts), so only new items are charged.
import { ApiError, ConnectionError, InterruptedError, KctError, WatchTimeoutError } from '../../api/errors.js';
import { MAX_BATCH_ITEMS } from '../../api/limits.js';
import type { EvaluationResult, Task } from '../../api/schemas.js';
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
import { plural } from '../../cli/render/style.js';
import { printUnsentRows } from '../../cli/render/unsent-rows.js';
import { pollSchedule } from '../../client/poll.js';
import { ExitTally } from '../../run/exit-tally.js';
import { keyRuleOf } from '../../run/keys.js';
import { Ledger } from '../../run/ledger.js';
import { LedgerLock } from '../../run/ledger-lock.js';
import { withoutModelsOwnMethod } from '../../run/model-method.js';
import { AcceptedList } from './accepted-list.js';
import { BatchLedger, type BatchSend } from './batch-ledger.js';
import type { command } from './command.js';
import { copyRow, distinctItems } from './copies.js';
import { type ManifestItem, readManifest } from './manifest.js';
import { batchProgress } from './progress.js';
import { checkCallbackUrl, toldRefusal } from './refusals.js';
import { earlierMarks, reusedOutcomes, reuseNotes, sendEvery } from './reuse.js';
import { batchInterrupted } from './stopped.js';

type Options = OptionsOf<typeof command>;

/** A task whose items' rows a waiting run prints when it ends: how they are read, and what an item not marked is recorded as. */
interface Followed {
  taskId: string;
  /** Its items (their index among the manifest's distinct items), in their order in it. */
  at: readonly number[];
  rowsOf: (record: EvaluationResult) => Promise<AnswerOutcome[]>;
  failed: (item: number) => void;
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
  // one run at a time decides what it sends to this server from this machine (ledger-lock.ts)
  const lock = await LedgerLock.take(Ledger.pathOf(stateDir(context.env), client.baseUrl), context.signal, (holder) =>
    context.note(`kct: ${holder}: another run is sending to this server; waiting until it has sent`),
  );
  const ledger = BatchLedger.open(context.env, client.baseUrl, distinct.identities);
  const unlock = (error: unknown): never => {
    ledger.close();
    lock.release();
    throw error;
  };
  // items marked before are reused, not sent (reuse.ts); --mark-again sends every one, charged again
  const reuse = options.markAgain ? sendEvery(items.length) : await earlierMarks(client, ledger, distinct, context.signal).catch(unlock);
  const groups = chunk(reuse.send, MAX_BATCH_ITEMS);
  const sends: BatchSend[] = groups.map((at) => {
    const group = at.map((i) => items[i]);
    return {
      body: { evaluations: group.map((item) => item.fields), ...(callbackUrl ? { callback_url: callbackUrl } : {}) },
      // a base key is joined to the request's name: its items' files or student ids, never its position
      idempotency: keyRule.kind === 'base' ? { base: keyRule.base, names: group.map((item) => item.label) } : 'derive',
      items: group,
      at,
      again: at.map((i) => reuse.failedIn.get(i)),
    };
  });
  await ledger.keyed(sends).catch(unlock);
  // the ledger stays open while the run waits: an item that failed is recorded, to be sent again by the next run
  try {
    // a batch request is charged whole: with --mark-again (or --mark-copies), items marked before in another request are said before they are charged again
    const again = options.markAgain || options.markCopies ? ledger.chargedAgain() : 0;
    if (again > 0)
      context.notice(
        'warning',
        `${plural(again, 'item')} of ${items.length} ${again === 1 ? 'was' : 'were'} sent before on this machine; a batch request is charged whole, so with ${options.markAgain ? '--mark-again' : '--mark-copies'} ${again === 1 ? 'it is' : 'they are'} charged again.`,
      );
    for (const line of reuseNotes(reuse, items.length, options.wait !== false)) context.notice('note', line);
    if (distinct.copyCount > 0)
      context.notice(
        'note',
        `${plural(distinct.copyCount, 'item')} of ${manifest.length} ${distinct.copyCount === 1 ? 'is' : 'are'} identical to another of the manifest (the same answer, model and options): sent once, charged once${options.wait === false ? '' : ', each row flagged duplicate_of'} (--mark-copies sends each on its own)`,
      );

    const accepted: { task: Task; items: readonly ManifestItem[]; at: readonly number[] }[] = [];
    // --no-wait: each task holding items is printed at once (the earlier ones reused first), so a run stopped later has printed every one it started
    const listed = options.wait === false ? new AcceptedList(exporter, client, context.signal) : undefined;
    for (const earlier of reuse.earlier) await listed?.add(earlier.task, { current: true });
    // A refused request (say 402 on the third) must not lose the batches already accepted: they
    // are still followed and printed, and the refusal decides the exit code afterwards.
    let refused: unknown;
    let stoppedSending = false;
    try {
      for (const [index, { body, items: group, at }] of sends.entries()) {
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
          if (!unsent || (accepted.length === 0 && reuse.earlier.length === 0 && options.wait === false))
            throw toldRefusal(error, callbackUrl, keyRule);
          refused = accepted.length === 0 ? toldRefusal(error, callbackUrl, keyRule) : error;
          if (accepted.length > 0)
            context.notice(
              'warning',
              `batch ${index + 1}/${groups.length} was ${notSentWord(error)} (${(error as Error).message}); ${groups.length - index} request(s) not sent`,
            );
          break;
        }
        accepted.push({ task, items: group, at });
        ledger.accepted(index, task.task_id);
        await listed?.add(task);
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
    } catch (error) {
      await listed?.abandon();
      throw error;
    } finally {
      lock.release();
    }
    // manifest rows in a task: of the requests accepted, and of the earlier tasks reused (copies with them)
    const rowsIn = (at: readonly number[]) => at.reduce((n, i) => n + rowsOf(i), 0);
    const rowsSent =
      accepted.reduce((n, { at }) => n + rowsIn(at), 0) + reuse.earlier.reduce((n, { places }) => n + rowsIn(places.map((p) => p.at)), 0);
    const stopped = (running: readonly string[], finishedItems: number, rowsPrinted = true) =>
      batchInterrupted({
        running,
        runningItems: rowsSent - finishedItems,
        finishedItems,
        notSent: manifest.length - rowsSent,
        rowsPrinted,
      });

    if (listed) {
      // the tasks that hold the items, printed as they came: the earlier ones reused, then the batches accepted
      const tasks = await listed.end();
      const first = tasks[0]?.task_id;
      // a batch sent before may be finished already: then its marks are there to read
      const done = tasks.every((task) => isFinalStatus(task.status));
      // several batches: each is named (the ids are on stdout too), the same command again collects them all
      const ids = tasks.map((task) => task.task_id);
      // those to follow are the tasks still running (an earlier task reused may have ended long ago)
      const named = done ? ids : tasks.filter((task) => !isFinalStatus(task.status)).map((task) => task.task_id);
      const which = named.length === 1 ? named[0] : `<task_id> (${named.slice(0, 3).join(', ')}${named.length > 3 ? ', ...' : ''})`;
      const all = ids.length === 1 ? '' : '; or run this command again without --no-wait for every row (nothing is charged again)';
      if (first)
        context.notice(
          'next',
          done
            ? `${ids.length === 1 ? 'It is' : 'They are'} finished: see the marks with kct result ${which}${all}`
            : `Follow ${named.length === 1 ? 'it' : 'each'} with: kct status ${which} --watch, then kct result ${which}${all}`,
        );
      // a batch holds each answer once: its copies' rows come from the manifest, not from kct result
      if (first && distinct.copyCount > 0)
        context.notice(
          'next',
          `kct result lists the answers each task holds, not the ${distinct.copyCount === 1 ? 'copy' : `${distinct.copyCount} copies`}: run this command again (without --no-wait) for a row per item of the manifest, copies included; nothing is charged again`,
        );
      if (unsent.length > 0)
        context.notice(
          'note',
          `--no-wait lists the batches sent: the ${plural(unsent.length, 'row')} of what was not sent come with the run that waits`,
        );
      if (stoppedSending) {
        // the items of a task listed final (an earlier one reused, a replay) are not left running
        const itemsOf = new Map([
          ...accepted.map(({ task, at }) => [task.task_id, rowsIn(at)] as const),
          ...reuse.earlier.map(({ taskId, places }) => [taskId, rowsIn(places.map((p) => p.at))] as const),
        ]);
        const ended = tasks.filter((task) => isFinalStatus(task.status));
        throw stopped(
          tasks.filter((task) => !isFinalStatus(task.status)).map((task) => task.task_id),
          ended.reduce((n, task) => n + (itemsOf.get(task.task_id) ?? 0), 0),
          false,
        );
      }
      if (refused !== undefined) throw refused;
      return;
    }

    const writer = new OutcomeWriter(context.io, exporter.format, {
      rows: manifest.length + unsent.length,
      severalModels: severalRubrics(manifest),
    });
    await writer.init();
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
    if (stoppedSending) {
      // the marks reused from tasks that had ended are known: their rows are printed, not counted as running
      addRows(reuse.rows);
      await writer.stop();
      throw stopped(
        [
          ...reuse.earlier.filter((earlier) => !isFinalStatus(earlier.task.status)).map(({ taskId }) => taskId),
          ...accepted.map(({ task }) => task.task_id),
        ],
        reuse.rows.reduce((n, [at]) => n + rowsOf(at), 0),
      );
    }
    // the tasks followed: the batches accepted, and the earlier tasks reused that were still running
    const followed: Followed[] = [
      ...accepted.map(({ task, items: group, at }) => ({
        taskId: task.task_id,
        at,
        rowsOf: async (record: EvaluationResult) => {
          const labels = group.map((item) => ({ label: item.label, studentId: item.fields.student_id }));
          const outcomes = (await itemOutcomes(client, record, labels, context.signal)) as AnswerOutcome[];
          // a replayed batch's items were charged when it was first sent, not by this run
          return task.replayed ? outcomes.map((outcome) => ({ ...outcome, replayed: true })) : outcomes;
        },
        failed: (i: number) => ledger.failed(task.task_id, at[i], i),
      })),
      ...reuse.earlier
        .filter((earlier) => !isFinalStatus(earlier.task.status))
        .map((earlier) => ({
          taskId: earlier.taskId,
          at: earlier.places.map((place) => place.at),
          rowsOf: (record: EvaluationResult) => reusedOutcomes(client, earlier, record, distinct, context.signal),
          failed: (i: number) => ledger.failedBefore(earlier.places[i].at, earlier.places[i].marked),
        })),
    ];
    const progress = await batchProgress(
      context,
      followed.map(({ taskId }) => taskId),
      followed.reduce((n, { at }) => n + rowsIn(at), 0),
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
    // the items of the batches refused or never sent: a row each, saying why; then those reused from earlier
    // tasks that had ended (before the others, so they never hold back --json's order)
    const unsentRows: [number, AnswerOutcome][] = [];
    for (let index = accepted.length; index < sends.length; index++)
      for (const at of sends[index].at) {
        const { label, fields } = items[at];
        const why =
          index === accepted.length
            ? `not sent: ${refused instanceof ConnectionError ? 'its batch could not be sent' : 'the service refused its batch'} (${(refused as Error).message})`
            : `not sent: the run stopped after batch ${accepted.length + 1}/${groups.length} was ${notSentWord(refused)} (${(refused as Error).message})`;
        unsentRows.push([at, { file: label, student_id: fields.student_id, status: 'NOT_SENT', message: why }]);
      }
    addRows(unsentRows);
    addRows(reuse.rows);
    finishedItems += reuse.rows.reduce((n, [at]) => n + rowsOf(at), 0);
    try {
      await Promise.all(
        followed.map(async ({ taskId, at, rowsOf: outcomesOf, failed }) => {
          try {
            await poller.watch(taskId, timings.startMs ?? 0, at.length);
          } catch (error) {
            if (error instanceof WatchTimeoutError) {
              late.push(taskId);
              return;
            }
            throw error;
          }
          const outcomes = await outcomesOf(await client.result(taskId, { signal: context.signal }));
          const rows: AnswerOutcome[] = [];
          addRows(outcomes.map((outcome, i) => [at[i], outcome]));
          outcomes.forEach((outcome, i) => {
            rows.push(outcome, ...(distinct.copies.get(at[i]) ?? []).map(() => outcome));
            if (isUnsuccessfulFinal(outcome.status)) failed(i);
          });
          finished.push(taskId);
          finishedItems += rows.length;
          progress.finished(taskId, rows);
        }),
      );
    } catch (error) {
      await writer.stop().catch(() => writer.discard());
      if (error instanceof InterruptedError || context.signal.aborted)
        throw stopped(
          followed.map(({ taskId }) => taskId).filter((id) => !finished.includes(id)),
          finishedItems,
        );
      throw error;
    } finally {
      progress.stop();
    }
    // rows of batches still running at the deadline are not printed, and count as the time-outs they are
    for (const { taskId, at } of followed)
      if (late.includes(taskId))
        for (const i of at)
          for (const row of [distinct.rows[i], ...(distinct.copies.get(i) ?? [])]) {
            writer.skip(row);
            exit.count({ file: manifest[row].label, status: 'TIMEOUT', task_id: taskId });
          }
    // a folder's subfolders not entered (and student folders with nothing to send) are rows, after the items
    for (const [i, row] of unsent.entries())
      add({ file: row.label, student_id: row.studentId, status: row.status, message: row.reason }, manifest.length + i);
    await writer.finish();
    if (refused !== undefined) throw refused;
    // the same command sends again each item that failed (a request of its own: reuse.ts), reusing the marks
    exit.throwExitStatus({ anySent: true, timeoutMs: timings.timeoutMs, markAgain: options.markAgain, ownKeys: keyRule.kind === 'base' });
  } finally {
    ledger.close();
  }
}

/** Whether the items may be marked on different rubrics: several models named, or a rubric of an item's own. */
function severalRubrics(manifest: readonly ManifestItem[]): boolean {
  return new Set(manifest.map((item) => item.fields.model_id)).size > 1 || manifest.some((item) => item.fields.rubrics !== undefined);
}
