// The batch route of a marking run (--via batch): plain-text answers go 100 to a request
// (POST /evaluations/batch), each batch followed as one task, its items' results read from its
// record and printed as their answers' rows. Answers reused from an earlier run's batch are followed
// through that batch, once for all of them.
import { InterruptedError, NotFoundError } from '../api/errors.js';
import type { OnePassFields } from '../api/schemas.js';
import type { Answer } from '../cli/answers/answers.js';
import { itemOutcomes } from '../cli/answers/batch-items.js';
import type { AnswerOutcome } from '../cli/render/outcome.js';
import type { AcceptedTask } from '../client/client.js';
import { batchText, type Chunk, ChunkFiller, emptyChunk } from './batch-chunks.js';
import type { MarkingRun } from './marking.js';
import { retried } from './retries.js';
import { NotSent } from './settings.js';

export class Batches {
  /** Answers sent in batches by this run. */
  sent = 0;
  private readonly chunks = new Map<number, Chunk>();
  private nextChunk = 0;
  private readonly filling = new ChunkFiller();
  /** Batches of earlier runs this run reuses items of, by batch id. */
  private readonly reused = new Map<string, number>();

  constructor(private readonly run: MarkingRun) {}

  /** Puts a plain-text answer in the batch being filled (sent when full); false when it cannot go in a batch. */
  async add(answer: Answer, fields: OnePassFields): Promise<boolean> {
    const text = batchText(answer, answer.files);
    if (text === undefined) return false;
    const full = this.filling.add(answer.index, { ...fields, paper_content: text });
    if (full) await this.send(full);
    return true;
  }

  /** The last batch, however few answers it holds. */
  async sendLast(): Promise<void> {
    const last = this.filling.take();
    if (last) await this.send(last);
  }

  /** POST /evaluations/batch of up to 100 answers; the batch is followed as one task. */
  private async send(chunk: Chunk): Promise<void> {
    const { client, context, keyRule, collection, record } = this.run.settings;
    const body = { evaluations: chunk.fields };
    let task: AcceptedTask;
    try {
      if (record.exit.fatal !== undefined) throw new NotSent();
      if (context.signal.aborted) throw new InterruptedError('interrupted before this batch was sent');
      // a base key is joined to the request's name: its answers' names, never its position
      const names = chunk.rows.map((row) => collection.answerAt(row)?.keyName ?? String(row));
      const idempotency = keyRule.kind === 'base' ? { base: keyRule.base, names } : ('derive' as const);
      for (const row of chunk.rows) record.sent(row, this.run.identityOf(row), undefined);
      task = await client.batch(body, {
        idempotency,
        signal: this.run.submitting(),
        turnSignal: this.run.settings.context.signal,
        patient: true,
      });
    } catch (error) {
      for (const row of chunk.rows) this.run.failed(row, this.run.baseOf(row), undefined, error);
      return;
    } finally {
      chunk.fields = []; // the texts are sent: not kept while the batch is marked
    }
    const replayed = task.replayed === true;
    this.run.accept(task, replayed, chunk.rows.length);
    this.sent += chunk.rows.length;
    this.run.settings.onAccepted?.(task, replayed, chunk.rows.length, 0);
    chunk.rows.forEach((row, item) => {
      const identity = this.run.identityOf(row);
      this.run.tasked.add(row, task.task_id);
      record.accepted(row, identity, { batchId: task.task_id, item }, task.status ?? 'QUEUED', replayed);
    });
    if (!this.run.settings.wait) {
      for (const row of chunk.rows) this.run.emit(row, { ...this.run.baseOf(row), task_id: task.task_id, status: task.status ?? 'QUEUED' });
      return;
    }
    const id = this.nextChunk++;
    chunk.taskId = task.task_id;
    this.chunks.set(id, chunk);
    this.run.follower.watch(
      task.task_id,
      { kind: 'batch', chunk: id },
      { firstPollIn: this.run.settings.firstPollIn, weight: chunk.rows.length },
    );
  }

  /** An answer marked before as item `item` of a batch: the batch is followed once for all its answers of this run. */
  reuse(batchId: string, item: number, row: number): void {
    let id = this.reused.get(batchId);
    if (id === undefined) {
      id = this.nextChunk++;
      this.reused.set(batchId, id);
      this.chunks.set(id, { ...emptyChunk(), taskId: batchId });
    }
    const chunk = this.chunks.get(id)!;
    while (chunk.rows.length <= item) chunk.rows.push(-1);
    chunk.rows[item] = row;
  }

  /** Follows (or, with --no-wait, reads now) every batch answers were reused from. */
  followReused(): void {
    for (const [batchId, id] of this.reused) {
      const weight = this.chunks.get(id)!.rows.filter((row) => row >= 0).length;
      if (this.run.settings.wait) this.run.follower.watch(batchId, { kind: 'batch', chunk: id }, { firstPollIn: 0, weight });
      else void this.finish(id, batchId);
    }
    this.reused.clear();
  }

  /** The rows of a batch the run no longer follows (timed out). */
  drop(id: number): number[] {
    const rows = (this.chunks.get(id)?.rows ?? []).filter((row) => row >= 0);
    this.chunks.delete(id);
    return rows;
  }

  /** Following the batch failed: its answers' rows say so, or those reused from a batch that is gone are sent after all. */
  failed(id: number, error: unknown, taskId: string): void {
    for (const row of this.drop(id)) {
      if (this.run.sendAfterAll(row, error)) continue;
      this.run.failed(row, this.run.baseOf(row), taskId, error);
    }
  }

  /** A batch is final (or, with --no-wait, read now): its record holds every item's result; each becomes its answer's row. */
  async finish(id: number, taskId: string): Promise<void> {
    const chunk = this.chunks.get(id);
    if (!chunk) return;
    this.chunks.delete(id);
    const { client, collection, context } = this.run.settings;
    const sent = chunk.rows.map((row) => {
      if (row < 0) return undefined;
      const answer = collection.answerAt(row);
      return { label: answer?.label ?? `answer ${row + 1}`, studentId: answer?.studentId };
    });
    let outcomes: (AnswerOutcome | undefined)[];
    try {
      const record = await this.run.follower.readResult(() => client.result(taskId, { signal: context.signal }));
      outcomes = await itemOutcomes(client, record, sent, context.signal);
    } catch (error) {
      for (const row of chunk.rows.filter((row) => row >= 0)) {
        if (error instanceof NotFoundError && this.run.sendAfterAll(row, error)) continue;
        this.run.failed(row, this.run.baseOf(row), taskId, error);
      }
      return;
    }
    await Promise.all(
      chunk.rows.map(async (row, item) => {
        const outcome = outcomes[item];
        if (row < 0 || !outcome) return;
        const answer = collection.answerAt(row);
        try {
          if (this.run.settings.wait && (outcome.status === 'FAILURE' || outcome.status === 'CANCEL') && this.run.sendAfterAll(row)) return;
          if (answer && outcome.result && (await retried(this.run, row, answer, outcome.result))) return;
          this.run.emit(row, outcome, answer);
        } catch (error) {
          this.run.failed(row, outcome, outcome.task_id, error);
        }
      }),
    );
  }
}
