// Never charged twice (issue 11, items 2, 3): a key given with --idempotency-key is tied to each
// answer's identity, never its position; an empty or unusable key is refused before anything is sent.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { asUser, creditsOf, FIXTURES, parseJson, tempDir, useSandbox } from './harness.js';

interface Row {
  file: string;
  task_id: string;
  status: string;
  credits_charged: number | null;
}

const essay = readFileSync(join(FIXTURES, 'essay.txt'), 'utf8');
const shared = useSandbox();
const rowsOf = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((line) => parseJson<Row>(line));

describe('--idempotency-key on a folder', () => {
  it('adding a file and running again charges each answer exactly once', async () => {
    const dir = tempDir('kct-keys-');
    const key = `class9-${Date.now()}`;
    writeFileSync(join(dir, 'a2.txt'), `${essay}\nanswer two`);
    writeFileSync(join(dir, 'a3.txt'), `${essay}\nanswer three`);
    const before = await creditsOf(shared.kct);
    const first = await shared.kct(['one-pass', dir, '--model', '12', '--idempotency-key', key, '--output', 'ndjson', '--debug']);
    expect(first.code).toBe(0);
    // the keys name the answers, not their places
    expect(first.stderr).toContain(`> idempotency-key: ${key}-a2.txt`);
    expect(first.stderr).toContain(`> idempotency-key: ${key}-a3.txt`);
    writeFileSync(join(dir, 'a1.txt'), `${essay}\nanswer one, added later`);
    const second = await shared.kct(['one-pass', dir, '--model', '12', '--idempotency-key', key, '--output', 'ndjson']);
    expect(second.code).toBe(0);
    const ids = (rows: Row[]) => Object.fromEntries(rows.map((row) => [row.file.slice(dir.length + 1), row.task_id]));
    const was = ids(rowsOf(first.stdout));
    const now = ids(rowsOf(second.stdout));
    expect(now['a2.txt']).toBe(was['a2.txt']);
    expect(now['a3.txt']).toBe(was['a3.txt']);
    expect(Object.keys(now).sort()).toEqual(['a1.txt', 'a2.txt', 'a3.txt']);
    expect(before - (await creditsOf(shared.kct))).toBe(3);
  });

  it('a changed file under the same key is a 409 naming the file and what to do (exit 7)', async () => {
    const dir = tempDir('kct-keys-changed-');
    const key = `changed-${Date.now()}`;
    writeFileSync(join(dir, 'ben.txt'), `${essay}\nfirst draft`);
    expect((await shared.kct(['one-pass', dir, '--model', '12', '--idempotency-key', key, '--output', 'csv'])).code).toBe(0);
    writeFileSync(join(dir, 'ben.txt'), `${essay}\nsecond draft`);
    const again = await shared.kct(['one-pass', dir, '--model', '12', '--idempotency-key', key, '--output', 'csv']);
    expect(again.code).toBe(7);
    expect(again.stderr).toContain(
      `the key ${key}-ben.txt was sent before with another answer than ${join(dir, 'ben.txt')} (this file changed since`,
    );
    expect(again.stderr).toContain('run again with a new --idempotency-key');
  });

  it('--help and the key in a single run say exactly how keys are made', async () => {
    const help = await shared.kct(['one-pass', '--help'], { env: { KCT_NO_HELP_CACHE: '1' } });
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('<key>-<its path relative to its folder, or its --student-id>');
    const dir = tempDir('kct-keys-one-');
    writeFileSync(join(dir, 'essay.txt'), `${essay}\nonly one`);
    const run = await shared.kct([
      'one-pass',
      join(dir, 'essay.txt'),
      '--model',
      '12',
      '--student-id',
      's-042',
      '--idempotency-key',
      'uniform-essay',
      '--no-wait',
      '--debug',
    ]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('> idempotency-key: uniform-essay-s-042');
    // let it finish here, so its charge does not land inside a later test's before/after
    const taskId = /kct (?:status|result) (\S+)/.exec(run.stdout)?.[1];
    expect(taskId, run.stdout).toBeDefined();
    expect((await shared.kct(['status', taskId!, '--watch', '--json'])).code).toBe(0);
  });
});

describe('keys that would turn idempotency off', () => {
  for (const [name, key] of [
    ['empty', ''],
    ['white space', '   '],
    ['with a space', 'class 9'],
    ['not ASCII', 'clé-9'],
    ['a control character', 'k\u0007'],
  ] as const) {
    it(`one-pass and batch refuse a key that is ${name}: exit 2, nothing sent`, async () => {
      const before = await creditsOf(shared.kct);
      const run = await shared.kct(['one-pass', '--model', '12', '--text', `${essay} (${name})`, '--idempotency-key', key, '--debug']);
      expect(run.code).toBe(2);
      // empty, as every flag: an unset shell variable (define-command.ts); otherwise the key's own check (idempotency.ts)
      expect(run.stderr).toMatch(/--idempotency-key(: it is empty \(an unset shell variable\?\)| may hold only visible ASCII)/);
      expect(run.stderr).not.toContain('> POST');
      const manifest = join(tempDir(), 'items.jsonl');
      writeFileSync(manifest, `${JSON.stringify({ paper_content: essay, student_id: 's1' })}\n`);
      const batch = await shared.kct(['batch', manifest, '--model', '12', '--idempotency-key', key, '--debug']);
      expect(batch.code).toBe(2);
      expect(batch.stderr).not.toContain('> POST');
      expect(await creditsOf(shared.kct)).toBe(before);
    });
  }
});

describe('--idempotency-key on a batch', () => {
  it("is joined to the identity of the request's items: the same manifest again is the same batch, charged once", async () => {
    const dir = tempDir('kct-batch-keys-');
    writeFileSync(join(dir, 'a.txt'), `${essay}\nbatch a`);
    writeFileSync(join(dir, 'b.txt'), `${essay}\nbatch b`);
    const key = `batch-${Date.now()}`;
    const before = await creditsOf(shared.kct);
    const first = await shared.kct(['batch', dir, '--model', '12', '--idempotency-key', key, '--output', 'ndjson', '--debug']);
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(new RegExp(`> idempotency-key: ${key}-batch-[0-9a-f]{32}`));
    // the same manifest again on this machine: every item marked before, reused, nothing sent
    const again = await shared.kct(['batch', dir, '--model', '12', '--idempotency-key', key, '--output', 'ndjson']);
    expect(again.code).toBe(0);
    expect(
      rowsOf(again.stdout)
        .map((r) => r.task_id)
        .sort(),
    ).toEqual(
      rowsOf(first.stdout)
        .map((r) => r.task_id)
        .sort(),
    );
    expect(before - (await creditsOf(shared.kct))).toBe(2);
    expect(again.stderr).toContain('2 items of 2 were marked before on this machine');
    expect(again.stderr).not.toContain('accepted as');
    expect(rowsOf(again.stdout).map((r) => (r as Row & { replayed?: boolean }).replayed)).toEqual([true, true]);
    expect(again.stderr).toContain('Credits: 0 charged by this run; 2 answers sent before, not charged again');
    // from another machine (no ledger) under the same key: the same batch, which the service replays, and it says so
    const elsewhere = await asUser(
      shared.sandbox,
      'user',
      tempDir('kct-batch-keys-elsewhere-'),
    )(['batch', dir, '--model', '12', '--idempotency-key', key, '--output', 'ndjson']);
    expect(elsewhere.stderr).toMatch(/batch 1\/1 already submitted as tsk_\w+ \(2 items, sent before: not charged again\)/);
    expect(rowsOf(elsewhere.stdout).map((r) => (r as Row & { replayed?: boolean }).replayed)).toEqual([true, true]);
    expect(before - (await creditsOf(shared.kct))).toBe(2);
  });

  it('an item changed under the same names and key is a 409 that says so and what to do (exit 7), nothing charged', async () => {
    const dir = tempDir('kct-batch-key-409-');
    const key = `b409-${Date.now()}`;
    writeFileSync(join(dir, 'a.txt'), `${essay}\nfirst version`);
    expect((await shared.kct(['batch', dir, '--model', '12', '--idempotency-key', key, '--no-wait'])).code).toBe(0);
    writeFileSync(join(dir, 'a.txt'), `${essay}\nsecond version`);
    const before = await creditsOf(shared.kct);
    const changed = await shared.kct(['batch', dir, '--model', '12', '--idempotency-key', key, '--no-wait']);
    expect(changed.code).toBe(7);
    expect(changed.stderr).toContain(`items of this manifest changed since they were sent with --idempotency-key ${key}`);
    expect(changed.stderr).toContain(`hint: To mark the new versions, run again with a new --idempotency-key (e.g. ${key}-v2)`);
    expect(await creditsOf(shared.kct)).toBe(before);
  });
});
