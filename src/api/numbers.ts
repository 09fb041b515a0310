// How a number and a count read in kct's words, in one chalk-free place: the CLI's rows and the
// learning platforms' notes (a library module) say "1 row", "2 rows" the same way.

/** A score or a count as printed: whole numbers as they are, others to two decimals. */
export function formatNumber(value: unknown): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return value === undefined || value === null ? '' : String(value);
  return Number.isInteger(value) ? String(value) : String(Math.round(value * 100) / 100);
}

export function plural(count: number, noun: string): string {
  return `${formatNumber(count)} ${noun}${count === 1 ? '' : 's'}`;
}
