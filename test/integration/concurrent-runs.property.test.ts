// Runs started together on one machine (xargs -P, a cron job that overlaps the last) charge each
// answer once, as runs one after the other do: they share the ledger, and one at a time decides what
// to send (src/run/ledger-lock.ts). Over generated pairs of classes that share answers under other
// names, run at the same time with any --jobs and --via, in-process against a real sandbox: the
// credits charged are the distinct answers, and every row is marked.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns, propertySeed } from '../unit/property-runs.js';
import { asUser, creditsOf, FIXTURES, parseJson, tempDir, useSandbox } from './harness.js';

const shared = useSandbox();

describe('runs at the same time on one machine', () => {
  it('charge every answer once, whatever each run calls it', async () => {
    const essay = readFileSync(join(FIXTURES, 'essay.txt'), 'utf8');
    let round = 0;
    await fc.assert(
      fc.asyncProperty(
        // the answers (by number) each class holds, under its own names
        fc.uniqueArray(fc.nat(5), { minLength: 1, maxLength: 4 }),
        fc.uniqueArray(fc.nat(5), { minLength: 1, maxLength: 4 }),
        fc.constantFrom('1', '4'),
        fc.constantFrom('one-pass', 'batch'),
        async (a, b, jobs, via) => {
          round += 1;
          const root = tempDir('kct-concurrent-');
          const write = (name: string, answers: number[]) => {
            mkdirSync(join(root, name));
            for (const n of answers) writeFileSync(join(root, name, `${name}-pupil-${n}.txt`), `${essay}\n(concurrent ${round}.${n})`);
          };
          write('school-a', a);
          write('school-b', b);
          // one machine: the same configuration and state folder for both runs
          const kct = asUser(shared.sandbox, 'user', tempDir('kct-concurrent-cfg-'));
          const before = await creditsOf(kct);
          const args = (name: string) => [
            'one-pass',
            join(root, name),
            '--model',
            '12',
            '--jobs',
            jobs,
            '--via',
            via,
            '--output',
            'ndjson',
          ];
          const runs = await Promise.all([kct(args('school-a')), kct(args('school-b'))]);
          for (const run of runs) {
            expect(run.code, run.stderr).toBe(0);
            const statuses = run.stdout
              .split('\n')
              .filter(Boolean)
              .map((line) => parseJson<{ status: string }>(line).status);
            expect(statuses.every((status) => status === 'SUCCESS')).toBe(true);
          }
          expect(before - (await creditsOf(kct))).toBe(new Set([...a, ...b]).size);
        },
      ),
      { numRuns: propertyRuns(8), seed: propertySeed(1129) },
    );
  }, 240_000);

  it('a run that ends in an error gives the lock back: the next run in the same process is not kept waiting', async () => {
    const essay = readFileSync(join(FIXTURES, 'essay.txt'), 'utf8');
    const dir = tempDir('kct-concurrent-error-');
    writeFileSync(join(dir, 'a.txt'), `${essay}\n(lock given back)`);
    const kct = asUser(shared.sandbox, 'user', tempDir('kct-concurrent-cfg-'));
    // a model that does not exist: refused by the service after the lock was taken
    const refused = await kct(['one-pass', dir, '--model', '9999', '--output', 'ndjson']);
    expect(refused.code).toBe(6);
    const next = await kct(['one-pass', dir, '--model', '12', '--output', 'ndjson'], { timeoutMs: 30_000 });
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).not.toContain('waiting until it has sent');
  });
});
