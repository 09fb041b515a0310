// The multipart body kct encodes in memory when every file's bytes are at hand (client/multipart.ts,
// encodeForm) is byte for byte the body undici writes for the same FormData: the service reads the
// same request either way, whatever the field names, values, file names and types hold.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { FormData, Response } from 'undici';
import { describe, expect, it } from 'vitest';
import { fileBlob, type LocalFile } from '../../packages/kct/src/client/files.js';
import { buildForm, type EncodedForm, encodeForm, type FilePart } from '../../packages/kct/src/client/multipart.js';
import { propertyRuns, propertySeed } from './property-runs.js';

/** What undici sends for the FormData buildForm made before encodeForm existed: its bytes and Content-Type. */
async function undiciEncoding(fields: Record<string, unknown>, files: readonly FilePart[]): Promise<{ type: string; bytes: Buffer }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    form.append(name, typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  for (const part of files) form.append(part.field, await fileBlob(part.file), part.file.name);
  const response = new Response(form);
  return { type: response.headers.get('content-type') as string, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** Strings with what the encoding treats apart: line breaks, quotes, lone surrogates, non-ASCII. */
const text = fc
  .array(
    fc.oneof(
      fc.constantFrom('\r', '\n', '\r\n', '"', '%', ' ', ';', 'é', '\ud800', '\udc00', '😀', 'a', 'Z', '\t', '\u007f'),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    ),
    { maxLength: 12 },
  )
  .map((units) => units.join(''));

const file = (name: string, type: string, data: Uint8Array): LocalFile => ({
  path: `/answers/${name}`,
  name,
  type,
  size: data.length,
  data,
});

describe('encodeForm', () => {
  it('writes the bytes undici writes for the same form', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(
          text,
          fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(undefined), fc.constant(null), fc.array(fc.integer(), { maxLength: 3 })),
        ),
        fc.array(
          fc.record({
            field: text,
            name: text,
            type: fc.oneof(text, fc.constantFrom('text/plain', 'Text/PLAIN', 'application/pdf', 'image/JPEG', '')),
            data: fc.uint8Array({ maxLength: 64 }),
          }),
          { maxLength: 3 },
        ),
        async (fields, parts) => {
          const files = parts.map((part) => ({ field: part.field, file: file(part.name, part.type, part.data) }));
          const theirs = await undiciEncoding(fields, files);
          const ours = encodeForm(fields, files, theirs.type.replace('multipart/form-data; boundary=', ''));
          expect(ours.contentType).toBe(theirs.type);
          expect(ours.body.equals(theirs.bytes)).toBe(true);
        },
      ),
      { numRuns: propertyRuns(300), seed: propertySeed(21) },
    );
  });

  it('names a fresh boundary of undici’s form each time', () => {
    const a = encodeForm({ model_id: 12 }, []);
    const b = encodeForm({ model_id: 12 }, []);
    expect(a.contentType).toMatch(/^multipart\/form-data; boundary=----formdata-undici-0\d{11}$/);
    expect(a.contentType).not.toBe(b.contentType);
  });
});

describe('buildForm', () => {
  it('encodes in memory when every file holds its bytes, and streams a FormData when one is read from disk', async () => {
    const small = file('a1.txt', 'text/plain', new TextEncoder().encode('An answer.\n'));
    const inMemory = (await buildForm({ model_id: 12 }, [{ field: 'answer_files', file: small }])) as EncodedForm;
    expect(Buffer.isBuffer(inMemory.body)).toBe(true);
    expect(inMemory.body.toString('utf8')).toContain('filename="a1.txt"\r\nContent-Type: text/plain\r\n\r\nAn answer.\n\r\n');

    const folder = mkdtempSync(join(tmpdir(), 'kct-multipart-'));
    try {
      const path = join(folder, 'big.pdf');
      writeFileSync(path, '%PDF-1.4\n');
      const onDisk: LocalFile = { path, name: 'big.pdf', type: 'application/pdf', size: 9 };
      const streamed = await buildForm({ model_id: 12 }, [
        { field: 'answer_files', file: small },
        { field: 'answer_files', file: onDisk },
      ]);
      expect(streamed).toBeInstanceOf(FormData);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
