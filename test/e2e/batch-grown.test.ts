// A district's manifest, grown day by day and run with `kct batch` each day (the built kct against a
// real sandbox): the second run was refused ("3 items of 4 were sent before on this machine ...
// Nothing was sent.", exit 2); now it charges the new item only, and prints every row, the old ones
// reused from the batch that marked them; run again unchanged it sends nothing and charges nothing.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { asUser, creditsOf, FIXTURES, parseJson, tempDir, useSandbox } from './harness.js';

const shared = useSandbox();
const essay = readFileSync(join(FIXTURES, 'essay.txt'), 'utf8');

interface Row {
  student_id: string;
  task_id: string;
  status: string;
  replayed?: boolean;
}

const rowsOf = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((line) => parseJson<Row>(line));

describe('kct batch of a grown manifest', () => {
  it('charges only the new item, prints every row (the old ones reused), and run again sends nothing', async () => {
    const kct = asUser(shared.sandbox, 'user', tempDir('kct-grown-'));
    const manifest = join(tempDir('kct-grown-manifest-'), 'manifest.jsonl');
    const item = (n: number) => `${JSON.stringify({ student_id: `pupil-${n}`, paper_content: `${essay}\n(grown ${n} ${Date.now()})` })}\n`;
    writeFileSync(manifest, [1, 2, 3].map(item).join(''));
    const start = await creditsOf(kct);
    const first = await kct(['batch', manifest, '--model', '12', '--output', 'ndjson']);
    expect(first.code, first.stderr).toBe(0);
    expect(start - (await creditsOf(kct))).toBe(3);
    const taskOf = new Map(rowsOf(first.stdout).map((row) => [row.student_id, row.task_id]));

    // the next day: one student more
    appendFileSync(manifest, item(4));
    const grown = await kct(['batch', manifest, '--model', '12', '--output', 'ndjson']);
    expect(grown.code, grown.stderr).toBe(0);
    expect(grown.stderr).toContain('3 items of 4 were marked before on this machine');
    expect(grown.stderr).toContain('batch 1/1 accepted as');
    expect(grown.stderr).toContain('(1 item, cost 1 credit on success)');
    expect(start - (await creditsOf(kct))).toBe(4);
    const rows = rowsOf(grown.stdout);
    expect(rows.map((row) => row.student_id).sort()).toEqual(['pupil-1', 'pupil-2', 'pupil-3', 'pupil-4']);
    for (const row of rows) {
      expect(row.status).toBe('SUCCESS');
      // the old rows are the first run's marks, flagged as reused; the new one is this run's
      if (row.student_id === 'pupil-4') expect(row.replayed).toBeUndefined();
      else expect(row).toMatchObject({ task_id: taskOf.get(row.student_id), replayed: true });
    }

    // --no-wait lists the batches that hold the items: both earlier ones, nothing sent
    const listed = await kct(['batch', manifest, '--model', '12', '--no-wait', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(parseJson<{ status: string; replayed: boolean }[]>(listed.stdout)).toEqual([
      expect.objectContaining({ status: 'SUCCESS', replayed: true }),
      expect.objectContaining({ status: 'SUCCESS', replayed: true }),
    ]);
    expect(listed.stderr).toContain('They are finished: see the marks with kct result');

    // a third run, unchanged: no request, no credit, every row
    const third = await kct(['batch', manifest, '--model', '12', '--output', 'ndjson']);
    expect(third.code, third.stderr).toBe(0);
    expect(third.stderr).not.toContain('accepted as');
    expect(third.stderr).not.toContain('already submitted');
    expect(rowsOf(third.stdout).map((row) => row.replayed)).toEqual([true, true, true, true]);
    expect(start - (await creditsOf(kct))).toBe(4);
    // the summary counts only new charges
    const table = await kct(['batch', manifest, '--model', '12']);
    expect(table.stdout).toContain('Credits: 0 charged by this run; 4 answers sent before, not charged again');

    // one more, slow to mark, with --no-wait: the note names the one task still running, not the finished ones
    appendFileSync(manifest, item(5).replace('(grown', 'KCT-SANDBOX-SLOW (grown'));
    const slow = await kct(['batch', manifest, '--model', '12', '--no-wait', '--json']);
    expect(slow.code, slow.stderr).toBe(0);
    const tasks = parseJson<{ task_id: string; status: string }[]>(slow.stdout);
    const running = tasks.filter((task) => !['SUCCESS', 'FAILURE', 'CANCEL'].includes(task.status));
    expect(running).toHaveLength(1);
    expect(slow.stderr).toContain(`Follow it with: kct status ${running[0].task_id} --watch`);
    for (const done of tasks.filter((task) => task !== running[0])) expect(slow.stderr).not.toContain(`kct status ${done.task_id}`);
  });
});
