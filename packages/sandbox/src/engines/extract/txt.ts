import { readFile } from 'node:fs/promises';
import iconv from 'iconv-lite';
import { holdsBinary } from 'kct/api/text-bytes.js';
import { ExtractionError } from './errors.js';
import { structurePlainText } from './marked.js';
import type { Extracted } from './tidy.js';
import { tidy } from './tidy.js';

/**
 * Plain text as people really save it: UTF-8 (with or without BOM), UTF-16 with a BOM, or an old
 * Windows editor's windows-1252. A strict UTF-8 decode decides; windows-1252 is the fallback
 * because it is a superset of latin1 for printable text and covers curly quotes and dashes.
 */
export function decodeText(buf: Buffer): { text: string; encoding: string } {
  if (buf[0] === 0xff && buf[1] === 0xfe) return { text: buf.subarray(2).toString('utf16le'), encoding: 'utf-16le' };
  if (buf[0] === 0xfe && buf[1] === 0xff) return { text: iconv.decode(buf.subarray(2), 'utf-16be'), encoding: 'utf-16be' };
  const body = buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? buf.subarray(3) : buf;
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(body), encoding: 'utf-8' };
  } catch {
    return { text: iconv.decode(body, 'windows-1252'), encoding: 'windows-1252' };
  }
}

export async function extractTxt(filePath: string): Promise<Extracted> {
  const buf = await readFile(filePath);
  const utf16 = (buf[0] === 0xff && buf[1] === 0xfe) || (buf[0] === 0xfe && buf[1] === 0xff);
  // a binary file sent as text/plain would otherwise be "graded" as mojibake (the rule kct checks before sending)
  if (!utf16 && holdsBinary(buf)) {
    throw new ExtractionError('The text file holds binary data, not plain text; send it with its real file type.');
  }
  const { text, encoding } = decodeText(buf);
  // The text as typed (question and rubric files are read line by line); the body as paragraphs.
  const tidied = tidy(text);
  const { body, excluded } = structurePlainText(tidied);
  return { text: tidied, body: tidy(body), excluded, method: `text/${encoding}` };
}
