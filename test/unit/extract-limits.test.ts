// Size and time limits of the extractors: a DOCX zip bomb is refused before it is unpacked in
// memory, a PDF with too many pages (or scanned pages, or OCR time) is refused with the limit named.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExtractionError, extractText } from '../../packages/sandbox/src/engines/extract/index.js';
import { extractPdf, PDF_LIMITS } from '../../packages/sandbox/src/engines/extract/pdf.js';
import { MIME } from '../../src/api/limits.js';
import { extractorFiles, GENERATED } from './extract-helpers.js';
import { documentXml, docx } from './zip-writer.js';

const scratch = extractorFiles('kct-limits-');

const MB = 1024 * 1024;

async function refusal(path: string, mime: string): Promise<ExtractionError> {
  const err = await extractText(path, mime).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ExtractionError);
  return err as ExtractionError;
}

describe('DOCX unpacked size', () => {
  it('reads a small document built by the same zip writer (the writer is sound)', async () => {
    const path = scratch('small.docx', docx(documentXml('Uniforms help.')));
    expect((await extractText(path, MIME.docx)).text).toBe('Uniforms help.');
  });

  it('refuses a document.xml that unpacks past 100 MB, from its declared size, before unpacking it', async () => {
    const path = scratch('big-document.docx', docx(documentXml('x', 101 * MB)));
    const err = await refusal(path, MIME.docx);
    expect(err.message).toMatch(/too large once unpacked: its part word\/document\.xml unpacks to 102 MB, over the limit of 100 MB/);
  });

  it('refuses parts that unpack past 200 MB in all', async () => {
    const filler = Buffer.alloc(70 * MB, 0x20);
    const path = scratch(
      'big-total.docx',
      docx(
        documentXml('x'),
        [1, 2, 3].map((n) => ({ name: `word/media/pad${n}.xml`, content: filler })),
      ),
    );
    const err = await refusal(path, MIME.docx);
    expect(err.message).toMatch(/its parts unpack to 211 MB in all, over the limit of 200 MB/);
  });

  it('refuses a document.xml whose header understates its size, by counting what it really inflates to', async () => {
    const path = scratch('lying.docx', docx(documentXml('x', 101 * MB), [], 1000));
    const err = await refusal(path, MIME.docx);
    expect(err.message).toMatch(/its part word\/document\.xml unpacks to more than 100 MB, over the limit of 100 MB/);
  });

  it('refuses an archive of too many parts before reading them', async () => {
    const parts = Array.from({ length: 10_001 }, (_, i) => ({ name: `p/${i}`, content: Buffer.alloc(0), stored: true }));
    const err = await refusal(scratch('many.docx', docx(documentXml('x'), parts)), MIME.docx);
    expect(err.message).toMatch(/holds 10004 parts, over the limit of 10000/);
  });
});

/** The few pdfkit calls used here (pdfkit ships no types of its own). */
interface PdfKitDoc {
  on(event: string, listener: (...args: any[]) => void): void;
  addPage(): PdfKitDoc;
  text(text: string): PdfKitDoc;
  rect(x: number, y: number, w: number, h: number): PdfKitDoc;
  fill(color: string): PdfKitDoc;
  end(): void;
}
const PDFKIT = 'pdfkit';

/** A PDF of `pages` pages built by pdfkit; `draw` puts something on each. */
async function pdf(pages: number, draw: (doc: PdfKitDoc, n: number) => void): Promise<Buffer> {
  const { default: PDFDocument } = (await import(PDFKIT)) as { default: new (options: object) => PdfKitDoc };
  const doc = new PDFDocument({ size: 'A4', autoFirstPage: false });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise((resolve) => doc.on('end', resolve));
  for (let n = 0; n < pages; n++) {
    doc.addPage();
    draw(doc, n);
  }
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

describe('PDF limits', () => {
  it('refuses more than 200 pages before reading any', async () => {
    const path = scratch('long.pdf', await pdf(201, (doc, n) => doc.text(`Page ${n + 1}`)));
    const err = await refusal(path, MIME.pdf);
    expect(err.message).toMatch(/The PDF has 201 pages, over the sandbox's limit of 200 pages per file/);
  });

  it('reads exactly 200 pages', async () => {
    // A different sentence on each page: a line repeated on every page would be a running header.
    const label = (n: number) => String.fromCharCode(65 + (n % 26)) + String.fromCharCode(97 + Math.floor(n / 26));
    const path = scratch('limit.pdf', await pdf(200, (doc, n) => doc.text(`Section ${label(n)} ends here.`)));
    const { text, method } = await extractText(path, MIME.pdf);
    expect(method).toBe('pdf/text');
    expect(text.split('\n\n')).toHaveLength(200);
  });

  it('refuses more than 30 scanned pages before any OCR', async () => {
    // Pages that paint something but have no text layer: what OCR would be asked to read.
    const path = scratch('scans.pdf', await pdf(31, (doc) => doc.rect(100, 100, 300, 200).fill('#000')));
    const err = await refusal(path, MIME.pdf);
    expect(err.message).toMatch(
      /The PDF has 31 scanned pages \(pages without a text layer\), over the sandbox's limit of 30 pages read by OCR per file/,
    );
  });

  it('stops OCR once a file has used up its OCR time, naming the limit', async () => {
    expect(PDF_LIMITS).toEqual({ pages: 200, ocrPages: 30, ocrMs: 120_000 });
    const err = await extractPdf(join(GENERATED, 'scanned-opening.pdf'), { ...PDF_LIMITS, ocrMs: 1 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ExtractionError);
    expect((err as Error).message).toMatch(
      /OCR took longer than the sandbox's limit of 0\.001 s per file \(stopped after page 1, 1 of 1 scanned pages\)/,
    );
  }, 60_000);
});
