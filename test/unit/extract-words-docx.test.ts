// Every word of a Word document is marked, or named as left out (issue 21), over generated
// documents (document-model.ts, written with the `docx` package): checked against mammoth's raw
// text, the independent reader, and against the words the generator wrote, which mammoth's raw
// text lacks for footnotes, headers and footers.
import fc from 'fast-check';
import mammoth from 'mammoth';
import { describe, expect, it } from 'vitest';
import { extractText } from '../../packages/sandbox/src/engines/extract/index.js';
import { readAnswer } from '../../packages/sandbox/src/engines/grading/document.js';
import { words } from '../../packages/sandbox/src/engines/grading/text.js';
import { MIME } from '../../src/api/limits.js';
import { allowedExclusions, documentModels, modelText } from './document-model.js';
import { writeDocx } from './document-writers.js';
import { extractorFiles } from './extract-helpers.js';
import { invented, propertyRuns, unexpectedExclusions, unmarked } from './word-audit.js';

const scratch = extractorFiles('kct-words-docx-');
const settings = propertyRuns(40);

describe(`DOCX: every word is marked or named (seed ${settings.seed}, ${settings.numRuns} documents; KCT_PROPERTY_SEED, KCT_PROPERTY_RUNS)`, () => {
  it('tables, lists, footnotes, text boxes and headings are marked; only a title, cover sheet, header or footer is left out, and named; the grader counts every marked word', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(documentModels(10), async (m) => {
        const path = scratch(`doc-${n++}.docx`, await writeDocx(m));
        const { value: raw } = await mammoth.extractRawText({ path });
        const { body, excluded } = await extractText(path, MIME.docx);
        expect(unmarked(raw, body, excluded), "words of mammoth's raw text").toEqual([]);
        expect(unmarked(modelText(m), body, excluded), 'words the generator wrote').toEqual([]);
        expect(invented(modelText(m), body, excluded), 'words read twice or made up').toEqual([]);
        expect(unexpectedExclusions(excluded, allowedExclusions(m)), 'left out').toEqual([]);
        expect(readAnswer(body, undefined).wordCount, "the grader's word count").toBe(words(body).length);
      }),
      settings,
    );
  });
});
