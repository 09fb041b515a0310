// A copy (an answer with the same identity as another of its run) is charged with its first, and
// flagged `replayed` only when that first has a task to share. Over generated classes with copies,
// run by one-pass and by batch against a server that never accepts them (unreachable, or refusing
// for want of credits): every row is NOT_SENT, none claims a replay or a charge, and the summary
// says nothing was charged. One-pass once flagged a never-sent copy `"replayed": true` and said
// "1 identical answer charged once with its first".

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { closedPort } from '../unit/closed-port.js';
import { propertyRuns, propertySeed } from '../unit/property-runs.js';
import { asUser, tempDir, useSandbox } from './harness.js';

const shared = useSandbox();

interface Row {
  file: string | null;
  student_id: string | null;
  task_id: string | null;
  status: string;
  credits_charged: number | null;
  duplicate_of?: string;
  replayed?: boolean;
}

describe('copies of answers never accepted', () => {
  it('are NOT_SENT rows with no replay and no charge, in one-pass and in batch', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        // which of a pool of distinct answers each file holds: a number seen twice is a copy
        fc.array(fc.nat(2), { minLength: 2, maxLength: 5 }),
        fc.constantFrom('one-pass' as const, 'batch' as const),
        fc.constantFrom('unreachable' as const, 'refused' as const),
        async (picks, command, server) => {
          const tag = `unsent copies ${runs++} ${Date.now()}`;
          const texts = picks.map((n) => `Schools should not require uniforms, answer ${n} (${tag}): they cost families money.`);
          const dir = join(tempDir('kct-unsent-copies-'), 'class');
          mkdirSync(dir);
          const ids = picks.map((_, i) => `pupil-${i + 1}`);
          texts.forEach((text, i) => writeFileSync(join(dir, `${ids[i]}.txt`), `${text}\n`));
          const manifest = join(dir, '..', 'manifest.jsonl');
          writeFileSync(manifest, `${texts.map((text, i) => JSON.stringify({ student_id: ids[i], paper_content: text })).join('\n')}\n`);
          const base =
            server === 'unreachable'
              ? { baseUrl: `http://127.0.0.1:${await closedPort()}/v1`, keys: shared.sandbox.keys }
              : { ...shared.sandbox, keys: { ...shared.sandbox.keys, user: shared.sandbox.keys.broke } };
          const kct = asUser(base, 'user', tempDir('kct-unsent-copies-cfg-'));
          const input =
            command === 'one-pass'
              ? [dir, '--model', server === 'refused' ? '15' : '12']
              : [manifest, '--model', server === 'refused' ? '15' : '12'];
          const run = await kct([command, ...input, '--output', 'ndjson'], { env: { KCT_MAX_RETRIES: '0' } });
          expect(run.code, run.stderr).toBe(server === 'unreachable' ? 9 : 5);
          const rows = run.stdout
            .trim()
            .split('\n')
            .map((line) => JSON.parse(line) as Row);
          // every file a row, none sent, none charged, none a replay
          expect(rows.map((row) => row.student_id).sort()).toEqual([...ids].sort());
          for (const row of rows) {
            expect(row, run.stdout).toMatchObject({ status: 'NOT_SENT', task_id: null, credits_charged: null });
            expect(row.replayed, `${row.student_id}\n${run.stdout}`).toBeUndefined();
          }
          // each copy still names the answer it copies
          const copies = picks.filter((n, i) => picks.indexOf(n) !== i).length;
          expect(rows.filter((row) => row.duplicate_of !== undefined).length).toBeGreaterThanOrEqual(copies);
          expect(run.stderr).not.toMatch(/charged once with its first|not seen finished may still be/);
        },
      ),
      {
        examples: [
          [[0, 0], 'one-pass', 'unreachable'],
          [[0, 1, 0], 'batch', 'unreachable'],
        ],
        numRuns: 4 + propertyRuns(4),
        seed: propertySeed(4711),
      },
    );
  }, 180_000);
});
