// A file that fits in one read is read once (key and body from the same bytes); a larger one is
// streamed from disk.
// Either way a file's idempotency key depends only on its content.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEXT_SAMPLE_BYTES } from '../../src/api/text-bytes.js';
import { fileBlob, inspectFileSync, ONE_READ_BYTES, withContent } from '../../src/client/files.js';
import { cachedHasher, deriveIdempotencyKey, fileSha256, hashFile } from '../../src/client/idempotency.js';
import { propertyRuns, propertySeed } from './property-runs.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kct-content-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('withContent', () => {
  it('attaches the bytes of a file that fits in one read, and the body is exactly those bytes', async () => {
    writeFileSync(join(dir, 'small.txt'), 'A short essay about tides.\n');
    const file = withContent(inspectFileSync(join(dir, 'small.txt')));
    expect(Buffer.from(file.data!).toString('utf8')).toBe('A short essay about tides.\n');
    const blob = await fileBlob(file);
    expect(blob.type).toBe('text/plain');
    expect(await blob.text()).toBe('A short essay about tides.\n');
  });

  it('leaves a larger file on disk, streamed as a file-backed Blob', async () => {
    writeFileSync(join(dir, 'large.txt'), 'x'.repeat(ONE_READ_BYTES + 1));
    const file = withContent(inspectFileSync(join(dir, 'large.txt')));
    expect(file.data).toBeUndefined();
    expect((await fileBlob(file)).size).toBe(ONE_READ_BYTES + 1);
  });

  it('reports a file that vanished after the check with its path, as a local file error', () => {
    writeFileSync(join(dir, 'gone.txt'), 'soon gone');
    const checked = inspectFileSync(join(dir, 'gone.txt'));
    rmSync(join(dir, 'gone.txt'));
    expect(() => withContent(checked)).toThrow(expect.objectContaining({ code: 'ENOENT', path: join(dir, 'gone.txt') }));
  });
});

describe('file hashes and derived keys', () => {
  it('hash the same whether the bytes are in memory or read from disk', async () => {
    writeFileSync(join(dir, 'same.txt'), 'The same answer, word for word.\n');
    const onDisk = inspectFileSync(join(dir, 'same.txt'));
    const inMemory = withContent(onDisk);
    expect(inMemory.data).toBeDefined();
    const sha = await fileSha256(onDisk.path);
    expect(await hashFile(inMemory)).toBe(sha);
    expect(await hashFile(onDisk)).toBe(sha);
    expect(await cachedHasher()(inMemory)).toBe(sha);
    const fields = { model_id: 12, student_id: 'same' };
    const a = await deriveIdempotencyKey('one-pass', fields, [{ field: 'answer_files', file: onDisk }]);
    const b = await deriveIdempotencyKey('one-pass', fields, [{ field: 'answer_files', file: inMemory }], cachedHasher());
    expect(a).toMatch(/^kct-[0-9a-f]{40}$/);
    expect(b).toBe(a);
  });

  // the check reads a short answer whole and keeps its digest for the plan; a key is of what is sent
  it(`property: a short answer's digest is its bytes' SHA-256, and a key is of the bytes sent, however the file changed since its check (seed ${propertySeed(5161)})`, async () => {
    const letters = fc.constantFrom(...'Tides rise and fall twice a day.\n é'.split(''));
    const sizes = fc.oneof(
      fc.constantFrom(TEXT_SAMPLE_BYTES - 1, TEXT_SAMPLE_BYTES, TEXT_SAMPLE_BYTES + 1),
      fc.integer({ min: 1, max: 3 * TEXT_SAMPLE_BYTES }),
    );
    const edits = fc.constantFrom('none', 'appended', 'grown past one read', 'shortened');
    await fc.assert(
      fc.asyncProperty(sizes, fc.array(letters, { minLength: 1, maxLength: 40 }), edits, async (size, pattern, edit) => {
        const path = join(dir, 'digest.txt');
        const bytes = Buffer.from(pattern.join('').repeat(Math.ceil(size / pattern.length))).subarray(0, size);
        writeFileSync(path, bytes);
        const checked = inspectFileSync(path);
        expect(checked.sha256 !== undefined).toBe(size < TEXT_SAMPLE_BYTES);
        if (checked.sha256 !== undefined) expect(checked.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
        if (edit === 'appended') writeFileSync(path, Buffer.concat([bytes, Buffer.from('!')]));
        if (edit === 'grown past one read') writeFileSync(path, Buffer.alloc(ONE_READ_BYTES + 1, 0x61));
        if (edit === 'shortened') writeFileSync(path, bytes.subarray(0, 1));
        // what is sent now, keyed by what it is now
        const onDisk = await fileSha256(path);
        expect(await hashFile(withContent(checked))).toBe(onDisk);
        expect(await hashFile(checked)).toBe(onDisk);
        expect(await cachedHasher()(checked)).toBe(onDisk);
      }),
      { numRuns: propertyRuns(60), seed: propertySeed(5161) },
    );
  });

  it('change when the content changes', async () => {
    writeFileSync(join(dir, 'edit.txt'), 'first draft');
    const before = await deriveIdempotencyKey('one-pass', {}, [
      { field: 'answer_files', file: withContent(inspectFileSync(join(dir, 'edit.txt'))) },
    ]);
    writeFileSync(join(dir, 'edit.txt'), 'second draft');
    const after = await deriveIdempotencyKey('one-pass', {}, [
      { field: 'answer_files', file: withContent(inspectFileSync(join(dir, 'edit.txt'))) },
    ]);
    expect(after).not.toBe(before);
  });
});
