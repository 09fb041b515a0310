// With --mark-copies, identical answers are each marked on their own, each as its own task; the
// same command again must show each answer its own task, free. This machine's record keeps tasks
// by content, so a re-run once gave every copy the task of the last one sent: a.txt showed
// b.txt's task (and, with a language model marking, could show b's mark); and copies with every
// label alike (each student's essay.txt) once shared one task; the class named as its files the
// second time (as a shell's glob names it) was charged again, its keys holding each answer's path
// as found; and keys by a copy's place among its copies charged the others again when a late copy
// came. Over generated classes with copies, flat or a folder per student, run twice against a real
// sandbox, the second time named as the folder or as its files, with or without a late copy.

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
        // a late copy of the first answer comes before the second run, first in the folder's order
        fc.boolean(),
        async (picks, inFolders, asFiles, late) => {
          const tag = `mark copies ${runs++} ${Date.now()}`;
          const dir = join(tempDir('kct-mark-copies-'), 'class');
          mkdirSync(dir);
          const text = (n: number) => `Schools should not require uniforms, answer ${n} (${tag}): they cost money.\n`;
          const write = (i: number, n: number) => {
            if (!inFolders) return writeFileSync(join(dir, `pupil-${i}.txt`), text(n));
            mkdirSync(join(dir, `pupil-${i}`));
            writeFileSync(join(dir, `pupil-${i}`, 'essay.txt'), text(n));
          };
          picks.forEach((n, i) => write(i + 1, n));
          const flags = ['--model', '12', '--output', 'ndjson', '--mark-copies'];
          const command = ['one-pass', dir, ...flags, ...(inFolders ? ['--recursive'] : [])];
          const fileOf = (i: number) => (inFolders ? join(dir, `pupil-${i}`, 'essay.txt') : join(dir, `pupil-${i}.txt`));
          expect(readdirSync(dir)).toHaveLength(picks.length);
          const first = await shared.kct(command);
          expect(first.code, first.stderr).toBe(0);
          const tasks = new Map(rowsOf(first.stdout).map((row) => [row.file, row.task_id]));
          expect(new Set(tasks.values()).size).toBe(picks.length);
          const credits = await creditsOf(shared.kct);
          if (late) write(0, picks[0]);
          const files = [...(late ? [0] : []), ...picks.map((_, i) => i + 1)].map(fileOf);
          const again = await shared.kct(asFiles ? ['one-pass', ...files, ...flags] : command);
          expect(again.code, again.stderr).toBe(0);
          for (const row of rowsOf(again.stdout)) {
            expect(row.status).toBe('SUCCESS');
            if (row.file === fileOf(0)) continue; // the late copy: its own task, charged once
            expect(row.task_id, `${row.file}\n${again.stdout}`).toBe(tasks.get(row.file));
          }
          expect(await creditsOf(shared.kct)).toBe(credits - (late ? 1 : 0));
        },
      ),
      {
        examples: [
          [[0, 0], false, false, false],
          [[0, 0], true, false, false],
          [[0, 0, 1], true, true, false],
          [[0, 0, 1], true, false, true],
          [[0, 1, 0], false, true, true],
        ],
        numRuns: 2 + propertyRuns(4),
        seed: propertySeed(4712),
      },
    );
  });
});
