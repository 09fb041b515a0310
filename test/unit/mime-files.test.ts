import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/api/errors.js';
import { IMAGE_MIME_TYPES, MAX_FILE_BYTES, MIME } from '../../src/api/limits.js';
import { effectiveMime, isAccepted, mimeFromName } from '../../src/api/mime.js';
import { checkFileCount, inspectFile } from '../../src/client/files.js';

describe('mimeFromName', () => {
  it.each([
    ['essay.pdf', MIME.pdf],
    ['essay.docx', MIME.docx],
    ['essay.rtf', MIME.rtf],
    ['essay.txt', MIME.txt],
    ['notes.md', MIME.txt],
    ['scan.png', MIME.png],
    ['scan.jpg', MIME.jpeg],
    ['scan.jpeg', MIME.jpeg],
    ['scan.webp', MIME.webp],
    ['scan.gif', MIME.gif],
    ['SCAN.PDF', MIME.pdf],
    ['/some/dir.with.dots/essay.final.pdf', MIME.pdf],
  ])('%s → %s', (name, type) => {
    expect(mimeFromName(name)).toBe(type);
  });

  it('returns undefined for unknown or missing extensions', () => {
    expect(mimeFromName('essay.unknownext')).toBeUndefined();
    expect(mimeFromName('README')).toBeUndefined();
    expect(mimeFromName('')).toBeUndefined();
  });

  it('knows .exe but as a type the service does not accept', () => {
    const type = mimeFromName('setup.exe');
    expect(type).toBeDefined();
    expect(isAccepted(type, [MIME.pdf, MIME.txt])).toBe(false);
  });
});

describe('effectiveMime', () => {
  it('keeps a specific declared type, lower-cased and without parameters', () => {
    expect(effectiveMime('text/plain; charset=utf-8', 'a.pdf')).toBe('text/plain');
    expect(effectiveMime('Application/PDF', 'a.bin')).toBe('application/pdf');
    expect(effectiveMime(' image/png ', 'a.txt')).toBe('image/png');
  });

  it('infers from the extension when the type is octet-stream or missing', () => {
    expect(effectiveMime('application/octet-stream', 'essay.docx')).toBe(MIME.docx);
    expect(effectiveMime('application/octet-stream; name=x', 'essay.pdf')).toBe(MIME.pdf);
    expect(effectiveMime(undefined, 'scan.jpg')).toBe(MIME.jpeg);
    expect(effectiveMime(null, 'notes.md')).toBe(MIME.txt);
    expect(effectiveMime('', 'essay.rtf')).toBe(MIME.rtf);
  });

  it('returns undefined when neither tells', () => {
    expect(effectiveMime('application/octet-stream', 'blob')).toBeUndefined();
    expect(effectiveMime(undefined, 'blob.unknownext')).toBeUndefined();
  });
});

describe('isAccepted', () => {
  it('checks membership and rejects undefined', () => {
    expect(isAccepted(MIME.png, IMAGE_MIME_TYPES)).toBe(true);
    expect(isAccepted(MIME.pdf, IMAGE_MIME_TYPES)).toBe(false);
    expect(isAccepted(undefined, IMAGE_MIME_TYPES)).toBe(false);
  });
});

describe('inspectFile', () => {
  let dir: string;
  const path = (name: string) => join(dir, name);

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'kct-files-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  async function usageError(file: string, accepted?: readonly string[]): Promise<UsageError> {
    try {
      await inspectFile(file, accepted);
    } catch (error) {
      expect(error).toBeInstanceOf(UsageError);
      return error as UsageError;
    }
    throw new Error(`expected inspectFile(${file}) to fail`);
  }

  it('describes a good file', async () => {
    writeFileSync(path('essay.txt'), 'An essay about rivers.\n');
    expect(await inspectFile(path('essay.txt'))).toEqual({
      path: path('essay.txt'),
      name: 'essay.txt',
      type: MIME.txt,
      size: 23,
      // read whole by the check, which keeps its digest for the idempotency key
      sha256: createHash('sha256').update('An essay about rivers.\n').digest('hex'),
    });
  });

  it('states Markdown as text/plain', async () => {
    writeFileSync(path('notes.md'), '# Notes\n');
    expect((await inspectFile(path('notes.md'))).type).toBe(MIME.txt);
  });

  it('reports a missing file', async () => {
    const error = await usageError(path('nope.pdf'));
    expect(error.message).toContain('file not found');
    expect(error.message).toContain('nope.pdf');
    expect(error.code).toBe('usage');
    expect(error.suggestion).toBeTruthy();
  });

  it('refuses a folder', async () => {
    mkdirSync(path('folder.pdf'));
    expect((await usageError(path('folder.pdf'))).message).toContain('is a folder');
  });

  it('refuses an unsupported type', async () => {
    writeFileSync(path('setup.exe'), 'MZ');
    writeFileSync(path('data.unknownext'), 'x');
    expect((await usageError(path('setup.exe'))).message).toContain('unsupported file type');
    expect((await usageError(path('data.unknownext'))).message).toContain('unsupported file type');
    // the type its extension gives ("chemical/x-xyz") tells a teacher nothing: the file is named, and the hint its extension
    writeFileSync(path('notes.xyz'), 'x');
    const xyz = await usageError(path('notes.xyz'));
    expect(xyz.message).toBe(`unsupported file type for ${path('notes.xyz')}`);
  });

  it('checks the type against the list it is given', async () => {
    writeFileSync(path('plain.txt'), 'text');
    expect((await usageError(path('plain.txt'), IMAGE_MIME_TYPES)).message).toContain('unsupported file type');
  });

  it('refuses an empty file', async () => {
    writeFileSync(path('empty.txt'), '');
    expect((await usageError(path('empty.txt'))).message).toContain('is empty');
  });

  it('refuses a file over 20 MB', async () => {
    writeFileSync(path('huge.pdf'), '');
    truncateSync(path('huge.pdf'), 21 * 1024 * 1024);
    const error = await usageError(path('huge.pdf'));
    expect(error.message).toContain('22,020,096 bytes (21.00 MiB)');
    expect(error.message).toContain('the limit is 20,971,520 bytes (20 MiB) per file');
  });

  it('shows by how much a file just over the limit is over it', async () => {
    writeFileSync(path('just-over.pdf'), '');
    truncateSync(path('just-over.pdf'), 21_000_000);
    expect((await usageError(path('just-over.pdf'))).message).toMatch(/21,000,000 bytes \(20\.03 MiB\); the limit is 20,971,520 bytes/);
  });

  it('accepts a file of exactly 20 MB', async () => {
    writeFileSync(path('limit.pdf'), '%PDF-1.4\n'); // a PDF's first bytes: kct reads them before sending
    truncateSync(path('limit.pdf'), MAX_FILE_BYTES);
    expect((await inspectFile(path('limit.pdf'))).size).toBe(MAX_FILE_BYTES);
  });
});

describe('checkFileCount', () => {
  it('allows up to 10 files', () => {
    expect(() => checkFileCount(0)).not.toThrow();
    expect(() => checkFileCount(10)).not.toThrow();
  });

  it('refuses 11 files', () => {
    expect(() => checkFileCount(11)).toThrow(UsageError);
    expect(() => checkFileCount(11)).toThrow(/11 files.*limit is 10/);
  });

  it('takes another maximum', () => {
    expect(() => checkFileCount(1, 'request', 1)).not.toThrow();
    expect(() => checkFileCount(2, 'request', 1)).toThrow(UsageError);
    expect(() => checkFileCount(11, 'answer')).toThrow(/11 files in one answer; the limit is 10 files per answer/);
  });
});
