import { readFile } from 'node:fs/promises';
import { ExtractionError } from './errors.js';
import { structurePlainText } from './marked.js';
import { ocrImage } from './ocr.js';
import type { Extracted } from './tidy.js';
import { tidy } from './tidy.js';

const SIGNATURES: { name: string; test: (b: Buffer) => boolean }[] = [
  { name: 'PNG', test: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { name: 'JPEG', test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { name: 'GIF', test: (b) => /^GIF8[79]a/.test(b.subarray(0, 6).toString('latin1')) },
  { name: 'WebP', test: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP' },
  // Not an accepted upload type, but a mislabelled BMP is still readable.
  { name: 'BMP', test: (b) => b[0] === 0x42 && b[1] === 0x4d },
];

export async function extractImage(filePath: string): Promise<Extracted> {
  const data = await readFile(filePath);
  // Checked here because tesseract reports an unknown format only as noise on stderr.
  if (!SIGNATURES.some((s) => s.test(data))) {
    throw new ExtractionError('The file is not a PNG, JPEG, WebP or GIF image, so its text cannot be read.');
  }
  const text = await ocrImage(data);
  // OCR gives the page's lines: the body joins the wrapped ones into paragraphs.
  const { body, excluded } = structurePlainText(text);
  return { text, body: tidy(body), excluded, method: 'image/ocr' };
}
