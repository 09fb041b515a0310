// Whether a file sent as plain text holds text: decided once, for kct (which refuses such a file
// before sending) and the sandbox (which refuses what reaches it), so the two never disagree.

/** How much of a file the rule reads: enough for a binary file's control bytes to show. */
export const TEXT_SAMPLE_BYTES = 8192;

/**
 * True when the first TEXT_SAMPLE_BYTES hold a NUL, or more than a tenth of control bytes (other
 * than tab, line breaks and form feed): binary data, not text. UTF-16 (its BOM) is text: check it first.
 */
export function holdsBinary(bytes: Uint8Array): boolean {
  const length = Math.min(bytes.length, TEXT_SAMPLE_BYTES);
  // searched as a latin1 string (a byte a character) by the regular-expression engine: a district's
  // files are read before V8 would optimise a loop over their bytes, five times slower
  const sample = Buffer.from(bytes.buffer, bytes.byteOffset, length).toString('latin1');
  if (sample.includes('\0')) return true;
  return (sample.match(CONTROLS)?.length ?? 0) > length / 10;
}

/** The control bytes that are not tab, line breaks or form feed. */
const CONTROLS = /[\x01-\x08\x0e-\x1f]/g;

/** One strict decoder (a decode without `stream` starts afresh): invalid UTF-8 throws. */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Bytes as UTF-8 text, a byte order mark dropped; undefined when they are not valid UTF-8 (Windows-1252, say). */
export function utf8Text(bytes: Uint8Array): string | undefined {
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  try {
    return STRICT_UTF8.decode(bom ? bytes.subarray(3) : bytes);
  } catch {
    return undefined;
  }
}

/** The byte order of UTF-16 text, from its byte order mark; undefined for bytes without one. */
export function utf16Order(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : undefined;
}

/**
 * Text as Windows and Excel save it, read exactly: UTF-16 by its byte order mark (Notepad's
 * "Unicode"), else UTF-8; undefined for anything else (an "ANSI" save), which is never guessed at.
 */
export function decodedText(bytes: Uint8Array): string | undefined {
  const order = utf16Order(bytes);
  if (order === undefined) return utf8Text(bytes);
  // strict, as UTF-8 is: two damaged files must not read as one text of replacement characters
  try {
    return new TextDecoder(order, { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** decodedText, else the bytes as UTF-8 with what is not replaced (a list, a key: read, not refused). */
export function lenientText(bytes: Uint8Array): string {
  return (
    decodedText(bytes) ??
    Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
      .toString('utf8')
      .replace(/^\uFEFF/, '')
  );
}
