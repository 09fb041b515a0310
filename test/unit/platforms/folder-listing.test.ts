import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { UsageError } from '../../../src/api/errors.js';
import { listDownloadFolder } from '../../../src/platforms/folder-listing.js';
import { recogniseDownload } from '../../../src/platforms/submissions.js';
import { scratchDir } from './fixtures.js';

let scratch: { dir: string; remove: () => void };
beforeEach(() => {
  scratch = scratchDir('folder');
});
afterEach(() => scratch.remove());

test('an unzipped Moodle download lists as its zip would: folders with "/", hidden files, an empty student folder', async () => {
  const root = join(scratch.dir, 'download');
  mkdirSync(join(root, 'Ada Lovelace_101_assignsubmission_file_', 'drafts'), { recursive: true });
  mkdirSync(join(root, 'Empty Student_103_assignsubmission_file_'));
  writeFileSync(join(root, 'Ada Lovelace_101_assignsubmission_file_', 'essay.docx'), 'x');
  writeFileSync(join(root, 'Ada Lovelace_101_assignsubmission_file_', 'drafts', 'v1.docx'), 'x');
  writeFileSync(join(root, '.DS_Store'), 'x');
  const { paths, unreadable } = await listDownloadFolder(root);
  expect(unreadable.size).toBe(0);
  expect(paths).toEqual([
    '.DS_Store',
    'Ada Lovelace_101_assignsubmission_file_/',
    'Ada Lovelace_101_assignsubmission_file_/drafts/',
    'Ada Lovelace_101_assignsubmission_file_/drafts/v1.docx',
    'Ada Lovelace_101_assignsubmission_file_/essay.docx',
    'Empty Student_103_assignsubmission_file_/',
  ]);
  expect(recogniseDownload(paths).students.map((s) => [s.participantId, s.files.map((f) => f.originalName)])).toEqual([
    ['101', ['drafts/v1.docx', 'essay.docx']],
    ['103', []],
  ]);
});

test('a symbolic link in the folder is refused, as in a zip, rather than followed', async () => {
  const root = join(scratch.dir, 'download');
  mkdirSync(join(root, 'Ada Lovelace_101_assignsubmission_file_'), { recursive: true });
  symlinkSync('/etc', join(root, 'Ada Lovelace_101_assignsubmission_file_', 'etc'));
  const error = await listDownloadFolder(root).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(UsageError);
  expect((error as Error).message).toMatch(/assignsubmission_file_\/etc is a symbolic link/);
});
