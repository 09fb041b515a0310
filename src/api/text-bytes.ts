// Whether a file sent as plain text holds text: decided once, for kct (which refuses such a file
// before sending) and the sandbox (which refuses what reaches it), so the two never disagree.

/** How much of a file the rule reads: enough for a binary file's control bytes to show. */
export const TEXT_SAMPLE_BYTES = 8192;

/**
 * True when the first TEXT_SAMPLE_BYTES hold a NUL, or more than a tenth of control bytes (other
 * than tab, line breaks and form feed): binary data, not text. UTF-16 (its BOM) is text: check it first.
 */
export function holdsBinary(bytes: Uint8Array): boolean {
  const sample = bytes.subarray(0, TEXT_SAMPLE_BYTES);
  let controls = 0;
  for (const b of sample) {
    if (b === 0) return true;
    if (b < 9 || (b > 13 && b < 32)) controls++;
  }
  return controls > sample.length / 10;
}
