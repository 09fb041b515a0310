// kct batch --no-wait: the tasks that hold the manifest's items (earlier ones whose marks are reused, and
// the batches accepted), each printed as soon as it is known, so a run stopped later (Ctrl-C, a refusal)
// has printed every one it started, in whichever format.
import type { Task } from '../../api/schemas.js';
import type { Context } from '../../cli/core/context.js';
import type { Exporter } from '../../cli/render/export.js';
import type { Column } from '../../cli/render/rows.js';

/** What --no-wait prints of each accepted request: its batch task. */
const ACCEPTED_COLUMNS: Column<Task>[] = [
  { name: 'task_id', header: 'Task', value: (task) => task.task_id },
  { name: 'status', header: 'Status', value: (task) => task.status },
  { name: 'count', header: 'Items', value: (task) => task.count },
  { name: 'credit_cost', header: 'Cost on success', value: (task) => task.credit_cost },
];

/**
 * --no-wait's batch tasks, each printed as it is accepted (a table waits for the last): as the service
 * sent it, or for a replay (its acceptance is the stored one) with its state now, read from its result
 * as one-pass --no-wait does. A replay whose state a Ctrl-C kept from being read is printed without one.
 */
export class AcceptedList {
  private stream?: Awaited<ReturnType<Exporter['stream']>>;
  private readonly tasks: Task[] = [];

  constructor(
    private readonly exporter: Exporter,
    private readonly client: Awaited<ReturnType<Context['client']>>,
    private readonly signal: AbortSignal,
  ) {}

  /** A task accepted now, or `current`: one read just now (an earlier task whose items are reused). */
  async add(accepted: Task, { current = false } = {}): Promise<void> {
    const task = accepted.replayed && !current ? await this.stateNow(accepted) : accepted;
    this.stream ??= await this.exporter.stream(ACCEPTED_COLUMNS);
    this.stream.row(task);
    this.tasks.push(task);
  }

  /** An error stops the run: what was printed is made whole (json's array closed); nothing, if nothing was. */
  async abandon(): Promise<void> {
    await this.stream?.end();
  }

  /** Ends the list (json's array closed; `[]`, or csv's header alone, when none was accepted); the tasks printed. */
  async end(): Promise<Task[]> {
    this.stream ??= await this.exporter.stream(ACCEPTED_COLUMNS);
    await this.stream.end();
    return this.tasks;
  }

  private async stateNow(task: Task): Promise<Task> {
    const { status, stage, credits_charged, ...stored } = task;
    let now: Awaited<ReturnType<typeof this.client.result>>;
    try {
      now = await this.client.result(task.task_id, { signal: this.signal });
    } catch (error) {
      if (this.signal.aborted) return stored as Task; // never the stored state as if it were current
      throw error;
    }
    return {
      ...task,
      ...(typeof now.status === 'string' ? { status: now.status } : {}),
      ...(typeof now.stage === 'string' ? { stage: now.stage } : {}),
      ...(typeof now.credits_charged === 'number' ? { credits_charged: now.credits_charged } : {}),
    };
  }
}
