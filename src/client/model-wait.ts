// Waiting for a new model to be ready to mark with: GET /models polled through the task polling
// loop (spec 4.10's schedule, an overall deadline, an abort signal), the model's post_status read
// as a task's status: ready is SUCCESS, a failed state FAILURE.
import { formatDuration, InterruptedError, NotFoundError, TaskUnsuccessfulError, WatchTimeoutError } from '../api/errors.js';
import type { Model } from '../api/schemas.js';
import { type PollSchedule, TaskPoller } from './poll.js';

/** The neutral advice of a model wait that stopped (src/cli/core/hints.ts words it for kct). */
export const MODEL_TRAINING_ADVICE = 'The model keeps training on the server: check it again later.';
/** A model GET /models never listed while waiting: its id may be wrong, or it was made moments ago. */
const MODEL_NOT_LISTED_ADVICE =
  'GET /models never listed it: check its id among the models the key can use (a model made moments ago may take a while to be listed).';

export interface ModelWaitOptions {
  /** The overall deadline (mandatory, as for tasks). */
  timeoutMs: number;
  signal?: AbortSignal;
  /** The polling schedule: 3 s backing off to 15 s by default. */
  schedule?: PollSchedule;
  /** Told each time the model's post_status changes (`not listed` until GET /models lists it). */
  onProgress?: (status: string, model?: Model) => void;
  /** Told when a look failed for a reason worth looking again for (5xx, 429). */
  onTransientError?: (error: Error) => void;
}

/** The model is still not ready at the deadline; it keeps training. */
export class ModelWaitTimeoutError extends WatchTimeoutError {
  readonly modelId: string;
  /** The status the model had when the wait ran out. */
  readonly status: string;
  constructor(modelId: string, status: string, timeoutMs: number) {
    super([`model ${modelId}`], timeoutMs);
    this.status = status;
    this.message = `model ${modelId} is still ${status} after ${formatDuration(timeoutMs)}`;
    // a model never listed may not be one (a wrong id): "keeps training" would not be true of it
    Object.defineProperty(this, 'suggestion', { value: status === NOT_LISTED ? MODEL_NOT_LISTED_ADVICE : MODEL_TRAINING_ADVICE });
    this.modelId = modelId;
  }
}

/** Waiting for the model stopped (the signal aborted); it keeps training. */
export class ModelWaitInterruptedError extends InterruptedError {
  readonly modelId: string;
  constructor(modelId: string, cause: unknown) {
    super(`stopped waiting for model ${modelId}`, { suggestion: MODEL_TRAINING_ADVICE, cause });
    this.modelId = modelId;
  }
}

const NOT_READY_FINAL = /fail|error|reject|cancel/i;
export const NOT_LISTED = 'not listed';

/** Lists the models (GET /models): what waitForModel needs of the client. */
export type ModelLister = (signal?: AbortSignal) => Promise<Model[]>;

/**
 * Resolves with the model once its post_status is `ready`. Rejects with TaskUnsuccessfulError when
 * it ends in a failed state, ModelWaitTimeoutError at the deadline, ModelWaitInterruptedError on
 * abort, NotFoundError when a model once listed disappears.
 */
export async function waitForModel(listModels: ModelLister, modelId: string | number, options: ModelWaitOptions): Promise<Model> {
  const id = String(modelId);
  let last: Model | undefined;
  let lastStatus: string | undefined;
  const poller = new TaskPoller(
    async (_, signal) => {
      const model = (await listModels(signal)).find((m) => String(m.model_id) === id);
      if (!model) {
        if (last !== undefined)
          throw new NotFoundError({
            status: 404,
            message: `model ${id} is no longer listed by GET /models`,
            method: 'GET',
            url: '/models',
          });
        return { snapshot: { task_id: id, status: 'NOT_LISTED', message: NOT_LISTED } };
      }
      last = model;
      const status = String(model.post_status ?? 'unknown');
      return {
        snapshot: {
          task_id: id,
          status: status === 'ready' ? 'SUCCESS' : NOT_READY_FINAL.test(status) ? 'FAILURE' : status,
          message: status,
        },
      };
    },
    {
      timeoutMs: options.timeoutMs,
      schedule: options.schedule,
      signal: options.signal,
      onUpdate: (snapshot, changed) => {
        if (!changed) return;
        lastStatus = String(snapshot.message);
        options.onProgress?.(lastStatus, last);
      },
      onTransientError: (_, error) => options.onTransientError?.(error),
    },
  );
  try {
    const final = await poller.watch(id);
    if (final.status !== 'SUCCESS')
      throw new TaskUnsuccessfulError(
        { [`model ${id}`]: String(final.message) },
        `model ${id} ended ${String(final.message)}; it cannot be used for marking`,
      );
    return last as Model;
  } catch (error) {
    if (error instanceof InterruptedError) throw new ModelWaitInterruptedError(id, error);
    if (error instanceof WatchTimeoutError) throw new ModelWaitTimeoutError(id, lastStatus ?? NOT_LISTED, options.timeoutMs);
    throw error;
  }
}
