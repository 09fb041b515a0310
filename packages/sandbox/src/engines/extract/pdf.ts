import { readFile } from 'node:fs/promises';
import type * as Unpdf from 'unpdf';
import { ExtractionError, reason } from './errors.js';
import { render } from './marked.js';
import type { OcrClock } from './ocr.js';
import { ocrImage } from './ocr.js';
import { type PdfPageLines, type PdfTextItem, pageLines, pdfBlocks } from './pdf-layout.js';
import { encodePng } from './png.js';
import { type Block, plainTextBlocks } from './structure.js';
import type { Extracted } from './tidy.js';
import { tidy } from './tidy.js';

type PdfDocument = Awaited<ReturnType<typeof Unpdf.getDocumentProxy>>;
type PdfPage = Awaited<ReturnType<PdfDocument['getPage']>>;

// Pages are rendered for OCR at about 216 dpi for A4, but never wider or taller than this.
const OCR_SCALE = 3;
const OCR_MAX_SIDE = 3000;

/**
 * What one PDF may cost. OCR runs one page at a time on a queue shared by every task (~0.5 to
 * 3 s a page), so a long scan would hold up everyone else: a file with more scanned pages than
 * `ocrPages` is refused before any OCR, and one whose OCR takes longer than `ocrMs` in all (its
 * own rendering and recognition, not its wait in the queue) is stopped.
 */
export interface PdfLimits {
  pages: number;
  ocrPages: number;
  ocrMs: number;
}

export const PDF_LIMITS: Readonly<PdfLimits> = { pages: 200, ocrPages: 30, ocrMs: 120_000 };

async function paintsSomething(page: PdfPage): Promise<boolean> {
  const { OPS } = await (await import('unpdf')).getResolvedPDFJS();
  const painting = new Set<number>([
    OPS.paintImageXObject,
    OPS.paintInlineImageXObject,
    OPS.paintImageMaskXObject,
    OPS.paintImageXObjectRepeat,
    OPS.paintImageMaskXObjectRepeat,
    OPS.paintImageMaskXObjectGroup,
    OPS.paintInlineImageXObjectGroup,
    OPS.paintSolidColorImageMask,
    OPS.constructPath,
    OPS.shadingFill,
  ]);
  const { fnArray } = await page.getOperatorList();
  return fnArray.some((op) => painting.has(op));
}

const loadCanvas = () => import('@napi-rs/canvas');
let canvasLoads: Promise<boolean> | undefined;

/** The native canvas ships per platform; one missing for this one is not an error. */
function canRender(): Promise<boolean> {
  canvasLoads ??= loadCanvas().then(
    () => true,
    () => false,
  );
  return canvasLoads;
}

/**
 * OCR of pages without a text layer. Rendering sees everything a scanner or a PDF printer can put
 * there (inline images, masks, text drawn as outlines); without a canvas build for this platform
 * the page's decoded images are read instead.
 */
export class PageOcr {
  // Rendering needs pdf.js's canvas factory, which is given when a document opens: a second,
  // canvas-backed copy of the document is opened on the first page that needs it.
  private renderDoc: Promise<PdfDocument> | undefined;
  private readonly data: Uint8Array;
  private readonly pdf: PdfDocument;
  private readonly render: boolean;

  constructor(data: Uint8Array, pdf: PdfDocument, render = true) {
    this.data = data;
    this.pdf = pdf;
    this.render = render;
  }

  /** The page's text by OCR; its rendering and recognition time is added to `clock`. */
  async read(pageNumber: number, clock: OcrClock = { spentMs: 0 }): Promise<string> {
    const unpdf = await import('unpdf');
    if (this.render && (await canRender())) {
      const started = performance.now();
      this.renderDoc ??= unpdf
        .createIsomorphicCanvasFactory(loadCanvas)
        .then((CanvasFactory) =>
          unpdf.getDocumentProxy(new Uint8Array(this.data), { verbosity: 0, isEvalSupported: false, CanvasFactory }),
        );
      const doc = await this.renderDoc;
      const page = await doc.getPage(pageNumber);
      const { width, height } = page.getViewport({ scale: 1 });
      const scale = Math.min(OCR_SCALE, OCR_MAX_SIDE / Math.max(width, height, 1));
      const png = await unpdf.renderPageAsImage(doc, pageNumber, { canvasImport: loadCanvas, scale });
      page.cleanup();
      clock.spentMs += performance.now() - started;
      return ocrImage(new Uint8Array(png), clock);
    }
    const texts: string[] = [];
    for (const img of await unpdf.extractImages(this.pdf, pageNumber)) {
      texts.push(await ocrImage(encodePng(img.data, img.width, img.height, img.channels), clock));
    }
    return texts.filter(Boolean).join('\n\n');
  }

  async close(): Promise<void> {
    const doc = await this.renderDoc?.catch(() => undefined);
    await doc?.destroy();
  }
}

async function open(data: Uint8Array): Promise<PdfDocument> {
  const { getDocumentProxy } = await import('unpdf');
  try {
    // pdf.js may take over the buffer it is given; keep ours for rendering.
    return await getDocumentProxy(new Uint8Array(data), { verbosity: 0, isEvalSupported: false });
  } catch (err) {
    if (err instanceof Error && err.name === 'PasswordException') {
      throw new ExtractionError('The PDF is password-protected; send a copy without a password.', { cause: err });
    }
    throw new ExtractionError(`The PDF file could not be read: it is damaged or not a PDF (${reason(err)}).`, { cause: err });
  }
}

export async function extractPdf(filePath: string, limits: Readonly<PdfLimits> = PDF_LIMITS): Promise<Extracted> {
  const data = new Uint8Array(await readFile(filePath));
  const pdf = await open(data);
  const ocr = new PageOcr(data, pdf);
  // Per page: its text-layer lines, or the text OCR read from it.
  const pages: (PdfPageLines | string)[] = [];
  const scanned: number[] = [];
  let textPages = 0;
  try {
    if (pdf.numPages > limits.pages) {
      throw new ExtractionError(
        `The PDF has ${pdf.numPages} pages, over the sandbox's limit of ${limits.pages} pages per file; send only the pages of the answer.`,
      );
    }
    // The text layer first, for every page: a file with too many scanned pages is refused before
    // any of them goes to OCR.
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const items = (await page.getTextContent()).items.filter((i): i is typeof i & PdfTextItem => 'str' in i);
      const lines = pageLines(items);
      if (lines.length > 0) textPages++;
      else if (await paintsSomething(page)) scanned.push(n);
      pages.push({ lines, width: page.getViewport({ scale: 1 }).width });
      page.cleanup();
    }
    if (scanned.length > limits.ocrPages) {
      throw new ExtractionError(
        `The PDF has ${scanned.length} scanned pages (pages without a text layer), over the sandbox's limit of ${limits.ocrPages} pages read by OCR per file; send a PDF with a text layer, or fewer pages.`,
      );
    }
    const clock: OcrClock = { spentMs: 0 };
    for (const n of scanned) {
      pages[n - 1] = await ocr.read(n, clock);
      if (clock.spentMs > limits.ocrMs) {
        throw new ExtractionError(
          `Reading the PDF's scanned pages by OCR took longer than the sandbox's limit of ${limits.ocrMs / 1000} s per file (stopped after page ${n}, ${scanned.indexOf(n) + 1} of ${scanned.length} scanned pages); send a PDF with a text layer, or fewer or clearer pages.`,
        );
      }
    }
  } catch (err) {
    if (err instanceof ExtractionError) throw err;
    throw new ExtractionError(`The PDF file could not be read: a page is damaged (${reason(err)}).`, { cause: err });
  } finally {
    await ocr.close();
    await pdf.destroy();
  }
  const method = scanned.length === 0 ? 'pdf/text' : textPages === 0 ? 'pdf/ocr' : 'pdf/text+ocr';
  const { blocks, furniture } = documentBlocks(pages);
  const { text, body, excluded } = render(blocks, furniture);
  return { text: tidy(text), body: tidy(body), excluded, method };
}

/** Runs of text-layer pages are laid out together (a paragraph may run on over a page break); OCR pages as plain text. */
function documentBlocks(pages: (PdfPageLines | string)[]): { blocks: Block[]; furniture: string[] } {
  const blocks: Block[] = [];
  const furniture: string[] = [];
  let run: PdfPageLines[] = [];
  const flush = () => {
    if (run.length > 0) {
      const laid = pdfBlocks(run);
      blocks.push(...laid.blocks);
      furniture.push(...laid.furniture);
    }
    run = [];
  };
  for (const page of pages) {
    if (typeof page === 'string') {
      flush();
      blocks.push(...plainTextBlocks(page));
    } else {
      run.push(page);
    }
  }
  flush();
  return { blocks, furniture };
}
