import { readFile } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
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
  // A damaged image is refused here: tesseract's decoders (libpng, libjpeg in Leptonica) would
  // only write their complaints to the process's stderr before failing the job.
  const kind = SIGNATURES.find((s) => s.test(data))!.name;
  const damage = damaged(kind, data);
  if (damage) throw new ExtractionError(`The ${kind} image is damaged (${damage}), so its text cannot be read: export or save it again.`);
  const text = await ocrImage(data);
  // OCR gives the page's lines: the body joins the wrapped ones into paragraphs.
  const { body, excluded } = structurePlainText(text);
  return { text, body: tidy(body), excluded, method: 'image/ocr' };
}

/** What is wrong with an image's container (cut short, a chunk that fails its checksum), or undefined when it is whole. */
function damaged(kind: string, data: Buffer): string | undefined {
  if (kind === 'PNG') {
    let at = 8;
    while (at + 12 <= data.length) {
      const length = data.readUInt32BE(at);
      const type = data.subarray(at + 4, at + 8);
      if (!/^[A-Za-z]{4}$/.test(type.toString('latin1'))) return `chunk at byte ${at} has no valid type`;
      if (at + 12 + length > data.length) return 'cut short';
      const stored = data.readUInt32BE(at + 8 + length);
      if (crc32(data.subarray(at + 8, at + 8 + length), crc32(type)) >>> 0 !== stored)
        return `${type.toString('latin1')} chunk fails its checksum`;
      if (type.toString('latin1') === 'IEND') return undefined;
      at += 12 + length;
    }
    return 'cut short';
  }
  if (kind === 'JPEG') {
    // an end-of-image marker after the start of the scan (some phones append a video after it)
    const scan = data.indexOf(Buffer.from([0xff, 0xda]));
    return scan < 0 || data.indexOf(Buffer.from([0xff, 0xd9]), scan) < 0 ? 'cut short' : undefined;
  }
  if (kind === 'GIF') return data.includes(0x3b, 13) ? undefined : 'cut short';
  if (kind === 'WebP') return data.length >= 12 && data.readUInt32LE(4) + 8 <= data.length ? undefined : 'cut short';
  return undefined;
}
