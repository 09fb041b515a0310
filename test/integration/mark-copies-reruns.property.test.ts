// With --mark-copies, identical answers are each marked on their own, each as its own task; the
// same command again must show each answer its own task, free. This machine's record keeps tasks
// by content, so a re-run once gave every copy the task of the last one sent: a.txt showed
// b.txt's task (and, with a language model marking, could show b's mark); and copies with every
// label alike (each student's essay.txt) once shared one task; and the class named as its files
// the second time (as a shell's glob names it) was charged again, its keys holding each answer's
// path as found. Over generated classes with copies, flat or a folder per student, run twice
// against a real sandbox, the second time named as the folder or as its files.

import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns, propertySeed } from '../unit/property-runs.js';
import { creditsOf, ndjsonRows, tempDir, useSandbox } from './harness.js';

const shared = useSandbox();

const rowsOf = (stdout: string) => ndjsonRows(stdout);

describe('--mark-copies, run again', () => {
  it('property: each answer keeps its own task, and nothing is charged again', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        // which of a pool of distinct answers each file holds: a number seen twice is a copy
        fc.array(fc.nat(2), { minLength: 2, maxLength: 5 }).filter((picks) => new Set(picks).size < picks.length),
        // a folder per student, each file essay.txt: copies share every label (the student id "essay", the file name) but their path
        fc.boolean(),
        // the second run names the class as its folder again, or as its files (a shell's class/*/essay.txt)
        fc.boolean(),
        async (picks, inFolders, asFiles) => {
          const tag = `mark copies ${runs++} ${Date.now()}`;
          const dir = join(tempDir('kct-mark-copies-'), 'class');
          mkdirSync(dir);
          picks.forEach((n, i) => {
            const text = `Schools should not require uniforms, answer ${n} (${tag}): they cost money.\n`;
            if (!inFolders) return writeFileSync(join(dir, `pupil-${i + 1}.txt`), text);
            mkdirSync(join(dir, `pupil-${i + 1}`));
            writeFileSync(join(dir, `pupil-${i + 1}`, 'essay.txt'), text);
          });
          const flags = ['--model', '12', '--output', 'ndjson', '--mark-copies'];
          const command = ['one-pass', dir, ...flags, ...(inFolders ? ['--recursive'] : [])];
          const files = picks.map((_, i) => (inFolders ? join(dir, `pupil-${i + 1}`, 'essay.txt') : join(dir, `pupil-${i + 1}.txt`)));
          expect(readdirSync(dir)).toHaveLength(picks.length);
          const first = await shared.kct(command);
          expect(first.code, first.stderr).toBe(0);
          const tasks = new Map(rowsOf(first.stdout).map((row) => [row.file, row.task_id]));
          expect(new Set(tasks.values()).size).toBe(picks.length);
          const credits = await creditsOf(shared.kct);
          const again = await shared.kct(asFiles ? ['one-pass', ...files, ...flags] : command);
          expect(again.code, again.stderr).toBe(0);
          for (const row of rowsOf(again.stdout)) {
            expect(row.task_id, `${row.file}\n${again.stdout}`).toBe(tasks.get(row.file));
            expect(row.status).toBe('SUCCESS');
          }
          expect(await creditsOf(shared.kct)).toBe(credits);
        },
      ),
      {
        examples: [
          [[0, 0], false, false],
          [[0, 0], true, false],
          [[0, 0, 1], true, true],
        ],
        numRuns: 2 + propertyRuns(4),
        seed: propertySeed(4712),
      },
    );
  });
});
