// kct batch and this machine's ledger (src/commands/batch/reuse.ts, batch-ledger.ts): an answer is
// its content, so an item this machine marked before is not sent again (its mark is reused, flagged
// replayed) and a grown manifest is charged for its new items only, over generated sequences of
// manifest changes (items appended, removed, reordered, edited, duplicated; some that fail) run
// against one sandbox; --mark-again pays again, said first; what a batch marked, one-pass reuses.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stateDir } from '../../src/cli/core/config-store.js';
import { hashFile } from '../../src/client/idempotency.js';
import { identityOf } from '../../src/client/identity.js';
import { Ledger } from '../../src/run/ledger.js';
import { propertyRuns, propertySeed } from '../unit/property-runs.js';
import { asUser, creditsOf, FIXTURES, kctEnv, ndjsonRows, tempDir, useSandbox } from './harness.js';

const shared = useSandbox();
const essay = readFileSync(join(FIXTURES, 'essay.txt'), 'utf8');

function textClass(count: number, tag: string): string {
  const dir = join(tempDir('kct-batch-ledger-'), 'class');
  mkdirSync(dir);
  for (let i = 1; i <= count; i++) writeFileSync(join(dir, `pupil-${i}.txt`), `${essay}\n(${tag} ${i})`);
  return dir;
}

/** One change to the manifest between two runs; `at` picks an item (modulo the manifest's length). */
type Change =
  | { kind: 'append'; fails: boolean }
  | { kind: 'remove'; at: number }
  | { kind: 'reorder'; seed: number }
  | { kind: 'edit'; at: number; fails: boolean }
  | { kind: 'duplicate'; at: number };

const change: fc.Arbitrary<Change> = fc.oneof(
  fc.record({ kind: fc.constant('append' as const), fails: fc.boolean() }),
  fc.record({ kind: fc.constant('remove' as const), at: fc.nat(9) }),
  fc.record({ kind: fc.constant('reorder' as const), seed: fc.nat(99) }),
  fc.record({ kind: fc.constant('edit' as const), at: fc.nat(9), fails: fc.boolean() }),
  fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat(9) }),
);

interface Row {
  student_id: string;
  status: string;
  replayed?: boolean;
  duplicate_of?: string;
}

const FORMATS = ['ndjson', 'csv', 'json'] as const;

/** The rows a run printed, in any of FORMATS (CSV has no replayed column). */
function rowsIn(format: (typeof FORMATS)[number], stdout: string): Row[] {
  if (format === 'ndjson') return ndjsonRows<Row>(stdout);
  if (format === 'json') return JSON.parse(stdout) as Row[];
  return parse(stdout, { columns: true }) as Row[];
}

describe('kct batch and the ledger', () => {
  it('over any sequence of manifest changes: credits charged are the distinct answers ever marked, each run prints a row per item', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 3 }), fc.array(change, { minLength: 1, maxLength: 4 }), async (start, changes) => {
        const tag = `reuse property ${runs++} ${Date.now()}`;
        const kct = asUser(shared.sandbox, 'user', tempDir('kct-batch-ledger-cfg-'));
        const dir = tempDir('kct-batch-ledger-manifests-');
        let made = 0;
        /** A new answer (its text), failing on purpose or not. */
        const answer = (fails: boolean) => `${essay}\n(${tag} answer ${made++})${fails ? ' KCT-SANDBOX-FAIL' : ''}`;
        let ids = 0;
        let manifest = Array.from({ length: start }, () => ({ student_id: `s${ids++}`, paper_content: answer(false) }));
        /** The answers (their texts) marked so far: each charged once, whatever run and place it was in. */
        const marked = new Set<string>();
        const before = await creditsOf(kct);
        for (const [step, next] of [undefined, ...changes].entries()) {
          const at = (n: number) => n % Math.max(1, manifest.length);
          if (next?.kind === 'append') manifest.push({ student_id: `s${ids++}`, paper_content: answer(next.fails) });
          if (next?.kind === 'remove' && manifest.length > 1) manifest.splice(at(next.at), 1);
          if (next?.kind === 'reorder')
            manifest = manifest
              .map((item, i) => ({ item, key: ((i + 1) * (next.seed + 7)) % 11 }))
              .sort((a, b) => a.key - b.key)
              .map(({ item }) => item);
          if (next?.kind === 'edit') manifest[at(next.at)] = { ...manifest[at(next.at)], paper_content: answer(next.fails) };
          if (next?.kind === 'duplicate') manifest.push({ student_id: `s${ids++}`, paper_content: manifest[at(next.at)].paper_content });
          const file = join(dir, `step-${step}.jsonl`);
          writeFileSync(file, `${manifest.map((item) => JSON.stringify(item)).join('\n')}\n`);
          const markedBefore = new Set(marked);
          // each run in another format: every one prints a row per item
          const format = FORMATS[step % FORMATS.length];
          const run = await kct(['batch', file, '--model', '12', '--output', format]);
          const failing = manifest.some((item) => item.paper_content.endsWith('KCT-SANDBOX-FAIL'));
          const context = `step ${step} (${JSON.stringify(next)})\n${run.stderr}`;
          expect(run.code, context).toBe(failing ? 3 : 0);
          // one row per item of the manifest, whatever order they come in
          const rows = rowsIn(format, run.stdout);
          expect(rows.map((row) => row.student_id).sort(), context).toEqual(manifest.map((item) => item.student_id).sort());
          const rowOf = new Map(rows.map((row) => [row.student_id, row]));
          for (const item of manifest) {
            const row = rowOf.get(item.student_id) as Row;
            expect(row.status, context).toBe(item.paper_content.endsWith('KCT-SANDBOX-FAIL') ? 'FAILURE' : 'SUCCESS');
            // an answer marked by an earlier run is reused: flagged replayed, never charged again
            if (markedBefore.has(item.paper_content) && format !== 'csv') expect(row.replayed, `${item.student_id}: ${context}`).toBe(true);
            if (row.status === 'SUCCESS') marked.add(item.paper_content);
          }
          // every answer marked is charged once over all the runs; a failure is never charged
          expect(before - (await creditsOf(kct)), context).toBe(marked.size);
        }
        // the last manifest again: no request but one of what failed (sent again), nothing more charged
        const last = await kct(['batch', join(dir, `step-${changes.length}.jsonl`), '--model', '12', '--output', 'ndjson']);
        const failing = manifest.some((item) => item.paper_content.endsWith('KCT-SANDBOX-FAIL'));
        expect(last.stderr.match(/accepted as tsk_/g)?.length ?? 0, last.stderr).toBe(failing ? 1 : 0);
        expect(before - (await creditsOf(kct))).toBe(marked.size);
      }),
      {
        examples: [
          // a manifest grown by one item, then run again unchanged
          [2, [{ kind: 'append', fails: false }]],
          // an item that fails, then edited so that it is marked: charged once
          [
            1,
            [
              { kind: 'append', fails: true },
              { kind: 'edit', at: 1, fails: false },
            ],
          ],
          [
            2,
            [
              { kind: 'duplicate', at: 0 },
              { kind: 'reorder', seed: 3 },
              { kind: 'remove', at: 0 },
            ],
          ],
        ],
        numRuns: 3 + propertyRuns(3),
        seed: propertySeed(3434),
      },
    );
  }, 300_000);

  it('--mark-copies sends and charges identical items each on their own; by default they are sent once', async () => {
    const dir = textClass(2, 'batch copies');
    writeFileSync(join(dir, 'pupil-9.txt'), readFileSync(join(dir, 'pupil-1.txt')));
    const before = await creditsOf(shared.kct);
    const once = await shared.kct(['batch', dir, '--model', '12', '--output', 'csv', '--no-wait']);
    expect(once.code, once.stderr).toBe(0);
    expect(once.stderr).toContain('1 item of 3 is identical to another of the manifest');
    expect(once.stdout).toMatch(/,2,2\n$/); // one batch of 2 items, costing 2
    // the batch holds each answer once: kct result of it has no row for the copy, and kct says so
    expect(once.stderr).toContain('kct result lists the answers each task holds, not the copy: run this command again');
    // the copies each sent and charged (their earlier mark not reused, as one-pass): said first; the other item reused
    const each = await shared.kct(['batch', dir, '--model', '12', '--output', 'ndjson', '--mark-copies']);
    expect(each.code, each.stderr).toBe(0);
    expect(each.stderr).not.toContain('identical to another');
    // the copy and the item it copies: one answer marked before, charged again for each
    expect(each.stderr).toContain(
      '2 items of 3 were sent before on this machine; a batch request is charged whole, so with --mark-copies they are charged again',
    );
    expect(each.stdout).not.toContain('duplicate_of');
    expect(ndjsonRows(each.stdout).filter((row) => row.replayed)).toHaveLength(1);
    // the first batch (2 items), and the 2 identical items each on their own
    expect(before - (await creditsOf(shared.kct))).toBe(4);
  });

  it('a grown manifest is charged for its new items only; --mark-again pays for the others again, said first; one-pass reuses what a batch marked', async () => {
    const dir = textClass(2, 'batch ledger');
    const before = await creditsOf(shared.kct);
    const first = await shared.kct(['batch', dir, '--model', '12', '--output', 'ndjson']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).not.toContain('marked before on this machine');
    // the same manifest again: nothing sent, every row reused, nothing charged
    const again = await shared.kct(['batch', dir, '--model', '12', '--output', 'ndjson']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toContain('accepted as');
    expect(again.stderr).toContain('2 items of 2 were marked before on this machine');
    expect(ndjsonRows(again.stdout).map((row) => row.replayed)).toEqual([true, true]);
    expect(before - (await creditsOf(shared.kct))).toBe(2);
    // a late answer added: only it is sent and charged
    writeFileSync(join(dir, 'pupil-3.txt'), `${readFileSync(join(FIXTURES, 'essay.txt'), 'utf8')}\n(batch ledger late)`);
    const grown = await shared.kct(['batch', dir, '--model', '12', '--output', 'ndjson']);
    expect(grown.code, grown.stderr).toBe(0);
    expect(grown.stderr).toContain('batch 1/1 accepted as');
    expect(grown.stderr).toContain('(1 item, cost 1 credit on success)');
    expect(ndjsonRows(grown.stdout)).toHaveLength(3);
    expect(before - (await creditsOf(shared.kct))).toBe(3);
    // asked to: charged whole, and said so first
    const more = await shared.kct(['batch', dir, '--model', '12', '--output', 'ndjson', '--mark-again']);
    expect(more.code, more.stderr).toBe(0);
    expect(more.stderr).toContain(
      '3 items of 3 were sent before on this machine; a batch request is charged whole, so with --mark-again they are charged again',
    );
    expect(before - (await creditsOf(shared.kct))).toBe(6);
    // the answers as files, by one-pass: every one reused from the batches, nothing charged
    const onePass = await shared.kct(['one-pass', dir, '--model', '12', '--output', 'ndjson']);
    expect(onePass.code, onePass.stderr).toBe(0);
    expect(onePass.stderr).toMatch(/3 answers of 3 were sent before/);
    // each named by its batch and its place in it: a batch id alone is no answer's task
    expect(onePass.stderr).toMatch(/item [1-3] of batch tsk_\w+/);
    expect(before - (await creditsOf(shared.kct))).toBe(6);
  });

  it('reuses what one-pass marked: only the other item is sent and charged', async () => {
    const dir = textClass(2, 'batch after one-pass');
    const before = await creditsOf(shared.kct);
    const onePass = await shared.kct(['one-pass', join(dir, 'pupil-1.txt'), '--model', '12', '--json']);
    expect(onePass.code, onePass.stderr).toBe(0);
    const run = await shared.kct(['batch', dir, '--model', '12', '--output', 'ndjson']);
    expect(run.code, run.stderr).toBe(0);
    const rows = ndjsonRows<{ file: string; replayed?: boolean }>(run.stdout);
    expect(rows.find((row) => row.file === 'pupil-1.txt')?.replayed).toBe(true);
    expect(rows.find((row) => row.file === 'pupil-2.txt')?.replayed).toBeUndefined();
    expect(before - (await creditsOf(shared.kct))).toBe(2);
  });

  it('sends as new, and charges once, an item whose earlier task this service does not know (a sandbox started afresh)', async () => {
    const configDir = tempDir('kct-batch-gone-');
    const kct = asUser(shared.sandbox, 'user', configDir);
    const item = { student_id: 'gone-1', paper_content: `${essay}\n(a task the service does not know ${Date.now()})`, model_id: 12 };
    const manifest = join(tempDir('kct-batch-gone-manifest-'), 'class.jsonl');
    writeFileSync(manifest, `${JSON.stringify(item)}\n`);
    // this machine's ledger names a batch for the answer that this service never had
    const { ledger } = Ledger.open(stateDir(kctEnv(configDir)), shared.sandbox.baseUrl);
    ledger?.accepted(await identityOf({ ...item }, [], hashFile), { batchId: 'tsk_000000000000000000000000', item: 0 });
    ledger?.close();
    const before = await creditsOf(kct);
    const run = await kct(['batch', manifest, '--model', '12', '--output', 'ndjson']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('batch 1/1 accepted as');
    expect(ndjsonRows(run.stdout).map((row) => [row.status, row.replayed])).toEqual([['SUCCESS', undefined]]);
    expect(before - (await creditsOf(kct))).toBe(1);
    // and the next run reuses it
    const again = await kct(['batch', manifest, '--model', '12', '--output', 'ndjson']);
    expect(ndjsonRows(again.stdout).map((row) => row.replayed)).toEqual([true]);
    expect(before - (await creditsOf(kct))).toBe(1);
  });
});
