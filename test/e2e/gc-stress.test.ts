// The sandbox under forced garbage collection (node --expose-gc and test/e2e/preload/gc-stress.mjs:
// a young-generation collection as each request starts, a full one every 50 ms) while kct marks
// a class of 200 answers. better-sqlite3 12 aborted Node 24.19+ when a statement was collected;
// .ci/run runs this file under Node 20, 22 and 24.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { FIXTURES, ROOT, asUser, creditsOf, parseJson, startSandbox, tempDir, type Sandbox } from './harness.js';

const ANSWERS = 200;
const preload = pathToFileURL(join(ROOT, 'test', 'e2e', 'preload', 'gc-stress.mjs')).href;

let sandbox: Sandbox | undefined;
afterAll(async () => {
  await sandbox?.stop();
});

it(`marks ${ANSWERS} answers through kct while the sandbox collects garbage between requests`, async () => {
  const counted = join(tempDir('kct-gc-'), 'collections');
  sandbox = await startSandbox({ latencyMs: 0, nodeArgs: ['--expose-gc', `--import=${preload}`], env: { GC_STRESS_COUNT_FILE: counted } });
  const kct = asUser(sandbox);
  const sentences = readFileSync(join(FIXTURES, 'essay.txt'), 'utf8').split(/(?<=\.)\s+/);
  const dir = tempDir('kct-gc-class-');
  for (let i = 1; i <= ANSWERS; i++) {
    writeFileSync(join(dir, `student-${String(i).padStart(3, '0')}.txt`), `${sentences.slice(0, 3 + (i % 12)).join(' ')} (${i})`);
  }
  const before = await creditsOf(kct);

  const run = await kct(['one-pass', dir, '--model', '12', '--jobs', '8', '--output', 'ndjson'], { timeoutMs: 240_000 });
  expect(run.stderr).not.toContain('error:');
  expect(run.code).toBe(0);
  const rows = run.stdout.trim().split('\n').map((line) => parseJson<{ status: string; task_id: string; credits_charged: number }>(line));
  expect(rows).toHaveLength(ANSWERS);
  expect(rows.filter((row) => row.status !== 'SUCCESS')).toEqual([]);
  expect(new Set(rows.map((row) => row.task_id)).size).toBe(ANSWERS);
  const charged = rows.reduce((sum, row) => sum + row.credits_charged, 0);
  expect(before - (await creditsOf(kct))).toBe(charged);

  // It is still the same process, alive and answering, and it stops cleanly.
  expect(sandbox.process.exitCode).toBeNull();
  await sandbox.stop();
  expect(sandbox.process.signalCode).toBeNull();
  expect(sandbox.process.exitCode).toBe(0);
  expect(sandbox.stderr()).toBe('');
  // At least one full collection per request: the preload really ran in the sandbox.
  expect(Number(readFileSync(counted, 'utf8'))).toBeGreaterThanOrEqual(ANSWERS * 2);
}, 300_000);
