/**
 * An answer file that cannot be turned into text. The message is written for the person who sent
 * the file: the sandbox puts it in the `comment` of a FAILURE entry as it is.
 */
export class ExtractionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ExtractionError';
  }
}

/** The library's own words, kept short, for the end of a human message. */
export function reason(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  const line = text.split('\n')[0].trim();
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}
