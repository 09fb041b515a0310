// The multipart body of small files (client/multipart.ts): encoded into one buffer by
// form-data-encoder, it must read back as the same form undici's own encoding would send: every
// field, every file's name, type and bytes. Read back by undici's parser (Response.formData()).
import fc from 'fast-check';
import { Response } from 'undici';
import { describe, expect, it } from 'vitest';
import { ONE_READ_BYTES } from '../../../src/client/files.js';
import { buildForm, type EncodedForm } from '../../../src/client/multipart.js';
import { FormData } from '../../../src/client/undici.js';
import { propertyRuns, propertySeed } from '../property-runs.js';

const file = (name: string, bytes: Uint8Array, type = 'text/plain') => ({
  path: `/nowhere/${name}`,
  name,
  type,
  size: bytes.length,
  data: bytes,
});

async function readBack(body: FormData | EncodedForm) {
  const response =
    body instanceof FormData ? new Response(body) : new Response(body.bytes, { headers: { 'content-type': body.contentType } });
  const entries = [];
  for (const [name, value] of await response.formData())
    entries.push(typeof value === 'string' ? [name, value] : [name, value.name, value.type, new Uint8Array(await value.arrayBuffer())]);
  return entries;
}

describe('a multipart body', () => {
  it('small files are encoded in one buffer; a body past one read goes as a FormData undici streams', async () => {
    const small = await buildForm({ model_id: 12 }, [{ field: 'answer_files', file: file('a.txt', new Uint8Array(10)) }]);
    expect(small).not.toBeInstanceOf(FormData);
    expect((small as EncodedForm).contentType).toMatch(/^multipart\/form-data; boundary=/);
    const big = await buildForm({ model_id: 12 }, [{ field: 'answer_files', file: file('a.pdf', new Uint8Array(ONE_READ_BYTES + 1)) }]);
    expect(big).toBeInstanceOf(FormData);
  });

  it('property: the encoded body reads back as the same form as undici encodes it (names with quotes and line breaks, any bytes)', async () => {
    const name = fc.string({ minLength: 1, maxLength: 20 });
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(
          fc.string({ minLength: 1, maxLength: 12 }).filter((key) => key !== '__proto__'),
          fc.oneof(fc.string(), fc.integer(), fc.array(fc.string(), { maxLength: 3 })),
        ),
        fc.array(fc.record({ field: fc.constantFrom('answer_files', 'rubric_files'), name, bytes: fc.uint8Array({ maxLength: 2000 }) }), {
          minLength: 1,
          maxLength: 4,
        }),
        async (fields, parts) => {
          const files = parts.map((part) => ({ field: part.field, file: file(part.name, part.bytes) }));
          const encoded = await buildForm(fields, files);
          expect(encoded).not.toBeInstanceOf(FormData);
          // undici's own encoding of the same form, as kct sent it before
          const reference = new FormData();
          for (const [key, value] of Object.entries(fields))
            reference.append(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
          for (const part of files) reference.append(part.field, new Blob([part.file.data], { type: part.file.type }), part.file.name);
          expect(await readBack(encoded)).toEqual(await readBack(reference));
        },
      ),
      { numRuns: propertyRuns(60), seed: propertySeed(344) },
    );
  });
});
