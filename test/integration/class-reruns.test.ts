// The cases users reported on re-running a class folder, each run as a user would, with kct's
// main() in-process against a real sandbox: one answer added to a batched folder is the only one charged; an
// empty student folder and a subfolder not entered are rows in every output; a replay says it is
// one; identical answers are flagged; Ctrl-C says only what kct saw; the same answers under other
// names (renamed, copied, a student id from the folders, grouped by folder) are not charged again.
// The properties behind them are in identity-properties.test.ts and collection-accounts-for-every-path.test.ts.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns, propertySeed } from '../unit/property-runs.js';
import { asUser, creditsOf, FIXTURES, parseJson, tempDir, useSandbox } from './harness.js';

const shared = useSandbox();

interface Row {
  file: string;
  student_id: string | null;
  task_id: string | null;
  status: string;
  message?: string;
  replayed?: boolean;
  duplicate_of?: string;
  credits_charged: number | null;
}

const ndjson = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((line) => parseJson<Row>(line));

function textClass(count: number, tag: string): string {
  const dir = join(tempDir('kct-reruns-'), 'class');
  mkdirSync(dir);
  const essay = readFileSync(join(FIXTURES, 'essay.txt'), 'utf8');
  for (let i = 1; i <= count; i++) writeFileSync(join(dir, `pupil-${i}.txt`), `${essay}\n(${tag} ${i})`);
  return dir;
}

describe('--no-wait says what is left to follow', () => {
  it('new answers are to follow; the same answers again, already marked, are not', async () => {
    const dir = textClass(2, 'no-wait rerun');
    const first = await shared.kct(['one-pass', dir, '--model', '12', '--no-wait', '--output', 'ndjson']);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain('Submitted: 2 of 2 answers accepted; follow them with kct status <task_id> --watch');
    // once marked, a --no-wait run again reads the marks: nothing left to follow
    expect((await shared.kct(['one-pass', dir, '--model', '12', '--output', 'ndjson'])).code).toBe(0);
    const again = await shared.kct(['one-pass', dir, '--model', '12', '--no-wait', '--output', 'ndjson']);
    expect(ndjson(again.stdout).map((row) => row.status)).toEqual(['SUCCESS', 'SUCCESS']);
    expect(again.stderr).toContain(
      'Nothing new submitted: 2 of 2 answers were sent before; all of them marked already: their rows hold the marks',
    );
  });
});

describe('--resume with the journal of another class', () => {
  it('says the journal holds other answers before this run is added to it; its own class again is no surprise', async () => {
    const journal = join(tempDir('kct-journal-of-'), 'marks.journal');
    const [classA, classB] = [textClass(2, 'journal class a'), textClass(2, 'journal class b')];
    const first = await shared.kct(['one-pass', classA, '--model', '12', '--resume', journal, '--output', 'ndjson']);
    expect(first.code, first.stderr).toBe(0);
    const other = await shared.kct(['one-pass', classB, '--model', '12', '--resume', journal, '--output', 'ndjson']);
    expect(other.code, other.stderr).toBe(0);
    expect(other.stderr).toContain(`kct: ${journal} holds the record of other answers (none of these 2 was in it)`);
    const again = await shared.kct(['one-pass', classA, '--model', '12', '--resume', journal, '--output', 'ndjson']);
    expect(again.stderr).not.toContain('holds the record of other answers');
  });
});

describe('a ledger the service does not share', () => {
  // a server that was reset: test/integration/reuse-notes.test.ts (a property over classes, added answers and resets)
  it('says "sent again and charged" only of what was: not of a failure marked again, nor of a key refused', async () => {
    const dir = textClass(1, 'KCT-SANDBOX-FAIL again');
    const configDir = tempDir('kct-one-machine-');
    const kct = asUser(shared.sandbox, 'user', configDir);
    expect((await kct(['one-pass', dir, '--model', '12', '--output', 'ndjson'])).code).toBe(3);
    const before = await creditsOf(kct);
    // the failure is sent again as a new task (failed-rerun.property.test.ts): nothing is charged, nothing said of a charge
    const again = await kct(['one-pass', dir, '--model', '12', '--output', 'ndjson']);
    expect(again.code).toBe(3);
    expect(await creditsOf(kct)).toBe(before);
    expect(again.stderr).not.toContain('sent again and charged');
    // another account on this machine: its key cannot see the model, so nothing is sent, nothing charged
    const broke = await asUser(shared.sandbox, 'broke', configDir)(['one-pass', dir, '--model', '12', '--output', 'ndjson']);
    expect(broke.code).not.toBe(0);
    expect(broke.stderr).not.toContain('sent again and charged');
  });
});

describe('the same answers under other names (an answer is its content)', () => {
  it("a folder per student, marked as kct's hint says and then grouped by folder: 14 answers charged once, not three times", async () => {
    const root = tempDir('kct-relabel-');
    const dir = join(root, 'class');
    const essay = readFileSync(join(FIXTURES, 'essay.txt'), 'utf8');
    for (let i = 1; i <= 14; i++) {
      mkdirSync(join(dir, `Student ${i}`), { recursive: true });
      writeFileSync(join(dir, `Student ${i}`, 'essay.txt'), `${essay}\n(relabel ${root} ${i})`);
    }
    const before = await creditsOf(shared.kct);
    const first = await shared.kct(['one-pass', dir, '--model', '12', '--recursive', '--output', 'ndjson']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain('with a folder per student directly under the folder given, use --student-id-from folder');
    expect(before - (await creditsOf(shared.kct))).toBe(14);
    // the hint followed: every student id changes, no content does
    const hinted = await shared.kct(['one-pass', dir, '--model', '12', '--recursive', '--student-id-from', 'folder', '--output', 'ndjson']);
    expect(hinted.code, hinted.stderr).toBe(0);
    expect(hinted.stderr).toContain('14 answers of 14 were sent before');
    const rows = ndjson(hinted.stdout);
    expect(rows.map((row) => row.student_id).sort()).toContain('Student 10');
    expect(rows.every((row) => row.status === 'SUCCESS' && row.replayed)).toBe(true);
    // grouped by folder: each student's one file is the same answer again
    const grouped = await shared.kct(['one-pass', dir, '--model', '12', '--group-by', 'folder', '--output', 'ndjson']);
    expect(grouped.code, grouped.stderr).toBe(0);
    expect(before - (await creditsOf(shared.kct))).toBe(14);
    expect(grouped.stdout).not.toContain('"replayed":false');
    expect(ndjson(grouped.stdout).every((row) => row.replayed)).toBe(true);
  });

  it('renamed, or handed in again by another student: reused, not charged, with the names it has now', async () => {
    const dir = textClass(2, 'rename');
    const before = await creditsOf(shared.kct);
    expect((await shared.kct(['one-pass', dir, '--model', '12', '--output', 'ndjson'])).code).toBe(0);
    expect(before - (await creditsOf(shared.kct))).toBe(2);
    const first = readFileSync(join(dir, 'pupil-1.txt'));
    writeFileSync(join(dir, 'Ben final.txt'), first);
    writeFileSync(join(dir, '..', 'other.txt'), first);
    const renamed = await shared.kct(['one-pass', join(dir, 'Ben final.txt'), '--model', '12', '--json']);
    expect(renamed.code, renamed.stderr).toBe(0);
    expect(parseJson<{ student_id: string; status: string; replayed: boolean }>(renamed.stdout)).toMatchObject({
      student_id: 'Ben final',
      status: 'SUCCESS',
      replayed: true,
    });
    const copied = await shared.kct(['one-pass', join(dir, '..', 'other.txt'), '--model', '12', '--output', 'ndjson', '--no-wait']);
    expect(copied.code, copied.stderr).toBe(0);
    expect(ndjson(copied.stdout)[0]).toMatchObject({ student_id: 'other', status: 'SUCCESS', replayed: true });
    expect(before - (await creditsOf(shared.kct))).toBe(2);
    // --mark-again pays on purpose
    const again = await shared.kct(['one-pass', join(dir, 'Ben final.txt'), '--model', '12', '--json', '--mark-again']);
    expect(again.code, again.stderr).toBe(0);
    expect(before - (await creditsOf(shared.kct))).toBe(3);
  });
});

describe('one run, one count', () => {
  it('identical answers marked before: the summary counts each row once, as the note before the run does', async () => {
    const dir = textClass(3, 'twins');
    // pupil-2 hands in pupil-1's answer: two rows, one identity
    copyFileSync(join(dir, 'pupil-1.txt'), join(dir, 'pupil-2.txt'));
    const before = await creditsOf(shared.kct);
    const first = await shared.kct(['one-pass', dir, '--model', '12', '--output', 'ndjson']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain('Credits: 2 charged by this run; 1 identical answer charged once with its first');
    // the same answers again, pupil-1's renamed: three rows reused, none charged
    copyFileSync(join(dir, 'pupil-1.txt'), join(dir, 'Ana final.txt'));
    writeFileSync(join(dir, 'pupil-1.txt'), '');
    const again = await shared.kct(['one-pass', dir, '--model', '12', '--output', 'ndjson', '--skip-unsupported']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('2 answers of 3 were sent before');
    expect(again.stderr).toContain('2 answers sent before, not charged again; 1 identical answer charged once with its first');
    expect(before - (await creditsOf(shared.kct))).toBe(2);
  });
});

describe('re-running a class folder', () => {
  it('one answer added to a batched folder: only it is charged, whatever the route of the next run', async () => {
    const dir = textClass(6, 'batched');
    const journal = join(dir, '..', 'marks.journal');
    const before = await creditsOf(shared.kct);
    // --via auto batches with --resume from KCT_BATCH_FROM plain-text answers (500 by default)
    const first = await shared.kct(['one-pass', dir, '--model', '12', '--resume', journal, '--output', 'ndjson'], {
      env: { KCT_BATCH_FROM: '5' },
    });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain('in batches of up to 100');
    expect(before - (await creditsOf(shared.kct))).toBe(6);

    writeFileSync(join(dir, 'pupil-7.txt'), `${readFileSync(join(FIXTURES, 'essay.txt'), 'utf8')}\n(batched 7)`);
    // without the journal, and another route: the batch's answers are followed, not sent again
    const again = await shared.kct(['one-pass', dir, '--model', '12', '--via', 'one-pass', '--output', 'ndjson']);
    expect(again.code, again.stderr).toBe(0);
    const rows = ndjson(again.stdout);
    expect(rows).toHaveLength(7);
    expect(
      rows
        .filter((row) => row.replayed)
        .map((row) => row.file)
        .sort(),
    ).toEqual([1, 2, 3, 4, 5, 6].map((i) => join(dir, `pupil-${i}.txt`)));
    expect(before - (await creditsOf(shared.kct))).toBe(7);

    // and in a batch again: still nothing charged twice
    writeFileSync(join(dir, 'pupil-8.txt'), `${readFileSync(join(FIXTURES, 'essay.txt'), 'utf8')}\n(batched 8)`);
    const third = await shared.kct(['one-pass', dir, '--model', '12', '--via', 'batch', '--output', 'csv']);
    expect(third.code, third.stderr).toBe(0);
    expect(parse(third.stdout, { columns: true })).toHaveLength(8);
    expect(before - (await creditsOf(shared.kct))).toBe(8);
  });

  it('--via auto without --resume sends one request per answer, however many', async () => {
    const dir = textClass(3, 'auto');
    const run = await shared.kct(['one-pass', dir, '--model', '12', '--output', 'ndjson'], { env: { KCT_BATCH_FROM: '2' } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('batches');
  });

  it('student folders: an empty one is a row with its reason in csv, ndjson, json and the report', async () => {
    const dir = join(tempDir('kct-moodle-'), 'export');
    const essay = readFileSync(join(FIXTURES, 'essay.txt'), 'utf8');
    for (const [name, tag] of [
      ['Ann Lee_1111', 'a'],
      ['Bo Chen_3333', 'b'],
    ]) {
      mkdirSync(join(dir, name), { recursive: true });
      writeFileSync(join(dir, name, 'essay.txt'), `${essay}\n(${tag})`);
    }
    // named as Moodle names them, the folders would be a Moodle download (test/integration/class-folders.test.ts)
    mkdirSync(join(dir, 'Eve Kim_2222'));
    const flags = ['--model', '12', '--recursive', '--student-id-from', 'folder', '--group-by', 'folder'];
    const report = join(dir, '..', 'class.html');
    const csv = await shared.kct(['one-pass', dir, ...flags, '--output', 'csv', '--report', report]);
    expect(csv.code, csv.stderr).toBe(0);
    const eve = (parse(csv.stdout, { columns: true }) as Record<string, string>[]).find((row) => row.student_id === 'Eve Kim_2222');
    expect(eve).toMatchObject({ status: 'EMPTY', message: 'empty folder: nothing submitted' });
    expect(csv.stderr).toContain('Summary: 2 of 2 answers marked');
    expect(csv.stderr).toContain('Not sent: 1 student with nothing to send (EMPTY)');
    expect(csv.stderr).toMatch(/Eve Kim_2222\/: EMPTY — empty folder: nothing submitted/);
    const html = readFileSync(report, 'utf8');
    expect(html).toContain('Eve Kim_2222');
    expect(html).toContain('empty folder: nothing submitted');
    expect(html).toContain('2 <small>of 2 answers</small>');

    const json = await shared.kct(['one-pass', dir, ...flags, '--json']);
    expect(parseJson<Row[]>(json.stdout).map((row) => [row.student_id, row.status])).toEqual([
      ['Ann Lee_1111', 'SUCCESS'],
      ['Bo Chen_3333', 'SUCCESS'],
      ['Eve Kim_2222', 'EMPTY'],
    ]);
  });

  it('without --recursive, student subfolders are NOT_ENTERED rows; a run that stops on a file names them too', async () => {
    const dir = textClass(2, 'flat');
    mkdirSync(join(dir, 'late'));
    writeFileSync(join(dir, 'late', 'pupil-9.txt'), 'A late answer about uniforms.');
    const run = await shared.kct(['one-pass', dir, '--model', '12', '--output', 'ndjson']);
    expect(run.code, run.stderr).toBe(0);
    expect(ndjson(run.stdout).find((row) => row.status === 'NOT_ENTERED')).toMatchObject({
      file: `${join(dir, 'late')}/`,
      message: 'subfolder not entered: pass --recursive to mark the answers in it (or --exclude "late" to leave it out)',
    });

    writeFileSync(join(dir, 'notes.odt'), 'PK not an answer');
    const refused = await shared.kct(['one-pass', dir, '--model', '12', '--output', 'ndjson']);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('notes.odt');
    expect(refused.stderr).toContain('--skip-unsupported');
    expect(refused.stderr).toContain('not entered: 1 subfolder (late/); pass --recursive');
  });

  it('a replay says it is one: --no-wait on a finished answer prints its state now, never a new queued task', async () => {
    const dir = textClass(1, 'replay');
    const file = join(dir, 'pupil-1.txt');
    const done = await shared.kct(['one-pass', file, '--model', '12', '--json']);
    expect(done.code, done.stderr).toBe(0);
    const before = await creditsOf(shared.kct);
    const table = await shared.kct(['one-pass', file, '--model', '12', '--no-wait']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(
      /^Already submitted: tsk_\S+ \(the same answer was sent before; no new charge\)\nStatus now: SUCCESS, score [\d.]+ \/ \d+, 1 credit charged\n/,
    );
    const json = await shared.kct(['one-pass', file, '--model', '12', '--no-wait', '--json']);
    expect(parseJson<Record<string, unknown>>(json.stdout)).toMatchObject({ status: 'SUCCESS', replayed: true, credits_charged: 1 });
    expect(table.stdout).not.toContain('Marked before under student id');
    // the same answer under another student id: said under the replay, as under a result
    const other = join(dir, 'pupil-9.txt');
    copyFileSync(file, other);
    const copied = await shared.kct(['one-pass', other, '--model', '12', '--no-wait']);
    expect(copied.code, copied.stderr).toBe(0);
    expect(copied.stdout).toContain('Marked before under student id pupil-1: if that is another student, the two answers are the same.');
    expect(await creditsOf(shared.kct)).toBe(before);
  });

  it('identical answers are marked once, charged once, and flagged: duplicate_of in both rows, after the summary, and in the report', async () => {
    const dir = textClass(2, 'copies');
    copyFileSync(join(dir, 'pupil-1.txt'), join(dir, 'Zoe Copy of pupil-1.txt'));
    const report = join(dir, '..', 'copies.html');
    const before = await creditsOf(shared.kct);
    const run = await shared.kct(['one-pass', dir, '--model', '12', '--output', 'ndjson', '--report', report]);
    expect(run.code, run.stderr).toBe(0);
    const rows = ndjson(run.stdout);
    const zoe = rows.find((row) => row.file.endsWith('Zoe Copy of pupil-1.txt'))!;
    const first = rows.find((row) => row.file.endsWith('/pupil-1.txt'))!;
    expect(zoe).toMatchObject({ status: 'SUCCESS', duplicate_of: join(dir, 'pupil-1.txt'), replayed: true, task_id: first.task_id });
    expect(first).toMatchObject({ status: 'SUCCESS', duplicate_of: join(dir, 'Zoe Copy of pupil-1.txt') });
    expect(before - (await creditsOf(shared.kct))).toBe(2);
    expect(run.stderr).toContain('1 answer is identical to another of this run (the same text or bytes): marked once, charged once');
    expect(run.stderr).toMatch(
      /Identical answers \(1; the same text or bytes, duplicate_of in the rows\):\n {2}\S.*pupil-1\.txt = \S.*pupil-1\.txt/,
    );
    expect(run.stderr).toContain('Credits: 2 charged by this run; 1 identical answer charged once with its first');
    expect(readFileSync(report, 'utf8')).toContain('Identical answers (1)');
    // --mark-copies marks each on its own: both flagged, two tasks, charged again for the copy only (pupil-1 is reused)
    const each = await shared.kct(['one-pass', dir, '--model', '12', '--output', 'ndjson', '--mark-copies', '--mark-again']);
    expect(each.code, each.stderr).toBe(0);
    const again = ndjson(each.stdout);
    expect(new Set(again.map((row) => row.task_id)).size).toBe(3);
    expect(again.filter((row) => row.duplicate_of)).toHaveLength(2);
  });

  it('Ctrl-C says only what kct saw: tasks not seen finished, and how to collect them', async () => {
    const dir = textClass(12, 'interrupt');
    // a Ctrl-C in-process (main's signal); the real SIGINT is test/e2e/signals-and-terminals.test.ts
    const ctrlC = new AbortController();
    const run = await shared.kct(['one-pass', dir, '--model', '12', '--jobs', '1', '--output', 'ndjson'], {
      env: { KCT_POLL_INTERVAL: '1s' },
      signal: ctrlC.signal,
      onStderr: (_, all) => {
        if (all.includes('[1/12]')) ctrlC.abort();
      },
    });
    expect(ctrlC.signal.aborted).toBe(true);
    expect(run.code).toBe(130);
    const [, unfinished, finished] =
      /interrupted; (\d+) answers? not yet seen finished may still be running on the service: tasks? tsk_\w+.* \((\d+) answers? seen finished/.exec(
        run.stderr,
      ) ?? [];
    expect(Number(finished)).toBe(ndjson(run.stdout).length);
    // every answer is one of the three: seen finished, maybe still running, or not sent (said, not left out)
    const notSent = Number(/; (\d+) answers? not sent/.exec(run.stderr)?.[1] ?? 0);
    expect(Number(unfinished) + Number(finished) + notSent, run.stderr).toBe(12);
    expect(run.stderr).toContain('Run the same command again to collect them');
  });

  it('Ctrl-C before any row is finished: --json prints an empty array, CSV its header, not nothing', async () => {
    for (const [format, expected] of [
      ['json', '[]\n'],
      ['csv', 'file,student_id,task_id,status,score,max_score,message,duplicate_of\n'],
    ]) {
      const dir = textClass(3, `interrupt at once ${format} KCT-SANDBOX-SLOW`);
      const ctrlC = new AbortController();
      const run = await shared.kct(['one-pass', dir, '--model', '12', '--output', format], {
        signal: ctrlC.signal,
        onStderr: (_, all) => {
          if (all.includes('the service quoted')) ctrlC.abort();
        },
      });
      expect(run.code).toBe(130);
      expect(run.stdout).toBe(expected);
    }
  });

  // what a CI job parses: stdout well formed in the format asked for, with every row seen finished,
  // wherever Ctrl-C lands (after the first, second or third row) and however many answers are in flight
  it('Ctrl-C at any point leaves stdout whole in the format asked for, and names the tasks left running', async () => {
    const rowsOf = {
      json: (text: string) => parseJson<Row[]>(text),
      csv: (text: string) => parse(text, { columns: true }) as Row[],
      ndjson,
    };
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('json', 'csv', 'ndjson'),
        fc.integer({ min: 1, max: 3 }),
        fc.constantFrom(1, 2),
        async (format, after, jobs) => {
          // new answers each run: nothing reused from an earlier one
          const dir = textClass(6, `interrupt ${format} ${after} ${jobs} ${runs++}`);
          const ctrlC = new AbortController();
          const run = await shared.kct(['one-pass', dir, '--model', '12', '--jobs', String(jobs), '--output', format], {
            env: { KCT_POLL_INTERVAL: '1s' },
            signal: ctrlC.signal,
            onStderr: (_, all) => {
              if (all.includes(`[${after}/6]`)) ctrlC.abort();
            },
          });
          expect(run.code).toBe(130);
          const said =
            /interrupted; (?:(\d+) answers? not yet seen finished may still be running on the service: tasks? (tsk_[^(]+)|no task kct knows of is left unfinished) \((\d+) answers? seen finished/.exec(
              run.stderr,
            );
          expect(said, run.stderr).not.toBeNull();
          const [unfinished, ids, finished] = [Number(said?.[1] ?? 0), said?.[2] ?? '', Number(said?.[3])];
          const rows: Row[] = rowsOf[format](run.stdout);
          expect(rows).toHaveLength(finished);
          expect(rows.every((row) => row.status === 'SUCCESS')).toBe(true);
          // the tasks left running are named (five at most), none of them among the rows printed
          const running: string[] = ids.match(/tsk_\w+/g) ?? [];
          expect(running.length).toBeLessThanOrEqual(Math.min(unfinished, 5));
          if (unfinished > 0) expect(running.length).toBeGreaterThan(0);
          expect(rows.filter((row) => running.includes(row.task_id ?? ''))).toEqual([]);
          if (unfinished > 0) expect(run.stderr).toContain('To stop one instead: kct cancel <task_id>');
        },
      ),
      {
        examples: [
          ['json', 2, 1],
          ['csv', 2, 1],
          ['ndjson', 2, 1],
        ],
        numRuns: 3 + propertyRuns(3),
        seed: propertySeed(3412),
      },
    );
  }, 120_000);
});
