// Whether a file's first bytes are what its name says: a text file named .docx, or a Word document
// named .txt, was sent and ended FAILURE at the service (and again on every re-run). Read here, before
// anything is sent, from the formats' own signatures: the few answer types there are, nothing more.
import { closeSync, openSync, readSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { holdsBinary, TEXT_SAMPLE_BYTES, utf16Order } from '../api/text-bytes.js';
import type { FileProblem } from './files.js';

/** Enough of a file for every signature below (a PDF's header may follow a little junk), and for the text rule. */
export const HEAD_BYTES = Math.max(1024, TEXT_SAMPLE_BYTES);
const head = Buffer.alloc(HEAD_BYTES);

interface Kind {
  /** What to call it in a message. */
  name: string;
  /** The extension to rename it to, when it is an answer type. */
  extension?: string;
  /** What to do with it, when it is not an answer type. */
  advice?: string;
  is(bytes: Buffer): boolean;
}

/** A signature's bytes, made once: the check runs on every file of a district before anything is sent. */
const signature = (...parts: (number | string)[]) =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.of(part))));
const starts = (bytes: Buffer, expected: Buffer) => bytes.length >= expected.length && expected.compare(bytes, 0, expected.length) === 0;
const at = (bytes: Buffer, offset: number, expected: Buffer) =>
  bytes.length >= offset + expected.length && expected.compare(bytes, offset, offset + expected.length) === 0;

const PDF = signature('%PDF-');
const ZIP = signature('PK', 3, 4);
const OLE = signature(0xd0, 0xcf, 0x11, 0xe0);
const RTF = signature('{\\rtf');
const PNG = signature(0x89, 'PNG');
const JPEG = signature(0xff, 0xd8, 0xff);
const GIF = signature('GIF8');
const RIFF = signature('RIFF');
const WEBP = signature('WEBP');
const FTYP = signature('ftyp');
const HEIF_BRANDS = ['heic', 'heix', 'hevc', 'heim', 'heis', 'mif1', 'msf1'].map((brand) => signature(brand));

const KINDS: Record<string, Kind> = {
  pdf: { name: 'a PDF document', extension: '.pdf', is: (b) => b.includes(PDF) },
  zip: { name: 'a zip archive (a Word .docx is one)', extension: '.docx', is: (b) => starts(b, ZIP) },
  ole: { name: 'a Word 97-2003 (.doc) or other Office document', is: (b) => starts(b, OLE) },
  rtf: { name: 'an RTF document', extension: '.rtf', is: (b) => starts(b, RTF) },
  png: { name: 'a PNG image', extension: '.png', is: (b) => starts(b, PNG) },
  jpeg: { name: 'a JPEG image', extension: '.jpg', is: (b) => starts(b, JPEG) },
  gif: { name: 'a GIF image', extension: '.gif', is: (b) => starts(b, GIF) },
  webp: { name: 'a WebP image', extension: '.webp', is: (b) => starts(b, RIFF) && at(b, 8, WEBP) },
  // an iPhone's photo, often renamed .jpg on its way to a teacher
  heic: {
    name: 'an HEIC photo (an iPhone takes them)',
    advice: 'Convert it to JPEG or PNG (Preview or Photos can export it), or set the phone to take "Most Compatible" photos.',
    is: (b) => at(b, 4, FTYP) && HEIF_BRANDS.some((brand) => at(b, 8, brand)),
  },
};

const ALL_KINDS = Object.values(KINDS);

/** What each answer type's first bytes must be; text is anything without a binary signature or a NUL. */
const EXPECTED: Record<string, keyof typeof KINDS> = {
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'zip',
  'application/rtf': 'rtf',
  'text/rtf': 'rtf',
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

/** A file's first HEAD_BYTES (in the one buffer, valid until the next call); throws when it cannot be read. */
export function readHead(path: string): Buffer {
  const fd = openSync(path, 'r');
  try {
    return head.subarray(0, readSync(fd, head, 0, HEAD_BYTES, 0));
  } finally {
    closeSync(fd);
  }
}

/** Whether a file of this type has its first bytes checked (contentMismatch): the answer types with a signature, and text. */
export function checksContent(type: string | undefined): type is string {
  return type !== undefined && (type === 'text/plain' || EXPECTED[type] !== undefined);
}

/** The problem with a file whose first bytes (readHead) are not its name's type, or undefined when they are. */
export function contentMismatch(path: string, type: string, bytes: Buffer): FileProblem | undefined {
  if (!checksContent(type)) return undefined;
  const found = ALL_KINDS.find((kind) => kind.is(bytes));
  if (type === 'text/plain') {
    const held = notText(bytes);
    return held === undefined ? undefined : mismatch(path, 'a text file', held);
  }
  const expected = KINDS[EXPECTED[type]];
  if (expected.is(bytes)) return undefined;
  const text = !holdsBinary(bytes) && found === undefined;
  return mismatch(
    path,
    expected === KINDS.zip ? 'a Word (.docx) document' : expected.name,
    found ?? (text ? { name: 'plain text', extension: '.txt' } : { name: 'something else' }),
  );
}

/** What bytes meant as text hold instead (a PDF, a Word document, binary data), from their first HEAD_BYTES; undefined for text (UTF-16 too). */
export function notText(bytes: Buffer): Pick<Kind, 'name' | 'extension' | 'advice'> | undefined {
  const sample = bytes.subarray(0, HEAD_BYTES);
  const found = ALL_KINDS.find((kind) => kind.is(sample));
  if (found === undefined && (utf16Order(sample) !== undefined || !holdsBinary(sample))) return undefined;
  return found ?? { name: 'binary data, not text' };
}

/**
 * The advice for a file whose name gives no answer type ("grace", "essay.final") but which holds
 * plain text: the name to give it. Undefined when it does not hold text (or cannot be read).
 */
export function renameTextHint(path: string): string | undefined {
  let bytes: Buffer;
  try {
    bytes = readHead(path);
  } catch {
    return undefined;
  }
  if (bytes.length === 0 || notText(bytes) !== undefined) return undefined;
  return `It holds plain text: rename it to ${basename(path)}.txt (an answer's type comes from its name), or leave it out.`;
}

function mismatch(path: string, named: string, found: Pick<Kind, 'name' | 'extension' | 'advice'>): FileProblem {
  const renamed = found.extension ? `${basename(path, extname(path))}${found.extension}` : undefined;
  return {
    kind: 'unsupported',
    path,
    ownHint: true,
    message: `${path} is named as ${named} but holds ${found.name}`,
    suggestion: renamed
      ? `Rename it to ${renamed} (what it holds), or get the answer again as the file it should be.`
      : (found.advice ?? 'Get the answer again as the file it should be, or export it to DOCX or PDF.'),
  };
}
