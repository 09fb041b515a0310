// Every word of an RTF or a plain-text document is marked, or named as left out (issue 21), over
// generated documents (document-model.ts). The independent reader of a text file is the file
// itself; of RTF, the words the generator wrote into it (the model's, and the numbers of numbered
// lists), which no RTF package reads correctly (shared/verified-libraries.md). Pasted text goes through
// the same preparation as a task's (prepareTask), and the grader counts every word it marks.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it, onTestFinished } from 'vitest';
import { extractText } from '../../packages/sandbox/src/engines/extract/index.js';
import { readAnswer } from '../../packages/sandbox/src/engines/grading/document.js';
import { words } from '../../packages/sandbox/src/engines/grading/text.js';
import { prepareTask, readPrepared } from '../../packages/sandbox/src/engines/work/prepare.js';
import { MIME } from '../../src/api/limits.js';
import { allowedExclusions, documentModels } from './document-model.js';
import { type TextLayout, writeRtf, writeTxt } from './document-writers.js';
import { extractorFiles } from './extract-helpers.js';
import { invented, propertyRuns, unexpectedExclusions, unmarked } from './word-audit.js';

const scratch = extractorFiles('kct-words-text-');
const settings = propertyRuns(150);

describe(`RTF: every word is marked or named (seed ${settings.seed}, ${settings.numRuns} documents; KCT_PROPERTY_SEED, KCT_PROPERTY_RUNS)`, () => {
  it("tables, lists, footnotes, text boxes and headings are marked, accents as \\uN or \\'XX; only a title, cover sheet, header or footer is left out, and named", async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(documentModels(), fc.boolean(), async (m, codePage) => {
        const { rtf, words: written } = writeRtf(m, codePage);
        const { body, excluded } = await extractText(scratch(`doc-${n++}.rtf`, rtf), MIME.rtf);
        expect(unmarked(written, body, excluded), 'words the generator wrote').toEqual([]);
        expect(invented(written, body, excluded), 'words read twice or made up').toEqual([]);
        expect(unexpectedExclusions(excluded, allowedExclusions(m)), 'left out').toEqual([]);
      }),
      settings,
    );
  });
});

const layouts: fc.Arbitrary<TextLayout> = fc.record({
  wrap: fc.option(fc.integer({ min: 30, max: 90 }), { nil: undefined }),
  blankLines: fc.boolean(),
  crlf: fc.boolean(),
  cells: fc.constantFrom(' | ' as const, '\t' as const),
});

describe(`TXT and pasted text: every word is marked or named (seed ${settings.seed}, ${settings.numRuns} documents; KCT_PROPERTY_SEED, KCT_PROPERTY_RUNS)`, () => {
  it('wrapped or not, with or without blank lines: only a title or cover sheet is left out, and named; the grader counts every marked word', async () => {
    const taskDir = mkdtempSync(join(tmpdir(), 'kct-words-task-'));
    onTestFinished(() => rmSync(taskDir, { recursive: true, force: true }));
    let n = 0;
    await fc.assert(
      fc.asyncProperty(documentModels(), layouts, async (m, layout) => {
        const text = writeTxt(m, layout);
        const file = await extractText(scratch(`doc-${n++}.txt`, text), MIME.txt);
        expect(unmarked(text, file.body, file.excluded), 'words of the file').toEqual([]);
        expect(invented(text, file.body, file.excluded), 'words read twice or made up').toEqual([]);
        expect(unexpectedExclusions(file.excluded, allowedExclusions(m)), 'left out').toEqual([]);
        // The same text pasted as paper_content, as the task's UPLOADING stage prepares it.
        const prepared = await prepareTask({ files: [], paperContent: text, taskDir });
        if (!prepared.ok) throw new Error(`not prepared: ${prepared.comment}`);
        const { answerText, notMarked = [] } = readPrepared(prepared.preparedJson, taskDir);
        expect(unmarked(text, answerText, notMarked), 'words pasted').toEqual([]);
        expect(invented(text, answerText, notMarked), 'words read twice or made up').toEqual([]);
        expect(readAnswer(answerText, undefined).wordCount, "the grader's word count").toBe(words(answerText).length);
      }),
      settings,
    );
  });
});
