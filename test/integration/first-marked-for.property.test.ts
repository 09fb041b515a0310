// The same answer handed in by two students is never passed over in silence. Within a run, a copy
// names its first (duplicate_of); across runs, a mark this machine reuses was first sent for a
// student, and when that is another student than the row's, the row names them
// (first_marked_for, and its message) for a teacher to look into. Over generated classes (students
// handing in contents from a small pool) marked in part, then whole, against a real sandbox: the
// row of each content that reuses a mark names the student it was first marked for exactly when
// that student is another, and no other row names anyone.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns, propertySeed } from '../unit/property-runs.js';
import { ndjsonRows, tempDir, useSandbox } from './harness.js';

const shared = useSandbox();

interface Row {
  file: string;
  student_id: string;
  status: string;
  duplicate_of?: string;
  first_marked_for?: string;
  message?: string;
}

const STUDENTS = ['Amara', 'Ben', 'Chloe', 'Dev', 'Eve'];

describe('the same answer from two students, across runs', () => {
  it('property: a reused mark first sent for another student names them; nothing else does', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        // each student's answer: one of three contents; the first run marks some of the students
        fc.array(fc.nat(2), { minLength: STUDENTS.length, maxLength: STUDENTS.length }),
        fc.subarray(STUDENTS, { minLength: 1 }),
        async (contents, firstRun) => {
          const tag = `first marked ${runs++} ${Date.now()}`;
          const dir = tempDir('kct-first-marked-');
          const path = (student: string) => join(dir, `${student}.txt`);
          STUDENTS.forEach((student, i) =>
            writeFileSync(path(student), `Schools should not require uniforms, answer ${contents[i]} (${tag}): they cost money.\n`),
          );
          const flags = ['--model', '12', '--output', 'ndjson'];
          const first = await shared.kct(['one-pass', ...firstRun.map(path), ...flags]);
          expect(first.code, first.stderr).toBe(0);
          const firstRows = ndjsonRows<Row>(first.stdout);
          expect(firstRows.filter((row) => row.first_marked_for !== undefined)).toEqual([]);
          // who each content was first marked for: the first row of the first run that holds it
          const markedFor = new Map<number, string>();
          for (const student of firstRun) {
            const content = contents[STUDENTS.indexOf(student)];
            if (!markedFor.has(content)) markedFor.set(content, student);
          }
          const whole = await shared.kct(['one-pass', dir, ...flags]);
          expect(whole.code, whole.stderr).toBe(0);
          const seen = new Set<number>();
          for (const row of ndjsonRows<Row>(whole.stdout)) {
            expect(row.status).toBe('SUCCESS');
            const content = contents[STUDENTS.indexOf(row.student_id)];
            const firstOfRun = !seen.has(content);
            seen.add(content);
            const other = markedFor.get(content);
            const expected = firstOfRun && other !== undefined && other !== row.student_id ? other : undefined;
            expect(row.first_marked_for, `${row.file}\n${whole.stdout}`).toBe(expected);
            if (expected) expect(row.message).toContain(`"${expected}"`);
            if (!firstOfRun) expect(row.duplicate_of).toBeDefined();
          }
        },
      ),
      {
        examples: [
          [[0, 0, 1, 2, 2], ['Amara']],
          [
            [0, 1, 1, 2, 0],
            ['Ben', 'Eve'],
          ],
        ],
        numRuns: 2 + propertyRuns(4),
        seed: propertySeed(5351),
      },
    );
  });
});
