// Whether a file's first bytes are what its name says: a text file named .docx, or a Word document
// named .txt, was sent and ended FAILURE at the service (and again on every re-run). Read here, before
// anything is sent, from the formats' own signatures: the few answer types there are, nothing more.
import { closeSync, openSync, readSync } from 'node:fs';
import { basename, extname } from 'node:path';
import type { FileProblem } from './files.js';

/** Enough of a file for every signature below (a PDF's header may follow a little junk). */
const HEAD_BYTES = 1024;
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

const starts = (bytes: Buffer, ...signature: (number | string)[]) => {
  const expected = Buffer.concat(signature.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.of(part))));
  return bytes.subarray(0, expected.length).equals(expected);
};

const KINDS: Record<string, Kind> = {
  pdf: { name: 'a PDF document', extension: '.pdf', is: (b) => b.includes('%PDF-') },
  zip: { name: 'a zip archive (a Word .docx is one)', extension: '.docx', is: (b) => starts(b, 'PK', 3, 4) },
  ole: { name: 'a Word 97-2003 (.doc) or other Office document', is: (b) => starts(b, 0xd0, 0xcf, 0x11, 0xe0) },
  rtf: { name: 'an RTF document', extension: '.rtf', is: (b) => starts(b, '{\\rtf') },
  png: { name: 'a PNG image', extension: '.png', is: (b) => starts(b, 0x89, 'PNG') },
  jpeg: { name: 'a JPEG image', extension: '.jpg', is: (b) => starts(b, 0xff, 0xd8, 0xff) },
  gif: { name: 'a GIF image', extension: '.gif', is: (b) => starts(b, 'GIF8') },
  webp: { name: 'a WebP image', extension: '.webp', is: (b) => starts(b, 'RIFF') && b.subarray(8, 12).toString('latin1') === 'WEBP' },
  // an iPhone's photo, often renamed .jpg on its way to a teacher
  heic: {
    name: 'an HEIC photo (an iPhone takes them)',
    advice: 'Convert it to JPEG or PNG (Preview or Photos can export it), or set the phone to take "Most Compatible" photos.',
    is: (b) =>
      b.subarray(4, 8).toString('latin1') === 'ftyp' &&
      /^(?:heic|heix|hevc|heim|heis|mif1|msf1)$/.test(b.subarray(8, 12).toString('latin1')),
  },
};

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

/** The problem with a file whose content is not its name's type, or undefined when it is (or cannot be told). */
export function contentMismatch(path: string, type: string | undefined): FileProblem | undefined {
  if (type === undefined || (type !== 'text/plain' && EXPECTED[type] === undefined)) return undefined;
  let bytes: Buffer;
  try {
    const fd = openSync(path, 'r');
    try {
      bytes = head.subarray(0, readSync(fd, head, 0, HEAD_BYTES, 0));
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined; // unreadable: said where it is read
  }
  const found = Object.values(KINDS).find((kind) => kind.is(bytes));
  if (type === 'text/plain') {
    const utf16 = starts(bytes, 0xff, 0xfe) || starts(bytes, 0xfe, 0xff);
    if (found === undefined && (utf16 || !bytes.includes(0))) return undefined;
    return mismatch(path, 'a text file', found ?? { name: 'binary data, not text' });
  }
  const expected = KINDS[EXPECTED[type]];
  if (expected.is(bytes)) return undefined;
  const text = !bytes.includes(0) && found === undefined;
  return mismatch(
    path,
    expected === KINDS.zip ? 'a Word (.docx) document' : expected.name,
    found ?? (text ? { name: 'plain text', extension: '.txt' } : { name: 'something else' }),
  );
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
