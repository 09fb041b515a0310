// Entry point of the sandbox: `kct sandbox` and every end-to-end test start it through here.

import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { API_PREFIX } from 'kct/api/operations.js';
import type { SandboxStartOptions, StartedSandbox } from 'kct/api/sandbox.js';
import { accountPasswords } from './accounts/accounts.js';
import type { SandboxContext } from './context.js';
import { Engines } from './engines/jobs.js';
import type { GradingEngine } from './engines/llm/types.js';
import { buildApp } from './http/app.js';
import { withoutKeys } from './http/envelope.js';
import { prepareDataDir } from './store/data-dir.js';
import { openDatabase } from './store/db.js';
import { FileArea } from './store/file-area.js';
import type { SandboxKeys } from './store/seed.js';
import { seedIfEmpty, webhookSecret } from './store/seed.js';
import { openSqlite } from './store/sqlite/driver.js';
import { Store } from './store/store.js';
import { settleBatch } from './tasks/batch-parents.js';
import { CallbackSender } from './tasks/callbacks.js';
import { FaultInjector, SLOW_EXTRA_MS } from './tasks/faults.js';
import { Trainer } from './tasks/model-training.js';
import { WorkerPool } from './tasks/queue.js';
import { runTask } from './tasks/worker.js';
import { WriteGroup } from './tasks/write-group.js';
import { ThreadPool } from './threads/pool.js';

export type { SandboxKeys };

/** The password of each seeded account, for the key routes' sign-in (docs/sandbox.md, "Key routes"). */
export type SandboxPasswords = Record<keyof SandboxKeys, string>;

/** The options of the contract (kct/api/sandbox.ts); `kct sandbox` and the tests start it with them. */
export type SandboxOptions = SandboxStartOptions;

/** What every started sandbox hands back: its accounts' secrets, and how to stop it. */
export interface SandboxSecrets {
  keys: SandboxKeys;
  passwords: SandboxPasswords;
  /** Seeded keys revoked through the key routes: they stay revoked. */
  revokedKeys: (keyof SandboxKeys)[];
  /** Signs batch callbacks (Standard Webhooks, `whsec_…`); the same for the life of the data dir. */
  webhookSecret: string;
  close(): Promise<void>;
}

/** A listening sandbox: the contract's StartedSandbox. */
export type RunningSandbox = StartedSandbox;

/** A sandbox whose app is built and whose workers run, without a listening socket (for `inject`). */
export interface SandboxInstance extends SandboxSecrets {
  app: FastifyInstance;
  context: SandboxContext;
}

export const DEFAULT_PORT = 4010;
export const DEFAULT_BODY_LIMIT = 32 * 1024 * 1024;
export const DEFAULT_JOB_TIMEOUT_MS = 180_000;
export const DEFAULT_JOB_MEMORY_MB = 1024;
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
export const DEFAULT_IDLE_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_CONNECTIONS_PER_CLIENT = 256;
export const DEFAULT_MAX_CONNECTIONS_PER_KEY = 64;
/** Jobs of requests (previews, big bodies) that may wait for a thread; more are refused with 503. */
const MAX_WAITING_JOBS = 64;
/** Threads parsing big request bodies: a 30 MB batch takes one about 0.5 s. */
const REQUEST_THREADS = 1;
/** Big bodies that may wait for it, each held in memory meanwhile (up to 32 MB): more get 503. */
const MAX_WAITING_BODIES = 8;
/** Time one body's parse may take on its thread (a 32 MB body: about 0.5 s). */
const REQUEST_JOB_TIMEOUT_MS = 30_000;

export async function createSandbox(options: SandboxOptions): Promise<SandboxInstance> {
  const settings = {
    latencyMs: nonNegative('latencyMs', options.latencyMs ?? 0),
    workers: Math.max(1, Math.floor(nonNegative('workers', options.workers ?? 4))),
    allowPrivateCallbacks: options.allowPrivateCallbacks ?? false,
    timeScale: positive('timeScale', options.timeScale ?? 1),
    bodyLimit: DEFAULT_BODY_LIMIT,
    threads: Math.max(1, Math.floor(positive('threads', options.threads ?? availableParallelism()))),
    jobTimeoutMs: positive('jobTimeoutMs', options.jobTimeoutMs ?? DEFAULT_JOB_TIMEOUT_MS),
    jobMemoryMb: positive('jobMemoryMb', options.jobMemoryMb ?? DEFAULT_JOB_MEMORY_MB),
    connections: {
      requestTimeoutMs: positive('requestTimeoutMs', options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS),
      // The headers are part of the request: their time limit is never longer than the request's.
      headersTimeoutMs: Math.min(
        positive('headersTimeoutMs', options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS),
        options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      ),
      idleTimeoutMs: positive('idleTimeoutMs', options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS),
      maxConnectionsPerClient: Math.floor(
        positive('maxConnectionsPerClient', options.maxConnectionsPerClient ?? DEFAULT_MAX_CONNECTIONS_PER_CLIENT),
      ),
      maxConnectionsPerKey: Math.floor(positive('maxConnectionsPerKey', options.maxConnectionsPerKey ?? DEFAULT_MAX_CONNECTIONS_PER_KEY)),
    },
    ...(options.rateLimit !== undefined ? { rateLimit: rate('rateLimit', options.rateLimit) } : {}),
    ...(options.publicUrl !== undefined ? { publicUrl: publicOrigin(options.publicUrl) } : {}),
    trainingDelayMs: nonNegative('trainingDelayMs', options.trainingDelayMs ?? 0),
    ...(options.log ? { log: redacting(options.log) } : {}),
  };
  const dataDir = resolve(options.dataDir);
  // no usable SQLite driver is said before the data dir holds anything (sandbox.db is made first)
  openSqlite(':memory:').close();
  prepareDataDir(dataDir);
  const db = openDatabase(dataDir);
  // Whatever start-up has opened so far, closed in reverse order: by close(), or at once when
  // start-up fails half-way, so a failed start leaves no database handle, worker or timer behind.
  const opened: (() => unknown)[] = [() => db.close()];
  const closeAll = async () => {
    const failures: unknown[] = [];
    for (const step of opened.splice(0).reverse()) {
      try {
        await step();
      } catch (err) {
        failures.push(err);
      }
    }
    if (failures.length > 0) throw failures[0];
  };
  try {
    const store = new Store(db);
    const keys = seedIfEmpty(store, dataDir, settings.log);
    const passwords = accountPasswords(store, dataDir, settings.log) as SandboxPasswords;
    const revokedKeys = (
      store.prepared('SELECT label FROM api_keys WHERE label IS NOT NULL AND revoked_at IS NOT NULL ORDER BY id').all() as {
        label: keyof SandboxKeys;
      }[]
    ).map((r) => r.label);
    const files = new FileArea(dataDir);
    await files.sweep(store);
    const secret = webhookSecret(db);
    const callbacks = new CallbackSender(store, {
      secret,
      timeScale: settings.timeScale,
      allowPrivate: settings.allowPrivateCallbacks,
      ...(settings.log ? { log: settings.log } : {}),
    });
    opened.push(() => callbacks.close());
    // Loaded only when configured: the deterministic grader needs none of it.
    let grader: GradingEngine | undefined;
    if (options.grader) {
      const { OpenAiGrader } = await import('./engines/llm/engine.js');
      const engine = new OpenAiGrader(options.grader);
      grader = engine;
      opened.push(() => engine.close());
    }
    // Closed after the task pool (below) has stopped: its tasks' jobs end with it.
    const threads = new ThreadPool({
      size: settings.threads,
      maxQueued: MAX_WAITING_JOBS,
      budgetMs: settings.jobTimeoutMs,
      maxMemoryMb: settings.jobMemoryMb,
    });
    opened.push(() => threads.close());
    // Big request bodies are parsed on a thread of their own: never behind a task's OCR.
    const requestThreads = new ThreadPool({
      size: REQUEST_THREADS,
      maxQueued: MAX_WAITING_BODIES,
      budgetMs: REQUEST_JOB_TIMEOUT_MS,
      maxMemoryMb: settings.jobMemoryMb,
    });
    opened.push(() => requestThreads.close());
    const engines = new Engines(threads, requestThreads);
    const taskFinished = (task: { parent_task_id: string | null }) => {
      if (task.parent_task_id && settleBatch(store, task.parent_task_id)) callbacks.kick();
    };
    const writes = new WriteGroup(store);
    const write = <T>(change: () => T) => writes.run(change);
    const pool = new WorkerPool(
      store,
      settings.workers,
      (taskId, signal) =>
        runTask(
          {
            store,
            files,
            engines,
            latencyMs: settings.latencyMs,
            slowMs: Math.round(SLOW_EXTRA_MS / settings.timeScale),
            onFinal: taskFinished,
            write,
            ...(settings.log ? { log: settings.log } : {}),
            ...(grader ? { grader } : {}),
          },
          taskId,
          signal,
        ),
      settings.log,
    );
    opened.push(() => pool.close());
    const trainer = new Trainer(store, settings.log);
    trainer.resume();
    opened.push(() => trainer.close());
    const context: SandboxContext = {
      store,
      files,
      pool,
      engines,
      faults: new FaultInjector(),
      callbacks,
      settings,
      trainer,
      taskFinished,
      ...(grader ? { grader } : {}),
    };
    const app = buildApp(context);
    opened.push(() => app.close());
    await app.ready();
    // With a log: how long the request thread was ever kept from answering (start-up aside), said at close.
    if (settings.log) opened.push(watchEventLoop(settings.log));
    // What a previous process left unfinished carries on now: batches whose last item ended just
    // before it stopped, queued and in-flight tasks, and callbacks still to deliver.
    for (const batchId of store.unsettledBatchIds()) settleBatch(store, batchId);
    pool.kick();
    callbacks.kick();

    let closing: Promise<void> | undefined;
    const close = () => {
      closing ??= closeAll();
      return closing;
    };
    return { app, context, keys, passwords, revokedKeys, webhookSecret: secret, close };
  } catch (err) {
    await closeAll().catch(() => undefined);
    throw err;
  }
}

export async function startSandbox(options: SandboxOptions): Promise<RunningSandbox> {
  const sandbox = await createSandbox(options);
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? DEFAULT_PORT;
  try {
    await sandbox.app.listen({ host, port });
  } catch (err) {
    await sandbox.close();
    throw listenError(err as NodeJS.ErrnoException, host, port);
  }
  const address = sandbox.app.server.address() as AddressInfo;
  const hostForUrl = host.includes(':') ? `[${host}]` : host;
  const listenUrl = `http://${hostForUrl}:${address.port}`;
  // behind --public-url (a proxy, a school network's address) that is what clients are told to use
  const productUrl = sandbox.context.settings.publicUrl ?? listenUrl;
  return {
    baseUrl: `${productUrl}${API_PREFIX}`,
    productUrl,
    listenUrl,
    keys: sandbox.keys,
    passwords: sandbox.passwords,
    revokedKeys: sandbox.revokedKeys,
    webhookSecret: sandbox.webhookSecret,
    close: sandbox.close,
  };
}

/** Why the sandbox could not listen, in words that say what to do; `code` is kept. */
function listenError(err: NodeJS.ErrnoException, host: string, port: number): Error {
  const why: Record<string, string> = {
    EADDRINUSE: `port ${port} on ${host} is already in use (another kct sandbox?). Stop what is using it, or choose another port (0 takes a free one)`,
    EACCES: `this user may not listen on port ${port} on ${host}. Choose a port above 1023 (0 takes a free one)`,
    EADDRNOTAVAIL: `${host} is not an address of this machine. Use 127.0.0.1, or an address this machine has`,
  };
  const reason = err.code ? why[err.code] : undefined;
  if (!reason) return err;
  return Object.assign(new Error(`The sandbox could not start: ${reason}.`, { cause: err }), { code: err.code });
}

/** Starts measuring the request thread's event-loop delay; the returned step logs it and stops. */
function watchEventLoop(log: (line: string) => void): () => void {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  return () => {
    delay.disable();
    const ms = (ns: number) => (ns / 1e6).toFixed(1);
    log(`event loop delay while running: p50 ${ms(delay.percentile(50))} ms, p99 ${ms(delay.percentile(99))} ms, max ${ms(delay.max)} ms`);
  };
}

/** The log never shows a key or a session token, even one a client put in a URL or a header it logged. */
function redacting(log: (line: string) => void): (line: string) => void {
  return (line) => log(withoutKeys(line));
}

/** The origin of a --public-url: http(s), no path, query or credentials. */
function publicOrigin(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RangeError(`publicUrl must be a URL such as https://sandbox.example.org, not "${raw}"`);
  }
  if (
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.username ||
    url.password ||
    url.search ||
    url.hash ||
    (url.pathname !== '/' && url.pathname !== '')
  ) {
    throw new RangeError(
      `publicUrl must be an http(s) origin without path, query or credentials (e.g. https://sandbox.example.org), not "${raw}"`,
    );
  }
  return url.origin;
}

function nonNegative(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`${name} must be a number >= 0`);
  return value;
}

/** Requests a second, to the thousandth (http/rate-limit.ts keeps them in whole milliseconds). */
function rate(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0.001) throw new RangeError(`${name} must be a number of requests a second, at least 0.001`);
  return value;
}

function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`${name} must be a number > 0`);
  return value;
}
