// kct batch and this machine's ledger (src/commands/batch/batch-ledger.ts): a batch request is
// charged whole, so a request that would charge again items marked before is refused, nothing sent,
// unless --mark-again pays for them; what kct says it would charge again is exactly what --mark-again
// charges, over generated sequences of manifests (answers added, dropped, reordered, run again); and
// what a batch marked, one-pass reuses.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns, propertySeed } from '../unit/property-runs.js';
import { asUser, creditsOf, FIXTURES, tempDir, useSandbox } from './harness.js';

const shared = useSandbox();
const essay = readFileSync(join(FIXTURES, 'essay.txt'), 'utf8');

function textClass(count: number, tag: string): string {
  const dir = join(tempDir('kct-batch-ledger-'), 'class');
  mkdirSync(dir);
  for (let i = 1; i <= count; i++) writeFileSync(join(dir, `pupil-${i}.txt`), `${essay}\n(${tag} ${i})`);
  return dir;
}

/** "N items of M were sent before on this machine": N, or 0 when kct said nothing. */
const saidAgain = (stderr: string) => Number(/(\d+) items? of \d+ (?:was|were) sent before on this machine/.exec(stderr)?.[1] ?? 0);

describe('kct batch and the ledger', () => {
  it('refuses a request that would charge items marked before, saying how many; --mark-again charges exactly those', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: 4 }),
        // each manifest: which answers of the pool, in which order, some of them more than once (copies)
        fc.array(fc.array(fc.nat(3), { minLength: 1, maxLength: 5 }), { minLength: 2, maxLength: 3 }),
        async (poolSize, picks) => {
          const tag = `ledger property ${runs++} ${Date.now()}`;
          const pool = Array.from({ length: poolSize }, (_, i) => `${essay}\n(${tag} answer ${i})`);
          const kct = asUser(shared.sandbox, 'user', tempDir('kct-batch-ledger-cfg-'));
          const marked = new Set<number>();
          const sent = new Set<string>();
          const dir = tempDir('kct-batch-ledger-manifests-');
          for (const [step, pick] of picks.entries()) {
            const items = pick.map((n) => n % poolSize);
            // a copy is the same answer under another student id: sent once, in the first one's place
            // (the first keeps its id from step to step: a request of other labels is another request)
            const answers = items.filter((n, i, all) => all.indexOf(n) === i);
            const idOf = (i: number) => (items.indexOf(items[i]) === i ? `s${items[i]}` : `s${items[i]}-copy${step}-${i}`);
            const manifest = join(dir, `step-${step}.jsonl`);
            writeFileSync(manifest, `${items.map((n, i) => JSON.stringify({ student_id: idOf(i), paper_content: pool[n] })).join('\n')}\n`);
            // the very request again is the service's replay; any other is charged whole
            const request = answers.join(',');
            const again = sent.has(request) ? 0 : answers.filter((n) => marked.has(n)).length;
            const before = await creditsOf(kct);
            let run = await kct(['batch', manifest, '--model', '12', '--output', 'ndjson']);
            expect(saidAgain(run.stderr), `step ${step}: ${request}\n${run.stderr}`).toBe(again);
            if (again > 0) {
              // never charged twice unless asked: refused, nothing sent, nothing charged
              expect(run.code, run.stderr).toBe(2);
              expect(run.stdout).toBe('');
              expect(run.stderr).toContain('Nothing was sent');
              expect(await creditsOf(kct)).toBe(before);
              run = await kct(['batch', manifest, '--model', '12', '--output', 'ndjson', '--mark-again']);
              expect(saidAgain(run.stderr), `step ${step}: ${request}\n${run.stderr}`).toBe(again);
            }
            expect(run.code, run.stderr).toBe(0);
            // every item a row, in manifest order, each copy flagged and marked as its first
            const rows = run.stdout
              .trim()
              .split('\n')
              .map((line) => JSON.parse(line) as { student_id: string; duplicate_of?: string; score: number; task_id: string });
            // in manifest order (one batch here: NDJSON prints a batch's rows as it ends, in their order)
            const rowOf = new Map(rows.map((row) => [row.student_id, row]));
            expect(rows.map((row) => row.student_id)).toEqual(items.map((_, i) => idOf(i)));
            for (const i of items.keys()) {
              const first = items.indexOf(items[i]);
              expect(rowOf.get(idOf(i))?.duplicate_of, idOf(i)).toBe(first === i ? undefined : idOf(first));
              expect(rowOf.get(idOf(i))?.task_id).toBe(rowOf.get(idOf(first))?.task_id);
            }
            const charged = before - (await creditsOf(kct));
            expect(charged, `step ${step}: ${request}\n${run.stderr}`).toBe(sent.has(request) ? 0 : answers.length);
            sent.add(request);
            for (const n of answers) marked.add(n);
          }
          rmSync(dir, { recursive: true, force: true });
        },
      ),
      {
        examples: [
          [
            2,
            [
              [0, 1],
              [0, 1, 2],
            ],
          ],
          [
            3,
            [
              [0, 1],
              [0, 1],
            ],
          ],
          // found by this property: a request sent again after one of its answers went in another batch is still a replay
          [2, [[1, 0], [0], [1, 0]]],
          // a manifest with a copy: charged for 2, not 3 (42 credits for 14 answers, in kct batch)
          [
            2,
            [
              [0, 1, 0],
              [0, 1],
            ],
          ],
        ],
        numRuns: 3 + propertyRuns(3),
        seed: propertySeed(3434),
      },
    );
  }, 180_000);

  it('--mark-copies sends and charges identical items each on their own; by default they are sent once', async () => {
    const dir = textClass(2, 'batch copies');
    writeFileSync(join(dir, 'pupil-9.txt'), readFileSync(join(dir, 'pupil-1.txt')));
    const before = await creditsOf(shared.kct);
    const once = await shared.kct(['batch', dir, '--model', '12', '--output', 'csv', '--no-wait']);
    expect(once.code, once.stderr).toBe(0);
    expect(once.stderr).toContain('1 item of 3 is identical to another of the manifest');
    expect(once.stdout).toMatch(/,2,2\n$/); // one batch of 2 items, costing 2
    // the batch holds each answer once: kct result of it has no row for the copy, and kct says so
    expect(once.stderr).toContain('kct result lists the 2 items sent, not the copy: run this command again');
    // all 3 are a request the service has not seen, 2 of its items marked before: paid for again only when asked
    const refused = await shared.kct(['batch', dir, '--model', '12', '--output', 'ndjson', '--mark-copies']);
    expect(refused.code, refused.stderr).toBe(2);
    const each = await shared.kct(['batch', dir, '--model', '12', '--output', 'ndjson', '--mark-copies', '--mark-again']);
    expect(each.code, each.stderr).toBe(0);
    expect(each.stderr).not.toContain('identical to another');
    expect(each.stdout).not.toContain('duplicate_of');
    // the first batch (2 items) and the batch of all 3, which the service has not seen
    expect(before - (await creditsOf(shared.kct))).toBe(5);
  });

  it('says before sending that items marked before are charged again in a new request, and one-pass reuses what a batch marked', async () => {
    const dir = textClass(2, 'batch ledger');
    const before = await creditsOf(shared.kct);
    const first = await shared.kct(['batch', dir, '--model', '12', '--output', 'ndjson']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).not.toContain('sent before on this machine');
    // the same manifest again: the service replays the batch, nothing to say, nothing charged
    const again = await shared.kct(['batch', dir, '--model', '12', '--output', 'ndjson']);
    expect(again.stderr).not.toContain('sent before on this machine');
    expect(before - (await creditsOf(shared.kct))).toBe(2);
    // a late answer added: a new request, which would charge the first two again: refused, nothing sent
    writeFileSync(join(dir, 'pupil-3.txt'), `${readFileSync(join(FIXTURES, 'essay.txt'), 'utf8')}\n(batch ledger late)`);
    const refused = await shared.kct(['batch', dir, '--model', '12', '--output', 'ndjson']);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain(
      'error: 2 items of 3 were sent before on this machine: a batch request is charged whole, so this manifest would charge them again. Nothing was sent.',
    );
    expect(refused.stderr).toContain('kct one-pass <files> --via batch, which reuses earlier marks');
    expect(before - (await creditsOf(shared.kct))).toBe(2);
    // asked to: charged whole, and said so first
    const more = await shared.kct(['batch', dir, '--model', '12', '--output', 'ndjson', '--mark-again']);
    expect(more.code, more.stderr).toBe(0);
    expect(more.stderr).toContain(
      '2 items of 3 were sent before on this machine; a batch request is charged whole, so with --mark-again they are charged again',
    );
    expect(before - (await creditsOf(shared.kct))).toBe(5);
    // the answers as files, by one-pass: every one reused from the batches, nothing charged
    const onePass = await shared.kct(['one-pass', dir, '--model', '12', '--output', 'ndjson']);
    expect(onePass.code, onePass.stderr).toBe(0);
    expect(onePass.stderr).toMatch(/3 answers of 3 were sent before/);
    // each named by its batch and its place in it: a batch id alone is no answer's task
    expect(onePass.stderr).toMatch(/item [1-3] of batch tsk_\w+/);
    expect(before - (await creditsOf(shared.kct))).toBe(5);
  });
});
