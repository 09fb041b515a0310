import { UsageError } from '../../api/errors.js';

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** "1500ms", "3s", "30m", "2h", or a bare number of seconds, in milliseconds. */
export function parseDuration(text: string, what: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(text);
  if (!match) {
    throw new UsageError(`${what}: "${text}" is not a duration`, {
      suggestion: 'Use a number with a unit, e.g. 500ms, 3s, 30m, 2h (a bare number means seconds).',
    });
  }
  const ms = Math.round(Number(match[1]) * UNITS[match[2] ?? 's']);
  if (!Number.isFinite(ms) || ms <= 0)
    throw new UsageError(`${what} must be greater than zero (at least 1ms)`, {
      suggestion: 'Use a number with a unit, e.g. 500ms, 3s, 30m, 2h.',
    });
  return ms;
}
