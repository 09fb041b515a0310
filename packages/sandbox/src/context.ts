// What every route of the sandbox can reach.

import type { Engines } from './engines/jobs.js';
import type { GradingEngine } from './engines/llm/types.js';
import type { ConnectionLimits } from './http/connections.js';
import type { FileArea } from './store/file-area.js';
import type { Store } from './store/store.js';
import type { CallbackSender } from './tasks/callbacks.js';
import type { FaultInjector } from './tasks/faults.js';
import type { Trainer } from './tasks/model-training.js';
import type { WorkerPool } from './tasks/queue.js';

interface SandboxSettings {
  latencyMs: number;
  workers: number;
  allowPrivateCallbacks: boolean;
  timeScale: number;
  bodyLimit: number;
  /** Worker threads for CPU-heavy jobs. */
  threads: number;
  /** Time one job may run on its thread, ms. */
  jobTimeoutMs: number;
  /** Heap of one worker thread, MB. */
  jobMemoryMb: number;
  /** Request, headers and idle timeouts, and the connections one client address and one key may hold. */
  connections: ConnectionLimits;
  /** Requests a second each API key may make (a token bucket per key); absent: no limit. */
  rateLimit?: number;
  /** Origin of the URLs the sandbox hands out (upload URLs): `--public-url`, else the listen address. */
  publicUrl?: string;
  /** How long a model created with POST /models stays `training` (ms). Default 0. */
  trainingDelayMs?: number;
  log?: (line: string) => void;
}

export interface SandboxContext {
  store: Store;
  files: FileArea;
  pool: WorkerPool;
  /** Text extraction, rubric parsing and marking, through the worker-thread pool. */
  engines: Engines;
  faults: FaultInjector;
  callbacks: CallbackSender;
  settings: SandboxSettings;
  /** Makes models created with POST /models ready when their training time comes. */
  trainer: Trainer;
  /** After a task became final outside a worker (a cancel): settles its batch, if any. */
  taskFinished(task: { parent_task_id: string | null }): void;
  /** The language-model engine, when `grader` was configured (also rewrites feedback). */
  grader?: GradingEngine;
}
