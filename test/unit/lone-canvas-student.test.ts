// A folder whose names Canvas's pattern reads as ONE student's uploads (essay_2024_1_ana.txt,
// essay_2024_2_ben.txt: "essay", user 2024) is a class folder far more often than a one-student
// download: named alone, it is never read as one answer of every file unasked.

import { mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { UsageError } from '../../src/api/errors.js';
import { collectAnswers } from '../../src/cli/answers/answers.js';
import { downloadInput, FolderLooks } from '../../src/cli/answers/download.js';
import { checkLookalike } from '../../src/cli/answers/download-lookalikes.js';
import { PROPERTY_SETTINGS } from './platforms/fixtures.js';
import { quietIO } from './quiet-io.js';

const io = quietIO();

function folderOf(names: readonly string[]): string {
  const root = mkdtempSync(join(tmpdir(), 'kct-lone-'));
  names.forEach((name, index) => writeFileSync(join(root, name), `An answer about school uniforms, number ${index}.`));
  return root;
}

describe('names that read as one Canvas student', () => {
  test('a folder of them, named alone, is refused (nothing sent) or marked file by file: never one answer of every file', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('essay', 'report', 'homework', 'task'),
        fc.integer({ min: 2000, max: 2030 }),
        fc.uniqueArray(fc.stringMatching(/^[a-z]{2,8}$/), { minLength: 2, maxLength: 6 }),
        fc.array(fc.integer({ min: 1, max: 99 }), { minLength: 6, maxLength: 6 }),
        fc.boolean(),
        async (word, year, students, numbers, withNotes) => {
          const names = students.map((student, index) => `${word}_${year}_${numbers[index]}_${student}.txt`);
          const folder = folderOf(withNotes ? [...names, 'notes.csv'] : names);
          const looks = new FolderLooks();
          expect(downloadInput([folder], { looks })).toBeUndefined();
          let refused: unknown;
          try {
            checkLookalike([folder], looks);
          } catch (error) {
            refused = error;
          }
          if (refused !== undefined) {
            expect(refused).toBeInstanceOf(UsageError);
            return;
          }
          const collection = await collectAnswers({ inputs: [folder], studentIdFrom: 'name', skipUnsupported: true }, io, {
            explain: true,
          });
          expect(collection.entries.filter((entry) => entry.action === 'send')).toHaveLength(names.length);
        },
      ),
      { ...PROPERTY_SETTINGS, numRuns: Math.min(PROPERTY_SETTINGS.numRuns, 40) },
    );
  });

  test('refused with both readings named: each file on its own (the files named), or the download (--group-by student)', () => {
    const folder = folderOf(['essay_2024_11_ana.txt', 'essay_2024_12_ben.txt', 'essay_2024_13_cai.txt']);
    const refusal = (() => {
      try {
        checkLookalike([folder], new FolderLooks());
      } catch (error) {
        return error as UsageError;
      }
    })();
    expect(refusal?.message).toMatch(
      /its 3 files are named as Canvas names the uploads of one student \("essay", user 2024\): .* Nothing was sent\.$/,
    );
    expect(refusal?.suggestion).toMatch(
      /name the files: kct one-pass .*\/\* --model <id>\. If it is one student's Canvas download: kct one-pass .* --group-by student --model <id>\.$/,
    );
  });

  test('unzipped into a folder of its own, it is refused the same way, naming the folder that holds the files', () => {
    const inner = folderOf(['doejane_301_9001_essay.txt', 'doejane_301_9002_sources.txt']);
    const wrapper = mkdtempSync(join(tmpdir(), 'kct-lone-wrap-'));
    renameSync(inner, join(wrapper, 'submissions'));
    const looks = new FolderLooks();
    expect(downloadInput([wrapper], { looks })).toBeUndefined();
    expect(() => checkLookalike([wrapper], looks)).toThrow(/submissions: its 2 files are named as Canvas names the uploads of one student/);
  });

  test('asked (--group-by student), a folder of one student’s uploads reads as a download; a Canvas download of two students is still one by its names', async () => {
    const lone = folderOf(['doejane_301_9001_essay.txt', 'doejane_301_9002_sources.txt']);
    expect(downloadInput([lone], { groupBy: 'student' })).toEqual({ input: lone, kind: 'folder' });
    const pair = folderOf(['doejane_301_9001_essay.txt', 'ngbo_302_9002_essay.txt']);
    expect(downloadInput([pair], {})).toEqual({ input: pair, kind: 'folder' });
  });
});
