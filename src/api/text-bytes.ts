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
