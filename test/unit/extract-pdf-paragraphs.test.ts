// The same essay reads the same from a PDF as from plain text: over generated essays set by pdfkit
// as a word processor sets them (left-aligned, a ragged right edge, space after each paragraph) in
// three fonts, at sizes and widths drawn at random, the text marked is the essay's paragraphs, each
// one line, so the grader finds the same sentences. A line that ended before "300 students" or
// "morning," with a little room left was once kept as a line of its own: the grader then counted
// "morning, so they…" as a sentence begun in lower case, and a PDF scored below its .txt.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractText } from '../../packages/sandbox/src/engines/extract/index.js';
import { MIME } from '../../src/api/limits.js';
import { extractorFiles } from './extract-helpers.js';
import { SENTENCES } from './grader-arbitraries.js';
import { propertyRuns } from './word-audit.js';

const scratch = extractorFiles('kct-pdf-paragraphs-');
const settings = propertyRuns(20);

// sentences with figures and wide words, which a line's average character underestimates
const MORE = [
  'In a survey of 300 students at our school in 2023, 62 percent said they worried less about their appearance.',
  'Students do not have to decide what to wear each morning, so they arrive on time and ready to learn.',
  'My mum, who works with 250 families, says uniforms cost £40 a term at most.',
];
const sentence = fc.constantFrom(...Object.values(SENTENCES).flat(), ...MORE);
// paragraphs of two lines or more (220 characters fill two at every width drawn): the spacing of
// lines within a paragraph, seen more often than the gaps between them, is what tells a gap apart
const essay = fc.array(
  fc
    .array(sentence, { minLength: 3, maxLength: 6 })
    .map((p) => p.join(' '))
    .filter((p) => p.length >= 220),
  { minLength: 1, maxLength: 5 },
);

/** pdfkit ships no types of its own: imported by a name the compiler does not follow (document-writers.ts does the same). */
const PDFKIT = 'pdfkit';

interface PdfKitDoc {
  on(event: string, listener: (...args: unknown[]) => void): void;
  font(name: string): PdfKitDoc;
  fontSize(size: number): PdfKitDoc;
  text(text: string, options?: object): PdfKitDoc;
  end(): void;
}

async function pdfOf(paragraphs: string[], font: string, size: number, margin: number, gap: number): Promise<Buffer> {
  const { default: PDFDocument } = (await import(PDFKIT)) as { default: new (options: object) => PdfKitDoc };
  const doc = new PDFDocument({ size: 'A4', margin, info: { CreationDate: new Date(Date.UTC(2024, 0, 1)) } });
  const chunks: Buffer[] = [];
  doc.on('data', (c) => chunks.push(c as Buffer));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  doc.font(font).fontSize(size);
  for (const p of paragraphs) doc.text(p, { align: 'left', paragraphGap: gap });
  doc.end();
  return done;
}

describe(`PDF: an essay set left-aligned reads as its paragraphs (seed ${settings.seed}, ${settings.numRuns} documents)`, () => {
  it('in Helvetica, Times and Courier, at any size and width', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        essay,
        fc.constantFrom('Helvetica', 'Times-Roman', 'Courier'),
        fc.integer({ min: 10, max: 13 }),
        fc.integer({ min: 50, max: 110 }),
        fc.constantFrom(8, 10, 14),
        async (paragraphs, font, size, margin, gap) => {
          const path = scratch(`essay-${n++}.pdf`, await pdfOf(paragraphs, font, size, margin, gap));
          const { body } = await extractText(path, MIME.pdf);
          expect(body.split(/\n\s*\n/).map((p) => p.trim())).toEqual(paragraphs);
        },
      ),
      {
        ...settings,
        examples: [[[MORE.slice(0, 2).join(' ')], 'Helvetica', 12, 72, 10]],
      },
    );
  }, 120_000);
});
