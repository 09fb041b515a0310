// The same answer handed in by two students is never passed over in silence. Within a run, a copy
// names its first (duplicate_of); across runs, a mark this machine reuses was sent under a student
// id, and when that is another than the row's, the row names it (earlier_student_id, and its
// message) for a teacher to look into. Over generated classes (students handing in contents from a
// small pool) marked in part, then whole, against a real sandbox: the row of each content that
// reuses a mark names the student it was marked for exactly when that student is another, no other
// row names anyone, and the same command again with its --resume journal says the same.
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns, propertySeed } from '../unit/property-runs.js';
import { ndjsonRows, tempDir, useSandbox } from './harness.js';

const shared = useSandbox();

interface Row {
  file: string;
  task_id: string;
  student_id: string;
  status: string;
  duplicate_of?: string;
  earlier_student_id?: string;
  message?: string;
}

const STUDENTS = ['Amara', 'Ben', 'Chloe', 'Dev', 'Eve'];

describe('the same answer from two students, across runs', () => {
  it('property: a reused mark sent for another student names them, again from the journal; nothing else does', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        // each student's answer: one of three contents; the first run marks some of the students
        fc.array(fc.nat(2), { minLength: STUDENTS.length, maxLength: STUDENTS.length }),
        fc.subarray(STUDENTS, { minLength: 1 }),
        fc.constantFrom(...STUDENTS),
        async (contents, firstRun, renamed) => {
          const tag = `first marked ${runs++} ${Date.now()}`;
          const dir = tempDir('kct-earlier-student-');
          const path = (student: string) => join(dir, `${student}.txt`);
          STUDENTS.forEach((student, i) =>
            writeFileSync(path(student), `Schools should not require uniforms, answer ${contents[i]} (${tag}): they cost money.\n`),
          );
          const flags = ['--model', '12', '--output', 'ndjson'];
          const first = await shared.kct(['one-pass', ...firstRun.map(path), ...flags]);
          expect(first.code, first.stderr).toBe(0);
          const firstRows = ndjsonRows<Row>(first.stdout);
          expect(firstRows.filter((row) => row.earlier_student_id !== undefined)).toEqual([]);
          // who each content was first marked for: the first row of the first run that holds it
          const markedFor = new Map<number, string>();
          for (const student of firstRun) {
            const content = contents[STUDENTS.indexOf(student)];
            if (!markedFor.has(content)) markedFor.set(content, student);
          }
          const journal = join(tempDir('kct-earlier-student-journal-'), 'class.journal');
          const whole = await shared.kct(['one-pass', dir, ...flags, '--resume', journal]);
          expect(whole.code, whole.stderr).toBe(0);
          // the same command again reads its rows back from the journal: what they said is said again
          const resumed = await shared.kct(['one-pass', dir, ...flags, '--resume', journal]);
          const said = (stdout: string) =>
            ndjsonRows<Row>(stdout)
              .map((row) => [row.file, row.earlier_student_id, row.message])
              .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
          expect(said(resumed.stdout)).toEqual(said(whole.stdout));
          const seen = new Set<number>();
          for (const row of ndjsonRows<Row>(whole.stdout)) {
            expect(row.status).toBe('SUCCESS');
            const content = contents[STUDENTS.indexOf(row.student_id)];
            const firstOfRun = !seen.has(content);
            seen.add(content);
            const other = markedFor.get(content);
            const expected = firstOfRun && other !== undefined && other !== row.student_id ? other : undefined;
            expect(row.earlier_student_id, `${row.file}\n${whole.stdout}`).toBe(expected);
            if (expected) expect(row.message).toContain(`"${expected}"`);
            if (!firstOfRun) expect(row.duplicate_of).toBeDefined();
          }
          // a file renamed since (its place in the folder's order kept): its row, read back from the
          // journal, names the student its task was sent under, as the ledger's reading does
          renameSync(path(renamed), join(dir, `${renamed}-renamed.txt`));
          const again = await shared.kct(['one-pass', dir, ...flags, '--resume', journal]);
          expect(again.code, again.stderr).toBe(0);
          const row = ndjsonRows<Row>(again.stdout).find((r) => r.student_id === `${renamed}-renamed`)!;
          // the student a task was sent under: its first row in the run that sent it
          const sentFor = [...firstRows, ...ndjsonRows<Row>(whole.stdout)].find((r) => r.task_id === row.task_id)?.student_id;
          // the first row of its content in the folder's order is its answer; the others are copies, named by duplicate_of
          const answer = ndjsonRows<Row>(again.stdout)
            .filter((r) => r.task_id === row.task_id)
            .sort((a, b) => a.file.localeCompare(b.file))[0];
          expect(row.earlier_student_id, again.stdout).toBe(answer.file === row.file ? sentFor : undefined);
          if (row.earlier_student_id) expect(row.message).toContain(`"${sentFor}"`);
        },
      ),
      {
        examples: [
          [[0, 0, 1, 2, 2], ['Amara'], 'Ben'],
          [[0, 1, 1, 2, 0], ['Ben', 'Eve'], 'Eve'],
        ],
        numRuns: 2 + propertyRuns(4),
        seed: propertySeed(5351),
      },
    );
  });
});
