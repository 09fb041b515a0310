// Every word of a PDF's text layer is marked, or named as left out (issue 21), over generated
// documents (document-model.ts, laid out by pdfkit): checked against poppler's pdftotext, the
// independent reader (Debian package poppler-utils; .ci/run installs it), read word by word
// (-tsv): its plain output joins a word hyphenated at a line end ("well-" "known" → "wellknown").
import { execFileSync, spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractText } from '../../packages/sandbox/src/engines/extract/index.js';
import { MIME } from '../../src/api/limits.js';
import { allowedExclusions, documentModels } from './document-model.js';
import { writePdf } from './document-writers.js';
import { extractorFiles } from './extract-helpers.js';
import { invented, propertyRuns, unexpectedExclusions, unmarked } from './word-audit.js';

const scratch = extractorFiles('kct-words-pdf-');
const settings = propertyRuns(25);
const PDFTOTEXT = spawnSync('pdftotext', ['-v']).error === undefined;
if (!PDFTOTEXT) console.warn('SKIPPED: the PDF words property did not run: pdftotext is not installed (apt-get install -y poppler-utils).');

/** The words pdftotext finds, as drawn: the text of its word boxes (rows of level 5). */
function pdftotextWords(path: string): string {
  const tsv = execFileSync('pdftotext', ['-tsv', '-enc', 'UTF-8', path, '-'], { encoding: 'utf8' });
  return tsv
    .split('\n')
    .slice(1)
    .map((row) => row.split('\t'))
    .filter((cols) => cols[0] === '5')
    .map((cols) => cols[11])
    .join('\n');
}

/** What writePdf prints at the foot of each page. */
const PAGE_NUMBER = /^Page \d+ of \d+$/;

describe(`PDF: every word is marked or named (seed ${settings.seed}, ${settings.numRuns} documents; KCT_PROPERTY_SEED, KCT_PROPERTY_RUNS)`, () => {
  it.skipIf(!PDFTOTEXT)(
    `paragraphs, short lines, columns of cells, lists and boxes are marked; only a title, cover sheet or running header and page number is left out, and named${PDFTOTEXT ? '' : ' (SKIPPED: pdftotext is not installed)'}`,
    async () => {
      let n = 0;
      await fc.assert(
        fc.asyncProperty(documentModels(30), async (m) => {
          const path = scratch(`doc-${n++}.pdf`, await writePdf(m));
          const reference = pdftotextWords(path);
          const { body, excluded } = await extractText(path, MIME.pdf);
          expect(unmarked(reference, body, excluded), "words of pdftotext's text").toEqual([]);
          expect(invented(reference, body, excluded), 'words read twice or made up').toEqual([]);
          expect(unexpectedExclusions(excluded, allowedExclusions(m, PAGE_NUMBER)), 'left out').toEqual([]);
        }),
        settings,
      );
    },
  );
});
