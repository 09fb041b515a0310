// How a one-pass submission goes (client/one-pass.ts): files as multipart by default; asked to
// (textAsJson), one plain-text answer as JSON paper_content, anything else still as multipart, and
// the same key either way. The property: the text sent is exactly what the sandbox reads from the
// file, so the same words are marked (its own decoder, engines/extract/txt.ts, is the oracle).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeText } from '../../../packages/sandbox/src/engines/extract/txt.js';
import { inspectFileSync, withContent } from '../../../src/client/files.js';
import { idempotencyKeyFor } from '../../../src/client/idempotency.js';
import { onePassRequest, plainTextAnswer, readAndKey } from '../../../src/client/one-pass.js';
import { propertyRuns, propertySeed } from '../property-runs.js';

const dir = mkdtempSync(join(tmpdir(), 'kct-unit-one-pass-body-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let made = 0;

function file(name: string, bytes: string | Uint8Array) {
  const path = join(dir, `${made++}-${name}`);
  writeFileSync(path, bytes);
  return withContent(inspectFileSync(path));
}

/** A file as a caller describes it, not as kct would inspect it (which refuses binary bytes named .txt). */
function described(name: string, bytes: Uint8Array) {
  const path = join(dir, `${made++}-${name}`);
  writeFileSync(path, bytes);
  return withContent({ path, name, type: 'text/plain', size: bytes.length });
}

const fields = { model_id: 12, student_id: 's-001' };
const ASKED = { textAsJson: true };

describe('the body of a one-pass submission', () => {
  it('by default a text answer file goes as multipart, as a file', () => {
    const request = onePassRequest({ fields, answerFiles: [file('d.txt', 'My essay about uniforms.\n')] }, 'kct-key');
    expect(request.json).toBeUndefined();
    expect(request.form).toBeTypeOf('function');
  });

  it('asked to, one UTF-8 text answer goes as JSON paper_content (a BOM dropped), with its fields', () => {
    const request = onePassRequest({ fields, answerFiles: [file('a.txt', '\uFEFFMy essay about uniforms.\n')] }, 'kct-key', ASKED);
    expect(request.form).toBeUndefined();
    expect(request.json).toEqual({ ...fields, paper_content: 'My essay about uniforms.\n' });
    expect(request.idempotencyKey).toBe('kct-key');
  });

  it.each([
    ['a file that is not UTF-8 (windows-1252)', { answerFiles: [file('latin.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]))] }],
    ['two pages', { answerFiles: [file('p1.txt', 'Page one.'), file('p2.txt', 'Page two.')] }],
    ['a rubric file with it', { answerFiles: [file('b.txt', 'An essay.')], rubricFiles: [file('rubric.txt', 'Criterion 1')] }],
    ['a question file with it', { answerFiles: [file('c.txt', 'An essay.')], questionFiles: [file('q.txt', 'The question')] }],
    ['a blank file (the service says what is wrong with it)', { answerFiles: [file('blank.txt', '  \n\n')] }],
    ['a binary file named .txt', { answerFiles: [described('bin.txt', Buffer.from([0x41, 0x00, 0x42]))] }],
    ['a PDF', { answerFiles: [file('a.pdf', '%PDF-1.4 not really')] }],
  ])('%s goes as multipart, even when text is asked for', (_name, input) => {
    const request = onePassRequest({ fields, ...input }, undefined, ASKED);
    expect(request.json).toBeUndefined();
    expect(request.form).toBeTypeOf('function');
  });

  it('pasted text (paper_content) goes as JSON as it is', () => {
    expect(onePassRequest({ fields: { ...fields, paper_content: 'Pasted.' } }, undefined).json).toEqual({
      ...fields,
      paper_content: 'Pasted.',
    });
  });

  it('the key does not depend on how the body goes: it is made from the file by the one rule, as before', async () => {
    const answer = file('k.txt', 'The same essay.\n');
    const { idempotencyKey } = await readAndKey({ fields, answerFiles: [answer] }, 'derive');
    expect(idempotencyKey).toBe(
      await idempotencyKeyFor('derive', { endpoint: 'one-pass', fields, files: [{ field: 'answer_files', file: answer }] }),
    );
  });

  it('property: the text sent is what the sandbox reads from the file; whatever is not sent as text goes as the file', () => {
    const bytes = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 300 }).map((text) => Buffer.from(text, 'utf8')),
      fc
        .string({ unit: 'binary', maxLength: 300 })
        .map((text) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')])),
      fc.uint8Array({ minLength: 1, maxLength: 300 }).map((array) => Buffer.from(array)),
    );
    fc.assert(
      fc.property(bytes, (content) => {
        fc.pre(content.length > 0);
        const answer = described('p.txt', content);
        const text = plainTextAnswer({ fields, answerFiles: [answer] });
        const request = onePassRequest({ fields, answerFiles: [answer] }, undefined, ASKED);
        if (text === undefined) {
          expect(request.form).toBeTypeOf('function');
          return;
        }
        expect(decodeText(content)).toEqual({ text, encoding: 'utf-8' });
        expect((request.json as { paper_content: string }).paper_content).toBe(text);
      }),
      { numRuns: propertyRuns(200), seed: propertySeed(343) },
    );
  });
});
