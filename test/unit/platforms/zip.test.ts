import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { UsageError } from '../../../src/api/errors.js';
import { recogniseDownload } from '../../../src/platforms/submissions.js';
import { extractZip, listZipEntries } from '../../../src/platforms/zip.js';
import type { ZipPart } from '../zip-writer.js';
import { scratchDir, text, writeZip } from './fixtures.js';

let scratch: { dir: string; remove: () => void };
let extractTo: string;
beforeEach(() => {
  scratch = scratchDir('zip');
  // where extractZip makes its private folder, so a test sees whatever is left behind
  extractTo = join(scratch.dir, 'extract');
  mkdirSync(extractTo);
});
afterEach(() => scratch.remove());

const MOODLE: ZipPart[] = [
  { name: 'Ada Lovelace_101_assignsubmission_file_/Essay final.docx', content: text('essay bytes') },
  { name: 'Ada Lovelace_101_assignsubmission_onlinetext_/onlinetext.html', content: text('<p>Typed answer</p>') },
  { name: 'Empty Student_103_assignsubmission_file_/', content: Buffer.alloc(0), stored: true },
  { name: '__MACOSX/Ada Lovelace_101_assignsubmission_file_/._Essay final.docx', content: text('resource fork') },
  { name: 'Séan Ó Búrca_104_assignsubmission_file_/aiste.txt', content: text('téacs'), flags: 0x800 },
];

const extract = (path: string, limits = {}) => extractZip(path, { tempDir: extractTo, limits });

describe('extractZip', () => {
  test('extracts a Moodle download into a private folder: files 0600, folders 0700, the empty student folder kept, __MACOSX listed but not written', async () => {
    const zipPath = writeZip(scratch.dir, 'submissions.zip', MOODLE);
    const extracted = await extract(zipPath);
    try {
      expect(statSync(extracted.root).mode & 0o777).toBe(0o700);
      expect(extracted.entries.map((e) => [e.path, e.directory, e.skipped ?? ''])).toEqual([
        ['Ada Lovelace_101_assignsubmission_file_/Essay final.docx', false, ''],
        ['Ada Lovelace_101_assignsubmission_onlinetext_/onlinetext.html', false, ''],
        ['Empty Student_103_assignsubmission_file_/', true, ''],
        ['__MACOSX/Ada Lovelace_101_assignsubmission_file_/._Essay final.docx', false, 'macOS metadata'],
        ['Séan Ó Búrca_104_assignsubmission_file_/aiste.txt', false, ''],
      ]);
      const essay = join(extracted.root, 'Ada Lovelace_101_assignsubmission_file_/Essay final.docx');
      expect(readFileSync(essay, 'utf8')).toBe('essay bytes');
      expect(statSync(essay).mode & 0o777).toBe(0o600);
      expect(readFileSync(join(extracted.root, 'Séan Ó Búrca_104_assignsubmission_file_/aiste.txt'), 'utf8')).toBe('téacs');
      expect(readdirSync(join(extracted.root, 'Empty Student_103_assignsubmission_file_'))).toEqual([]);
      expect(readdirSync(extracted.root)).not.toContain('__MACOSX');
      // the entry list is what recogniseDownload reads: every student accounted for, the empty one too
      const download = recogniseDownload(extracted.entries.map((e) => e.path));
      expect(download.students.map((s) => [s.participantId, s.files.length])).toEqual([
        ['101', 2],
        ['103', 0],
        ['104', 1],
      ]);
    } finally {
      await extracted.cleanup();
    }
    expect(readdirSync(extractTo)).toEqual([]);
  });

  test('a UTF-8 name without the UTF-8 flag (rubyzip, Canvas) is read as UTF-8; other bytes as CP437', async () => {
    const zipPath = writeZip(scratch.dir, 'canvas.zip', [
      { name: 'józefżak_301_9001_esej.docx', content: text('x') },
      { name: 'éte.txt', rawName: Buffer.from([0x82, 0x74, 0x65, 0x2e, 0x74, 0x78, 0x74]), content: text('y') }, // é in CP437
    ]);
    expect((await listZipEntries(zipPath)).map((e) => e.path)).toEqual(['józefżak_301_9001_esej.docx', 'éte.txt']);
  });

  test('listZipEntries reads names and declared sizes without extracting anything', async () => {
    const zipPath = writeZip(scratch.dir, 'submissions.zip', MOODLE);
    const entries = await listZipEntries(zipPath);
    expect(entries.map((e) => [e.path, e.size])).toContainEqual(['Ada Lovelace_101_assignsubmission_file_/Essay final.docx', 11]);
  });
});

describe('refusals, before anything is extracted', () => {
  const refused = async (parts: ZipPart[], pattern: RegExp, limits = {}) => {
    const zipPath = writeZip(scratch.dir, 'bad.zip', [{ name: 'A_1_assignsubmission_file_/ok.txt', content: text('fine') }, ...parts]);
    await expect(listZipEntries(zipPath, limits)).rejects.toThrow(pattern);
    const error = await extract(zipPath, limits).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).suggestion).toMatch(/Download the submissions again/);
    expect(readdirSync(extractTo)).toEqual([]);
  };

  test.each([
    ['../evil.txt', /"\.\.\/evil\.txt" has a "\.\." in its path/],
    ['A_1_assignsubmission_file_/../../evil.txt', /has a "\.\." in its path/],
    ['/etc/cron.d/evil', /has an absolute path/],
    ['C:/Windows/evil.txt', /has a drive letter/],
    ['..\\..\\evil.txt', /has a backslash in its name/],
    ['a/./b.txt', /an empty or "\." folder/],
    ['a\u0001b.txt', /control characters/],
  ])('an entry named %j (zip slip)', async (name, pattern) => {
    await refused([{ name, content: text('x'), flags: 0x800 }], pattern);
  });

  test('an encrypted entry (general purpose bit 0), and strong encryption (bit 6)', async () => {
    await refused(
      [{ name: 'B_2_assignsubmission_file_/secret.docx', content: text('x'), flags: 0x1 }],
      /"B_2_assignsubmission_file_\/secret.docx" is encrypted/,
    );
    await refused([{ name: 'B_2_assignsubmission_file_/secret.docx', content: text('x'), flags: 0x41 }], /encrypt/);
  });

  test('a symbolic link', async () => {
    await refused([{ name: 'B_2_assignsubmission_file_/link', content: text('/etc/passwd'), unixMode: 0o120777 }], /is a symbolic link/);
  });

  test('a compression ratio over 100 to 1 for an entry over 1 MiB (a zip bomb)', async () => {
    await refused(
      [{ name: 'B_2_assignsubmission_file_/zeros.txt', content: Buffer.alloc(5 * 1024 * 1024) }],
      /would inflate \d+ bytes to 5242880 \(more than 100 to 1\): a zip bomb/,
    );
  });

  test('more declared bytes than the limit, and more entries than the limit', async () => {
    await refused(
      [{ name: 'B_2_assignsubmission_file_/big.txt', content: text('small'), declare: 2000, stored: false }],
      /declares more than 1000 bytes once unzipped \(reached at "B_2_assignsubmission_file_\/big.txt"\)/,
      { maxTotalBytes: 1000 },
    );
    await refused(
      [1, 2, 3].map((i) => ({ name: `B_${i}_assignsubmission_file_/f.txt`, content: text('x') })),
      /holds 4 entries; kct reads at most 3/,
      { maxEntries: 3 },
    );
  });

  test('the same path twice, or a file where a folder is', async () => {
    await refused([{ name: 'A_1_assignsubmission_file_/ok.txt', content: text('again') }], /appears twice/);
    await refused(
      [{ name: 'A_1_assignsubmission_file_/ok.txt/inner.txt', content: text('x') }],
      /is inside "A_1_assignsubmission_file_\/ok.txt", which is a file/,
    );
  });

  test('a file that is not a zip', async () => {
    const path = join(scratch.dir, 'not.zip');
    writeFileSync(path, 'hello');
    await expect(listZipEntries(path)).rejects.toThrow(/could not be read as a zip/);
  });
});

describe('while extracting', () => {
  test('an entry whose real size exceeds its declared size is cut off and the whole extraction undone', async () => {
    // declares 1,000 bytes (under every limit) but inflates to 2 MiB: the check can only be made while inflating
    const zipPath = writeZip(scratch.dir, 'lying.zip', [
      { name: 'A_1_assignsubmission_file_/ok.txt', content: text('fine') },
      { name: 'B_2_assignsubmission_file_/bomb.txt', content: Buffer.alloc(2 * 1024 * 1024, 0x61), declare: 1000 },
    ]);
    await expect(listZipEntries(zipPath)).resolves.toHaveLength(2);
    const error = await extract(zipPath).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(/"B_2_assignsubmission_file_\/bomb.txt" holds more than the 1000 bytes it declares/);
    expect(readdirSync(extractTo)).toEqual([]);
  });

  test('an entry with less data than declared is refused as damaged', async () => {
    const zipPath = writeZip(scratch.dir, 'short.zip', [
      { name: 'A_1_assignsubmission_file_/short.txt', content: text('only this'), declare: 500 },
    ]);
    const error = await extract(zipPath).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(/short.txt" could not be extracted \(not enough bytes/);
    expect(readdirSync(extractTo)).toEqual([]);
  });
});
