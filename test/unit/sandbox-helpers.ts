// Shared by the sandbox-*.test.ts files: a real sandbox on a free port and a tiny HTTP helper.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, FormData, request } from 'undici';
import { afterAll, beforeAll, expect } from 'vitest';
import type { RunningSandbox, SandboxOptions } from '../../packages/sandbox/src/server.js';
import { startSandbox } from '../../packages/sandbox/src/server.js';
import { type Db, openDatabase } from '../../packages/sandbox/src/store/db.js';
import { seedIfEmpty } from '../../packages/sandbox/src/store/seed.js';
import type { DriverName } from '../../packages/sandbox/src/store/sqlite/driver.js';
import { Store } from '../../packages/sandbox/src/store/store.js';
import type { NewTask } from '../../packages/sandbox/src/tasks/accept.js';
import { advance } from '../../packages/sandbox/src/tasks/transitions.js';

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

export interface TestSandbox extends RunningSandbox {
  dataDir: string;
  call(
    method: string,
    path: string,
    init?: { key?: string | null; json?: unknown; form?: FormData; headers?: Record<string, string>; rawBody?: string },
  ): Promise<Reply>;
  /** Polls the status snapshot every 20 ms until `done` holds (default: a final status). */
  waitFor(taskId: string, key: string, done?: (snapshot: any) => boolean, timeoutMs?: number): Promise<any>;
  /** Stops the server and deletes the data dir. */
  dispose(): Promise<void>;
}

/**
 * This undici's own dispatcher, passed on every request: on Node 24 the global one can be Node's
 * bundled undici, which cannot read this undici's FormData and never sends the body
 * (nodejs/undici#5520; README "Supported Node.js versions").
 */
export const dispatcher = new Agent();

/** A multipart form of text fields `[name, value]` and text/plain files `[name, content, filename]`, in order. */
export function textForm(...parts: ([name: string, value: string] | [name: string, content: string, filename: string])[]): FormData {
  const form = new FormData();
  for (const [name, value, filename] of parts) {
    if (filename === undefined) form.append(name, value);
    else form.append(name, new Blob([value], { type: 'text/plain' }), filename);
  }
  return form;
}

export async function makeDataDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'kct-sbx-'));
}

/**
 * One sandbox for the whole test file: started before its first test, stopped (its data dir
 * deleted) after its last. Use it inside tests and hooks: it does not exist before beforeAll.
 */
export function sandboxForFile(options: Partial<SandboxOptions> = {}): TestSandbox {
  let started: TestSandbox | undefined;
  beforeAll(async () => {
    started = await launch(options);
  });
  afterAll(async () => {
    await started?.dispose();
  });
  return new Proxy({} as TestSandbox, {
    get(_, name) {
      if (!started) throw new Error("the file's sandbox starts in beforeAll: use it inside a test or a hook");
      return Reflect.get(started, name);
    },
  });
}

/** A seeded database on a fresh data dir, without HTTP (the store, queue and transition tests). */
export interface SeededStore {
  dir: string;
  db: Db;
  store: Store;
  /** The seeded account `user`. */
  userId: number;
}

export async function openSeededStore(driver?: DriverName): Promise<SeededStore> {
  const dir = await makeDataDir();
  const db = openDatabase(dir, { driver });
  const store = new Store(db);
  seedIfEmpty(store, dir);
  const userId = (db.prepare(`SELECT id FROM users WHERE name = 'user'`).get() as { id: number }).id;
  return { dir, db, store, userId };
}

/** A result a worker could store, for the tests that complete tasks without marking them. */
export const RESULT = { score: 1, max_score: 2, evaluation: [], rubrics: [] };
/** The moves of a task from QUEUED to PROGRESS, in order. */
export const STAGES = [
  ['QUEUED', 'UPLOADING'],
  ['UPLOADING', 'SUBMITTED'],
  ['SUBMITTED', 'PROGRESS'],
] as const;

let tasksMade = 0;
/** A one-pass task of the user `ownerUserId` on model 12, costing `cost`, with a fresh id. */
export function onePassTask(ownerUserId: number, cost: number, extra: Partial<NewTask> = {}): NewTask {
  tasksMade += 1;
  return {
    task_id: `tsk_t${tasksMade}`,
    kind: 'one_pass',
    owner_user_id: ownerUserId,
    scope: 'user',
    model_id: 12,
    student_id: null,
    credit_cost: cost,
    input: { n: tasksMade },
    files: [],
    ...extra,
  };
}

/** Moves a queued task to PROGRESS; each move is a compare-and-swap that must succeed. */
export function toProgress(store: Store, taskId: string): void {
  for (const [from, to] of STAGES) expect(advance(store, taskId, from, to)).toBe(true);
}

/** Closes the database a test ended with (it may have reopened it) and deletes its data dir. */
export async function closeSeededStore(db: Db, dir: string): Promise<void> {
  db.close();
  await rm(dir, { recursive: true, force: true });
}

export async function launch(options: Partial<SandboxOptions> = {}, dataDir?: string): Promise<TestSandbox> {
  const dir = dataDir ?? (await makeDataDir());
  const running = await startSandbox({ port: 0, dataDir: dir, ...options });
  // called where it listens: baseUrl names publicUrl when one is given
  const base = `${running.listenUrl}${new URL(running.baseUrl).pathname}`;
  const sandbox: TestSandbox = {
    ...running,
    dataDir: dir,
    async call(method, path, init = {}) {
      const headers: Record<string, string> = { ...(init.headers ?? {}) };
      const key = init.key === undefined ? running.keys.user : init.key;
      if (key !== null) headers['x-api-key'] = key;
      let body: string | FormData | undefined;
      if (init.json !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(init.json);
      } else if (init.rawBody !== undefined) {
        body = init.rawBody;
      } else if (init.form) {
        body = init.form;
      }
      const res = await request(base + path, { method: method as 'GET', headers, body, dispatcher });
      const text = await res.body.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON: keep the text so the assertion shows it
      }
      return { status: res.statusCode, headers: res.headers, body: parsed };
    },
    // a minute: a shared CI runner has held a DOCX's task in UPLOADING past 15 s (only a failure waits that long)
    async waitFor(taskId, key, done = (s) => ['SUCCESS', 'FAILURE', 'CANCEL'].includes(s.status), timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const res = await sandbox.call('GET', `/evaluations/${taskId}/status`, { key });
        if (res.status !== 200) throw new Error(`status ${res.status}: ${JSON.stringify(res.body)}`);
        if (done(res.body.data)) return res.body.data;
        if (Date.now() > deadline) throw new Error(`timed out; last snapshot ${JSON.stringify(res.body.data)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async dispose() {
      await running.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
  return sandbox;
}

export const ESSAY = `School uniforms should be compulsory at our school because they reduce pressure on families, 
build a sense of belonging and keep the focus on learning. First, a 2019 survey of 300 parents found that 
most spent less on clothes once uniforms were introduced. Second, students who wear the same clothes are 
judged less by brands. Some argue that uniforms limit self-expression; however, students can still express 
themselves through their ideas, clubs and work. In conclusion, the school board should require uniforms.`;
