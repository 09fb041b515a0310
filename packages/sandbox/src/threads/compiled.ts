// Where the worker threads load code from. A thread runs plain JavaScript: built, that is the
// sandbox's own folder; run from the TypeScript sources (vitest), it is the same module under the
// package's dist/, which must then be at least as new as every source file, and kct's contract
// (the root's dist/api, which the threads import) as new as its sources (checked once, named if not).
// The single-file executable has no files: its build puts embedded.ts in this module's place.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

const here = fileURLToPath(import.meta.url);
const fromSources = here.endsWith('.ts');
/** The sandbox package's folder when run from its src/threads/*.ts; unused when built. */
const root = resolve(dirname(here), '..', '..');

/** The folder of the compiled sandbox: the package's dist/ (or wherever this file was built to). */
const COMPILED_SANDBOX = fromSources ? join(root, 'dist') : resolve(dirname(here), '..');

let checked = false;

/** Starts one pool thread: the compiled thread-main.js, which loads each job's module by its file URL. */
export function newThread(options: WorkerOptions): Worker {
  return new Worker(new URL(compiledModule('threads/thread-main.js')), options);
}

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
  if (!existsSync(join(COMPILED_SANDBOX, 'threads', 'thread-main.js'))) {
    throw new Error(
      "the sandbox package has no build: run `npm run build` first (the sandbox's worker threads run the compiled engines from packages/sandbox/dist/).",
    );
  }
  const kct = join(root, '..', '..'); // kct is the repository's root package
  for (const [src, dist] of [
    [join(root, 'src'), join(root, 'dist')],
    [join(kct, 'src', 'api'), join(kct, 'dist', 'api')],
  ]) {
    for (const file of sourceFiles(src)) {
      const built = join(dist, relative(src, file)).replace(/\.ts$/, '.js');
      if (!existsSync(built) || statSync(built).mtimeMs < statSync(file).mtimeMs) {
        throw new Error(
          `${relative(join(root, '..', '..'), built)} is older than its source: run \`npm run build\` (the sandbox's worker threads run compiled code).`,
        );
      }
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
