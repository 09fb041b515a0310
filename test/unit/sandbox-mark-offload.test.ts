// Small marks run inline, one per turn (engines/jobs.ts); when marks are already waiting their
// turn and a worker thread is free, the next one goes to the thread, so a backlog uses both cores.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { Engines } from '../../src/sandbox/engines/jobs.js';
import type { MarkInput } from '../../src/sandbox/engines/work/mark.js';
import { prepareTask } from '../../src/sandbox/engines/work/prepare.js';
import { openDatabase, type Db } from '../../src/sandbox/store/db.js';
import { seedIfEmpty } from '../../src/sandbox/store/seed.js';
import { Store } from '../../src/sandbox/store/store.js';
import { ThreadPool, type Job } from '../../src/sandbox/threads/pool.js';
import { ESSAY, makeDataDir } from './sandbox-helpers.js';

let dir: string;
let db: Db;
let pool: ThreadPool;
let input: MarkInput;

beforeEach(async () => {
  dir = await makeDataDir();
  db = openDatabase(dir);
  const store = new Store(db);
  seedIfEmpty(store, dir);
  const taskDir = join(dir, 'task');
  const prepared = await prepareTask({ files: [], paperContent: ESSAY, taskDir });
  if (!prepared.ok) throw new Error(prepared.comment);
  input = { kind: 'one_pass', modelId: 12, inputJson: JSON.stringify({ model_id: 12, paper_content: ESSAY }), model: store.model(12)!, preparedJson: prepared.preparedJson, taskDir };
  pool = new ThreadPool({ size: 1, maxQueued: 8, budgetMs: 20_000, maxMemoryMb: 256 });
});
afterEach(async () => {
  await pool.close();
  db.close();
  await rm(dir, { recursive: true, force: true });
});

const markJobs = (run: { mock: { calls: [Job, ...unknown[]][] } }) => run.mock.calls.filter(([job]) => job.fn === 'markTask').length;

test('one small mark at a time runs inline', async () => {
  const engines = new Engines(pool);
  const run = vi.spyOn(pool, 'run');
  const first = await engines.markTask(input);
  const second = await engines.markTask(input);
  expect(first.ok).toBe(true);
  expect(second).toEqual(first);
  expect(markJobs(run)).toBe(0);
});

test('marks that back up go to a free thread, and come back the same as inline', async () => {
  const engines = new Engines(pool);
  const run = vi.spyOn(pool, 'run');
  // the first waits for its turn inline; the second finds it waiting and the thread free; the
  // third finds the one thread busy and waits inline
  const marks = await Promise.all([engines.markTask(input), engines.markTask(input), engines.markTask(input)]);
  expect(markJobs(run)).toBe(1);
  expect(marks[0]!.ok).toBe(true);
  expect(marks[1]).toEqual(marks[0]);
  expect(marks[2]).toEqual(marks[0]);
});
