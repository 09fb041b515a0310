// Checks of flag values that several commands share, and `checked`, which makes any of them a
// flag's `check:` (docs/architecture.md, "Adding a command"): one way to check an option.

import { UsageError } from '../../api/errors.js';
import { thousands } from '../../api/thousands.js';
import type * as z from '../../api/zod.js';
import type { Zod } from './define-command.js';

/** An empty value is an unset shell variable ($MODEL, $TASK), never an id, a path or a name: said before any request. */
export const EMPTY = 'it is empty (an unset shell variable?)';

/** A flag's `check:` from a parser: the value is parsed as the command's options are, the error naming the flag. */
export function checked<T>(
  parse: (value: string, flag: string) => T,
  flag: string,
  { parsesEmpty = false } = {},
): (zod: Zod) => z.ZodType<T> {
  return (zod) =>
    zod.string().transform((value) => {
      if (!parsesEmpty && !/\S/.test(value))
        throw new UsageError(`invalid value for ${flag}: ${EMPTY}`, { suggestion: 'Run with --help for usage.' });
      return parse(value, flag);
    }) as unknown as z.ZodType<T>;
}

/** A whole number of milliseconds, 0 or more. */
export function parseMilliseconds(value: string, what: string): number {
  if (!/^\d+$/.test(value)) throw new UsageError(`${what} must be a whole number of milliseconds, not "${value}"`);
  return Number(value);
}

/** A model id; `source` (from settings: "--model", "environment (KCT_MODEL)", a profile) is named when it is wrong. */
export function parseModelId(value: string | undefined, source?: string): number {
  if (value === undefined || value === '') {
    throw new UsageError('no model given', {
      suggestion: 'Pass --model <id> (see `kct models`), set KCT_MODEL, or `kct config set model <id>`.',
    });
  }
  const where =
    source === undefined || source === '--model'
      ? 'model id'
      : `model id from ${source.replace(/^environment \((\w+)\)$/, '$1').replace(/^profile (".*")$/, 'the config (profile $1)')}`;
  const fix = source?.includes('KCT_MODEL')
    ? ' Fix or unset KCT_MODEL.'
    : source?.startsWith('profile')
      ? ' Fix it with `kct config set model <id>`.'
      : '';
  return parsePositiveInteger(value, where, `Model ids are whole numbers from \`kct models\`.${fix}`);
}

export function parsePositiveInteger(value: string, what: string, hint?: string): number {
  if (!/^\d+$/.test(value.trim()) || Number(value) <= 0) {
    throw new UsageError(`${what} must be a positive whole number, not "${value}"`, {
      suggestion: hint ?? `Give ${what} a whole number of 1 or more.`,
    });
  }
  // past 2^53 a number is rounded: kct would send, and name, another number than the one typed
  if (!Number.isSafeInteger(Number(value)))
    throw new UsageError(
      `${what} ${value.trim()} is too large: a whole number kct can send exactly is at most ${thousands(Number.MAX_SAFE_INTEGER)}`,
      {
        suggestion: hint ?? `Give ${what} a whole number of 1 or more.`,
      },
    );
  return Number(value);
}

export function parsePositiveNumber(value: string, what: string): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number <= 0)
    throw new UsageError(`${what} must be a positive number, not "${value}"`);
  return number;
}

/** --max-rps: a whole number of requests a second, at least 1 (KCT_MAX_RPS is read by cli/core/environment.ts). */
export function parseMaxRps(value: string): number {
  const trimmed = value.trim();
  if (!/^\d+$/.test(trimmed) || Number(trimmed) < 1) {
    throw new UsageError(`--max-rps must be a whole number of requests a second, at least 1 (not "${value}")`, {
      suggestion: 'For example --max-rps 10; without it kct finds the pace the service allows.',
    });
  }
  return Number(trimmed);
}

/** The value of the deprecated -o/--output FILE of `kct report` and `kct ingest`: a file, never a format. */
export function outputAsFile(value: string): string {
  if (['table', 'json', 'ndjson', 'csv'].includes(value)) {
    throw new UsageError(`-o/--output names an output format elsewhere in kct; this command writes a file: give it with --out`, {
      suggestion: `For example --out class.html; for a JSON summary on stdout, add --json.`,
    });
  }
  return value;
}

/** A TCP port to listen on; 0 takes any free one. */
export function parsePort(value: string, what = '--port'): number {
  if (!/^\d+$/.test(value) || Number(value) > 65535) throw new UsageError(`${what} must be 0 to 65535, not "${value}"`);
  return Number(value);
}
