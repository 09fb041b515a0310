// Where the worker threads load code from. A thread runs plain JavaScript: built, that is the
// sandbox's own folder; run from the TypeScript sources (vitest), it is the same module under
// dist/, which must then be at least as new as every source file (checked once, named if not).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = fileURLToPath(import.meta.url);
const fromSources = here.endsWith('.ts');
/** The repository root when run from src/sandbox/threads/*.ts; unused when built. */
const root = resolve(dirname(here), '..', '..', '..');

/** The folder of the compiled sandbox: dist/sandbox (or wherever this file was built to). */
export const COMPILED_SANDBOX = fromSources ? join(root, 'dist', 'sandbox') : resolve(dirname(here), '..');

let checked = false;

/** A file URL of a compiled sandbox module, from its path relative to the sandbox folder ("grader.js"). */
export function compiledModule(relativePath: string): string {
  if (/^(?:file|data):/.test(relativePath)) return relativePath;
  return pathToFileURL(join(COMPILED_SANDBOX, relativePath)).href;
}

/**
 * Run from sources, dist/ must hold a build at least as new as src/: otherwise a test would
 * silently run old engine code in its threads. Throws naming the first stale file.
 */
export function assertCompiledIsCurrent(): void {
  if (!fromSources || checked) return;
  const src = join(root, 'src');
  const dist = join(root, 'dist');
  if (!existsSync(join(COMPILED_SANDBOX, 'threads', 'thread-main.js'))) {
    throw new Error('dist/ has no build of the sandbox: run `npm run build` first (the sandbox\'s worker threads run the compiled engines from dist/).');
  }
  for (const file of sourceFiles(src)) {
    const built = join(dist, relative(src, file)).replace(/\.ts$/, '.js');
    if (!existsSync(built) || statSync(built).mtimeMs < statSync(file).mtimeMs) {
      throw new Error(`dist/ is older than ${relative(root, file)}: run \`npm run build\` (the sandbox's worker threads run the compiled engines from dist/).`);
    }
  }
  checked = true;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}
