import { UsageError } from '../../api/errors.js';
import { MAX_FILE_BYTES } from '../../api/limits.js';
import { type IO, notice } from './io.js';

/** Reads all of stdin as UTF-8 text (an answer typed or piped in), up to the file size limit. */
export async function readStdinText(io: IO, what = 'the answer'): Promise<string> {
  if (io.stdinIsTTY) notice(io, 'progress', `reading ${what} from standard input; end it with Ctrl-D`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of io.stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > MAX_FILE_BYTES) throw new UsageError(`standard input is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
}
