// One reader for kct's environment variables: every KCT_* variable kct reads is declared in
// src/cli/core/environment.ts and read only there, a bad value names the variable, and the manual
// lists exactly the declared ones.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/api/errors.js';
import { fromEnv, VARIABLES } from '../../src/cli/core/environment.js';

const ROOT = join(import.meta.dirname, '..', '..');
/** Variables of the development tools (tests, benchmarks, CI, the executable's build), documented in docs/testing.md. */
const DEVELOPMENT = new Set([
  'KCT_REQUIRE_BROWSER',
  'KCT_GRADER_FIGURES',
  'KCT_PROPERTY_RUNS',
  'KCT_PROPERTY_SEED',
  'KCT_PROPERTY_SHRINK',
  'KCT_CHROMIUM',
  'KCT_SEA_NODE',
  'KCT_CI_RUNTIMES',
  'KCT_CI_RUNTIME_TRACK',
  'KCT_SQLITE_DRIVER',
  'KCT_SQLITE_UNAVAILABLE',
  'KCT_NOT_IN_EXE',
  'KCT_SEED',
]);

function files(dir: string, pattern: RegExp): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => pattern.test(name))
    .map((name) => join(dir, name));
}

describe('environment variables', () => {
  it('are read through cli/core/environment.ts only (the sandbox reads its own driver switch)', () => {
    const readers = [...files(join(ROOT, 'src'), /\.ts$/), ...files(join(ROOT, 'packages', 'sandbox', 'src'), /\.ts$/)].flatMap((file) => {
      const rel = relative(ROOT, file);
      if (rel === join('src', 'cli', 'environment.ts')) return [];
      return readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (/\benv(?:\.KCT_|\[['"]KCT_)|process\.env\.KCT_/.test(line) ? [`${rel}:${i + 1}: ${line.trim()}`] : []));
    });
    expect(readers).toEqual([]);
  });

  it("every KCT_ variable the code or the docs name is declared (or is a development tool's)", () => {
    const sources = [
      ...files(join(ROOT, 'src'), /\.ts$/),
      ...files(join(ROOT, 'packages'), /src\/.*\.ts$/),
      ...files(join(ROOT, 'docs'), /\.md$/),
      join(ROOT, 'README.md'),
      join(ROOT, 'bin', 'kct.js'),
    ];
    const named = new Set(sources.flatMap((file) => readFileSync(file, 'utf8').match(/\bKCT_[A-Z][A-Z0-9_]*[A-Z0-9]\b/g) ?? []));
    const undeclared = [...named].filter((name) => !(name in VARIABLES) && !DEVELOPMENT.has(name)).sort();
    expect(undeclared).toEqual([]);
  });

  it('a bad value is a usage error naming the variable; empty means unset', () => {
    expect(fromEnv({ KCT_MAX_RPS: ' 3 ' }, 'KCT_MAX_RPS')).toBe(3);
    expect(fromEnv({ KCT_MAX_RETRIES: '0' }, 'KCT_MAX_RETRIES')).toBe(0);
    expect(fromEnv({ KCT_POLL_INTERVAL: '500ms' }, 'KCT_POLL_INTERVAL')).toBe(500);
    expect(fromEnv({ KCT_MAX_PENDING: '' }, 'KCT_MAX_PENDING')).toBeUndefined();
    for (const [name, value] of [
      ['KCT_MAX_RPS', '0'],
      ['KCT_MAX_RPS', '2.5'],
      ['KCT_MAX_RETRIES', '-1'],
      ['KCT_BATCH_FROM', 'lots'],
      ['KCT_POLL_INTERVAL', 'soon'],
      // past 2^53 a count would be rounded to another number
      ['KCT_MAX_PENDING', '99999999999999999999'],
    ] as const) {
      expect(() => fromEnv({ [name]: value }, name)).toThrow(UsageError);
      expect(() => fromEnv({ [name]: value }, name)).toThrow(new RegExp(name));
    }
  });
});
