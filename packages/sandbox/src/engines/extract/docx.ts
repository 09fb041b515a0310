import { readFile } from 'node:fs/promises';
import { docxFurniture } from './docx-furniture.js';
import { DOCX_STYLE_MAP, docxBlocks } from './docx-html.js';
import { ExtractionError, reason } from './errors.js';
import { render } from './marked.js';
import type { Extracted } from './tidy.js';
import { tidy } from './tidy.js';
import { checkUnpackedSize, ZipLimitError } from './zip.js';

/**
 * A .docx is a zip that mammoth unpacks in memory, so a small upload can be a zip bomb: its
 * sizes are checked first (declared and real). An essay's document.xml is well under 1 MB.
 */
const DOCX_LIMITS = {
  entries: 10_000,
  totalBytes: 200 * 1024 * 1024,
  partBytes: { name: 'word/document.xml', bytes: 100 * 1024 * 1024 },
} as const;

export async function extractDocx(filePath: string): Promise<Extracted> {
  // Read outside the try: a stored file that cannot be read is the sandbox's problem, not the
  // sender's, and its message (with a server path) must not reach them.
  const data = await readFile(filePath);
  const { default: mammoth } = await import('mammoth');
  let value: string;
  let furniture: string[];
  try {
    await checkUnpackedSize(data, DOCX_LIMITS);
    // HTML rather than raw text: it tells headings from paragraphs. Pictures become empty
    // elements instead of base64 data nobody reads.
    ({ value } = await mammoth.convertToHtml(
      { buffer: data },
      {
        styleMap: DOCX_STYLE_MAP,
        convertImage: mammoth.images.imgElement(async () => ({ src: '' })),
      },
    ));
    furniture = docxFurniture(data, DOCX_LIMITS.entries);
  } catch (err) {
    if (err instanceof ZipLimitError) {
      throw new ExtractionError(
        `The Word (.docx) document is too large once unpacked: ${err.message}. Send the essay as a smaller document, or as PDF or text.`,
        { cause: err },
      );
    }
    throw new ExtractionError(`The file is not a readable Word (.docx) document (${reason(err)}).`, { cause: err });
  }
  const { text, body, excluded } = render(docxBlocks(value), furniture);
  return { text: tidy(text), body: tidy(body), excluded, method: 'docx/mammoth' };
}
