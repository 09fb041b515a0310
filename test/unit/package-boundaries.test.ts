// The two packages stay apart: the sandbox imports kct's contract (kct/api/*) and nothing else of
// kct; kct's sources never import the sandbox (it is loaded by name, at run time, by `kct sandbox`).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

/** Every import specifier of every source file under a folder, as "file: specifier". */
function imports(dir: string): { file: string; specifier: string; target?: string }[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.(ts|js)$/.test(name) && !name.endsWith('.d.ts'))
    .flatMap((name) => {
      const file = join(dir, name);
      const text = readFileSync(file, 'utf8');
      return [...text.matchAll(/(?:from\s+|import\(\s*)['"]([^'"]+)['"]/g)].map(([, specifier]) => ({
        file: relative(ROOT, file),
        specifier,
        ...(specifier.startsWith('.') ? { target: relative(ROOT, resolve(dirname(file), specifier)) } : {}),
      }));
    });
}

describe('package boundaries', () => {
  it("the sandbox imports only kct's contract from kct, and nothing of kct by path", () => {
    const sandbox = [...imports(join(ROOT, 'packages', 'sandbox', 'src')), ...imports(join(ROOT, 'packages', 'sandbox', 'bin'))];
    const wrong = sandbox.filter(({ file, specifier, target }) => {
      if (target !== undefined) return !target.startsWith(join('packages', 'sandbox'));
      if (specifier === 'kct/cli') return !file.startsWith(join('packages', 'sandbox', 'bin'));
      return specifier === 'kct' || (specifier.startsWith('kct/') && !specifier.startsWith('kct/api/'));
    });
    expect(wrong).toEqual([]);
  });

  it('kct never imports the sandbox, by path or by name', () => {
    const kct = [...imports(join(ROOT, 'src')), ...imports(join(ROOT, 'bin'))];
    expect(
      kct.filter(
        ({ specifier, target }) =>
          specifier === 'kct-sandbox' || specifier.startsWith('kct-sandbox/') || (target?.startsWith(join('packages', 'sandbox')) ?? false),
      ),
    ).toEqual([]);
  });
});
