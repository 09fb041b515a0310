import { basename } from 'node:path';
import mime from 'mime';

const GENERIC = new Set(['', 'application/octet-stream']);

/** Plain-text variants the service reads as text; stated as text/plain so the server accepts them. */
const TEXT_ALIASES = new Set(['text/markdown', 'text/x-markdown']);

/** The MIME type for a file name, from its extension, or undefined when unknown. */
export function mimeFromName(name: string): string | undefined {
  const found = mime.getType(basename(name));
  if (found === null) return undefined;
  return TEXT_ALIASES.has(found) ? 'text/plain' : found;
}

/**
 * The type a server should act on (spec 4.4, 4.14): the declared type, unless it is missing or
 * application/octet-stream, in which case the extension decides.
 */
export function effectiveMime(declared: string | undefined | null, filename: string): string | undefined {
  const clean = (declared ?? '').split(';')[0].trim().toLowerCase();
  if (!GENERIC.has(clean)) return clean;
  return mimeFromName(filename);
}

export function isAccepted(type: string | undefined, accepted: readonly string[]): type is string {
  return type !== undefined && accepted.includes(type);
}
