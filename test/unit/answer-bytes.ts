// Test files whose bytes are what their names say: kct reads a file's first bytes before it sends it
// (src/client/file-content.ts), so a fixture named .pdf starts as a PDF does.
import { extname } from 'node:path';

const SIGNATURES: Record<string, Buffer> = {
  '.pdf': Buffer.from('%PDF-1.4\n'),
  '.docx': Buffer.from('PK\x03\x04', 'latin1'),
  '.rtf': Buffer.from('{\\rtf1 '),
  '.png': Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'),
  '.jpg': Buffer.of(0xff, 0xd8, 0xff, 0xe0),
  '.jpeg': Buffer.of(0xff, 0xd8, 0xff, 0xe0),
  '.gif': Buffer.from('GIF89a'),
  '.webp': Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBP')]),
};

/** `content` as a file named `path` holds it: its format's signature first (none for text, or an empty file). */
export function asNamed(path: string, content: string | Buffer): string | Buffer {
  const signature = SIGNATURES[extname(path).toLowerCase()];
  if (!signature || content.length === 0) return content;
  return Buffer.concat([signature, Buffer.from(content)]);
}
