// kct is an ES module; on the Node versions it supports (20.19+, 22.13+), `require('kct')` loads it
// too (require of an ES module without top-level await), so a CommonJS service can use the library.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

describe("require('kct')", () => {
  it('gives the same library as import, from a CommonJS script', () => {
    // a script inside the package resolves kct by its own name (the package's exports)
    const run = spawnSync(
      process.execPath,
      [
        '-e',
        "const kct = require('kct'); process.stdout.write([typeof kct.KctClient, typeof kct.ApiError, typeof kct.RequestBudget].join(' '))",
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('function function function');
  });
});
