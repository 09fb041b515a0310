import { MIME } from 'kct/api/limits.js';
import { extractDocx } from './docx.js';
import { ExtractionError } from './errors.js';
import { extractImage } from './image.js';
import { closeOcr } from './ocr.js';
import { extractPdf } from './pdf.js';
import { extractRtf } from './rtf.js';
import type { Extracted } from './tidy.js';
import { extractTxt } from './txt.js';

export { ExtractionError } from './errors.js';
export type { Extracted } from './tidy.js';

/**
 * The text of an answer, question or rubric file. Heavy libraries (pdf.js, mammoth, tesseract) load
 * on first use of their format. `method` names how the text was got, e.g. "pdf/ocr"; `text` is ''
 * when the file holds none; `body` is the part an answer is marked on (see `Extracted`). Throws an
 * ExtractionError, with a message meant for the sender, when the file cannot be read as the type
 * it claims.
 */
export async function extractText(filePath: string, mimeType: string): Promise<Extracted> {
  switch (mimeType) {
    case MIME.txt:
      return extractTxt(filePath);
    case MIME.pdf:
      return extractPdf(filePath);
    case MIME.docx:
      return extractDocx(filePath);
    case MIME.rtf:
    case MIME.rtfText:
      return extractRtf(filePath);
    case MIME.png:
    case MIME.jpeg:
    case MIME.webp:
    case MIME.gif:
      return extractImage(filePath);
    default:
      throw new ExtractionError(`Files of type ${mimeType || '(none)'} cannot be read; send PDF, DOCX, RTF, TXT or an image.`);
  }
}

/** Ends the shared OCR worker, if one was started, so the process can exit. */
export async function closeExtractors(): Promise<void> {
  await closeOcr();
}
