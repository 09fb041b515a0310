// In the single-file executable, this module takes compiled.ts's place (scripts/build-exe.js):
// there is no dist/ beside it, so a pool thread runs the "thread" bundle kept as an asset of the
// executable (the thread loop with every job module, scripts/exe/thread.js), compiled with its
// V8 code cache by the executable's own loader (scripts/exe/main.cjs), and a job names its
// module by its key in that bundle's registry (embedded-jobs.ts).
import { Worker } from 'node:worker_threads';
import type * as Compiled from './compiled.js';

type LoadBundle = (name: string) => unknown;

/** The key of a job's module in the registry: the relative path the sandbox names it by. */
export const compiledModule: typeof Compiled.compiledModule = (relativePath) => relativePath;

/** Nothing to check: the bundles were made together from one build. */
export const assertCompiledIsCurrent: typeof Compiled.assertCompiledIsCurrent = () => {};

export const newThread: typeof Compiled.newThread = (options) => {
  const loadBundle = (globalThis as Record<symbol, LoadBundle | undefined>)[Symbol.for('kct.loadBundle')];
  if (typeof loadBundle !== 'function') throw new Error("the single-file executable's bundle loader is missing (scripts/exe/main.cjs)");
  // A worker thread cannot be given a function: it gets the loader's source, which needs only
  // the `require` an evaluated worker script has (node:sea's assets are the process's).
  return new Worker(`(${String(loadBundle)})('thread');`, { ...options, eval: true });
};
