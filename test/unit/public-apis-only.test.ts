// kct uses its dependencies through their public exports only, and leaves V8 alone: no deep import
// of a package's lib/ or src/, no V8 flags, no forced garbage collection. The one socket-level
// workaround (an early answer during an upload) stays in src/client/connector.ts.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const SOURCES = ['src', 'bin', 'packages/sandbox/src', 'packages/sandbox/bin', 'scripts'].flatMap((dir) => files(join(ROOT, dir)));

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return files(path);
    return /\.(ts|js|cjs|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Lines that break a rule, as "file:line: text". */
function offending(pattern: RegExp, except: (file: string) => boolean = () => false): string[] {
  return SOURCES.flatMap((file) => {
    const rel = relative(ROOT, file);
    if (except(rel)) return [];
    return readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, i) => (pattern.test(line) && !/^\s*(\/\/|\*)/.test(line) ? [`${rel}:${i + 1}: ${line.trim()}`] : []));
  });
}

describe('public APIs only', () => {
  it("imports no dependency's private files (lib/ or src/ of a package)", () => {
    // a bare specifier with a path into lib/ or src/: '@scope/pkg/lib/x' or 'pkg/src/x'
    expect(offending(/(?:from\s+|import\(\s*|require\(\s*)['"](?!\.|node:)(?:@[^/'"]+\/)?[^/'"]+\/(?:lib|src)\//)).toEqual([]);
  });

  it('forces no garbage collection and sets no V8 flag (docs/benchmarks.md, "V8 flags: none")', () => {
    expect(offending(/--expose-gc|runInNewContext\(\s*['"]gc|global\.gc\(|globalThis\.gc\(/)).toEqual([]);
    expect(offending(/setFlagsFromString|--optimize-for-size|--max-semi-space-size|--max-old-space-size/)).toEqual([]);
  });

  it('reaches into a socket in connector.ts only', () => {
    expect(offending(/\._writev?\b/, (file) => file === join('src', 'client', 'connector.ts'))).toEqual([]);
  });

  it('takes undici on a caret range, not pinned to an exact version', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(pkg.dependencies.undici).toMatch(/^\^7\./);
  });
});
