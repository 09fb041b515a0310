// RTF documents: streamed through rtf-stream-parser's tokenizer into a walk that keeps the
// writer's text (rtf-walker.ts), kept in this package: none of the RTF packages reads text right.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { ExtractionError, reason } from './errors.js';
import type { Token } from './rtf-vocabulary.js';
import { Walker } from './rtf-walker.js';
import type { Extracted } from './tidy.js';
import { tidy } from './tidy.js';

async function startsLikeRtf(filePath: string): Promise<boolean> {
  const fh = await open(filePath, 'r');
  try {
    const { buffer, bytesRead } = await fh.read(Buffer.alloc(32), 0, 32, 0);
    return /^\s*\{\\rtf/.test(
      buffer
        .subarray(0, bytesRead)
        .toString('latin1')
        .replace(/^\ufeff|^\xef\xbb\xbf/, ''),
    );
  } finally {
    await fh.close();
  }
}

export async function extractRtf(filePath: string): Promise<Extracted> {
  if (!(await startsLikeRtf(filePath))) {
    throw new ExtractionError('The file is not an RTF document (it does not start with "{\\rtf").');
  }
  const { Tokenize } = await import('rtf-stream-parser');
  const tokens = new Tokenize();
  // Streamed in chunks so a 20 MB file with embedded pictures never becomes millions of tokens at once.
  createReadStream(filePath)
    .on('error', (err) => tokens.destroy(err))
    .pipe(tokens);
  const walker = new Walker();
  try {
    for await (const token of tokens) walker.token(token as Token);
  } catch (err) {
    throw new ExtractionError(`The RTF document could not be read (${reason(err)}).`, { cause: err });
  }
  const { text, body, excluded } = walker.result();
  return { text: tidy(text), body: tidy(body), excluded, method: 'rtf' };
}
