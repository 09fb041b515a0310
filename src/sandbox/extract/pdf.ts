import { readFile } from 'node:fs/promises';
import type * as Unpdf from 'unpdf';
import { ExtractionError, reason } from './errors.js';
import { ocrImage } from './ocr.js';
import { encodePng } from './png.js';
import { tidy } from './tidy.js';

type PdfDocument = Awaited<ReturnType<typeof Unpdf.getDocumentProxy>>;
type PdfPage = Awaited<ReturnType<PdfDocument['getPage']>>;
type TextContent = Awaited<ReturnType<PdfPage['getTextContent']>>;

// Pages are rendered for OCR at about 216 dpi for A4, but never wider or taller than this.
const OCR_SCALE = 3;
const OCR_MAX_SIDE = 3000;

/**
 * Lines from pdf.js text items, with an empty line where the vertical gap says a paragraph ends:
 * the grader counts paragraphs, and pdf.js's own join loses them.
 */
export function pageText(content: TextContent): string {
  let out = '';
  let lastY: number | undefined;
  let lastHeight = 0;
  const breakLine = (blank: boolean) => {
    if (out === '') return;
    if (!out.endsWith('\n')) out += '\n';
    if (blank && !out.endsWith('\n\n')) out += '\n';
  };
  for (const item of content.items) {
    if (!('str' in item)) continue;
    const y = Number(item.transform[5]);
    const height = item.height || Math.hypot(Number(item.transform[2]), Number(item.transform[3]));
    if (item.str !== '' && lastY !== undefined) {
      const gap = Math.abs(lastY - y);
      const lineHeight = Math.max(height, lastHeight, 1);
      if (gap > lineHeight * 0.5) breakLine(gap > lineHeight * 1.8);
    }
    out += item.str;
    if (item.hasEOL) breakLine(false);
    if (item.str !== '') {
      lastY = y;
      lastHeight = height;
    }
  }
  return out;
}

async function paintsSomething(page: PdfPage): Promise<boolean> {
  const { OPS } = await (await import('unpdf')).getResolvedPDFJS();
  const painting = new Set<number>([
    OPS.paintImageXObject, OPS.paintInlineImageXObject, OPS.paintImageMaskXObject,
    OPS.paintImageXObjectRepeat, OPS.paintImageMaskXObjectRepeat, OPS.paintImageMaskXObjectGroup,
    OPS.paintInlineImageXObjectGroup, OPS.paintSolidColorImageMask, OPS.constructPath, OPS.shadingFill,
  ]);
  const { fnArray } = await page.getOperatorList();
  return fnArray.some((op) => painting.has(op));
}

const loadCanvas = () => import('@napi-rs/canvas');
let canvasLoads: Promise<boolean> | undefined;

/** The native canvas ships per platform; one missing for this one is not an error. */
function canRender(): Promise<boolean> {
  canvasLoads ??= loadCanvas().then(() => true, () => false);
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

  async read(pageNumber: number): Promise<string> {
    const unpdf = await import('unpdf');
    if (this.render && (await canRender())) {
      this.renderDoc ??= unpdf.createIsomorphicCanvasFactory(loadCanvas).then((CanvasFactory) =>
        unpdf.getDocumentProxy(new Uint8Array(this.data), { verbosity: 0, isEvalSupported: false, CanvasFactory }));
      const doc = await this.renderDoc;
      const page = await doc.getPage(pageNumber);
      const { width, height } = page.getViewport({ scale: 1 });
      const scale = Math.min(OCR_SCALE, OCR_MAX_SIDE / Math.max(width, height, 1));
      const png = await unpdf.renderPageAsImage(doc, pageNumber, { canvasImport: loadCanvas, scale });
      page.cleanup();
      return ocrImage(new Uint8Array(png));
    }
    const texts: string[] = [];
    for (const img of await unpdf.extractImages(this.pdf, pageNumber)) {
      texts.push(await ocrImage(encodePng(img.data, img.width, img.height, img.channels)));
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

export async function extractPdf(filePath: string): Promise<{ text: string; method: string }> {
  const data = new Uint8Array(await readFile(filePath));
  const pdf = await open(data);
  const ocr = new PageOcr(data, pdf);
  const pages: string[] = [];
  let textPages = 0;
  let ocrPages = 0;
  try {
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      let text = tidy(pageText(await page.getTextContent()));
      if (text !== '') textPages++;
      else if (await paintsSomething(page)) {
        text = await ocr.read(n);
        ocrPages++;
      }
      page.cleanup();
      if (text !== '') pages.push(text);
    }
  } catch (err) {
    if (err instanceof ExtractionError) throw err;
    throw new ExtractionError(`The PDF file could not be read: a page is damaged (${reason(err)}).`, { cause: err });
  } finally {
    await ocr.close();
    await pdf.destroy();
  }
  const method = ocrPages === 0 ? 'pdf/text' : textPages === 0 ? 'pdf/ocr' : 'pdf/text+ocr';
  return { text: pages.join('\n\n'), method };
}
