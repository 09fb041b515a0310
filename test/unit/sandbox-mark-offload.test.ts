// Small marks run inline, one per turn (engines/jobs.ts); when marks are already waiting their
// turn and a worker thread is free, the next one goes to the thread, so a backlog uses both cores.
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { Engines } from '../../src/sandbox/engines/jobs.js';
import type { MarkInput } from '../../src/sandbox/engines/work/mark.js';
import { prepareTask } from '../../src/sandbox/engines/work/prepare.js';
import { ThreadPool, type Job } from '../../src/sandbox/threads/pool.js';
import { ESSAY, closeSeededStore, openSeededStore, type SeededStore } from './sandbox-helpers.js';

let seeded: SeededStore;
let pool: ThreadPool;
let input: MarkInput;

beforeEach(async () => {
  seeded = await openSeededStore();
  const taskDir = join(seeded.dir, 'task');
  const prepared = await prepareTask({ files: [], paperContent: ESSAY, taskDir });
  if (!prepared.ok) throw new Error(prepared.comment);
  input = { kind: 'one_pass', modelId: 12, inputJson: JSON.stringify({ model_id: 12, paper_content: ESSAY }), model: seeded.store.model(12)!, preparedJson: prepared.preparedJson, taskDir };
  pool = new ThreadPool({ size: 1, maxQueued: 8, budgetMs: 20_000, maxMemoryMb: 256 });
});
afterEach(async () => {
  await pool.close();
  await closeSeededStore(seeded.db, seeded.dir);
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
