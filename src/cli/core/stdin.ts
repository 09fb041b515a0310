import { UsageError } from '../../api/errors.js';
import { MAX_FILE_BYTES } from '../../api/limits.js';
import { decodedText, lenientText } from '../../api/text-bytes.js';
import { notText } from '../../client/file-content.js';
import { type IO, notice } from './io.js';

/** Reads all of stdin as text (a list, a key, a body typed or piped in; UTF-16 by its byte order mark), up to the file size limit. */
export async function readStdinText(io: IO, what = 'the text'): Promise<string> {
  const bytes = await readStdinBytes(io, what);
  return lenientText(bytes);
}

/**
 * Reads an answer piped in (`kct one-pass - < essay.txt`): text, as UTF-8 or UTF-16 with its byte
 * order mark (another encoding is refused, never guessed). A PDF, a Word document or other binary
 * data is refused before anything is sent, by the rule a file named .txt is checked with: marked,
 * it would be charged for nothing.
 */
export async function readStdinAnswer(io: IO): Promise<string> {
  const bytes = await readStdinBytes(io, 'the answer');
  const held = notText(bytes);
  if (held !== undefined)
    throw new UsageError(`standard input holds ${held.name}: an answer piped in is read as text`, {
      suggestion: `Name the file instead (kct one-pass ${held.extension ? `essay${held.extension}` : '<file>'}): a file is sent as it is, its type read from its name.`,
    });
  const text = decodedText(bytes);
  if (text === undefined)
    throw new UsageError('standard input is not UTF-8 text (perhaps saved as Windows-1252, "ANSI"): kct does not guess an encoding', {
      suggestion:
        'Name the file instead (kct one-pass essay.txt): a file is sent as it is, and the service reads it. Or save it again as UTF-8.',
    });
  return text;
}

export async function readStdinBytes(io: IO, what: string): Promise<Buffer> {
  if (io.stdinIsTTY) notice(io, 'progress', `reading ${what} from standard input; end it with Ctrl-D`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of io.stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > MAX_FILE_BYTES) throw new UsageError(`standard input is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}
