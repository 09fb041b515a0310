// A class run killed halfway (SIGKILL, as a crash or an OOM kill would) and run again: no task
// twice, each answer (each content) charged once. Only a real process can be killed so; the rest of a class run
// is test/integration/class-one-pass.test.ts.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { makeClass, type Row } from './class-fixture.js';
import { asUser, creditsOf, parseJson, startSandbox } from './harness.js';

describe('safe to run again', () => {
  it('a run killed halfway (SIGKILL) and run again: no task twice, each answer charged once', async () => {
    const slow = await startSandbox({ latencyMs: 40 });
    const run = asUser(slow);
    try {
      const dir = makeClass();
      const before = await creditsOf(run);
      const firstIds = new Map<string, string>();
      let killed = false;
      const first = await run(['one-pass', dir, '--model', '12', '--jobs', '4', '--output', 'ndjson'], {
        timeoutMs: 120_000,
        onSpawn(child) {
          let seen = '';
          child.stdout!.on('data', (chunk: Buffer) => {
            seen += chunk.toString();
            const lines = seen.split('\n').filter(Boolean);
            if (!killed && lines.length >= 5) {
              killed = true;
              child.kill('SIGKILL');
            }
          });
        },
      });
      expect(first.signal).toBe('SIGKILL');
      for (const line of first.stdout.split('\n').filter((l) => l.startsWith('{'))) {
        try {
          const row = JSON.parse(line) as Row;
          firstIds.set(row.file, row.task_id!);
        } catch {
          // the line being written at the kill may be torn
        }
      }
      expect(firstIds.size).toBeGreaterThanOrEqual(5);

      const second = await run(['one-pass', dir, '--model', '12', '--jobs', '4', '--output', 'ndjson'], { timeoutMs: 120_000 });
      expect(second.code).toBe(0);
      const rows = second.stdout
        .trim()
        .split('\n')
        .map((line) => parseJson<Row>(line));
      expect(rows).toHaveLength(30);
      for (const [file, id] of firstIds) expect(rows.find((row) => row.file === file)?.task_id).toBe(id);
      // each task once (identical answers share one), each charged once
      const byTask = new Map(rows.map((row) => [row.task_id, row.credits_charged ?? 0]));
      const charged = [...byTask.values()].reduce((sum, credits) => sum + credits, 0);
      expect(before - (await creditsOf(run))).toBe(charged);
      const contents = new Set(rows.map((row) => readFileSync(row.file).toString('base64')));
      expect(byTask.size).toBe(contents.size);
    } finally {
      await slow.stop();
    }
  }, 240_000);
});
