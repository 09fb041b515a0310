// The job modules of the single-file executable's pool threads (scripts/build-exe.js bundles
// them with the thread's loop, scripts/exe/thread.js): there are no files to import, so each
// module the sandbox's jobs name (engines/jobs.ts, JOBS) is a key here; the type below fails the
// type-check when a job's module is missing. Each loads on its first job, as from dist/.
import type { JOBS } from '../engines/jobs.js';
import type { LoadModule } from './serve.js';

type JobModule = (typeof JOBS)[keyof typeof JOBS];

export const EMBEDDED_JOBS = {
  'engines/extract/index.js': () => import('../engines/extract/index.js'),
  'engines/work/prepare.js': () => import('../engines/work/prepare.js'),
  'engines/work/mark.js': () => import('../engines/work/mark.js'),
  'ingest/preview-parse.js': () => import('../ingest/preview-parse.js'),
  'http/json-body.js': () => import('../http/json-body.js'),
} satisfies Record<JobModule, () => Promise<object>>;

/** The registry's module for a job; any other name is a job this executable cannot run. */
export const loadEmbedded: LoadModule = async (module) => {
  if (!Object.hasOwn(EMBEDDED_JOBS, module))
    throw new Error(`${module} is not a job module of the single-file executable (src/sandbox/threads/embedded-jobs.ts)`);
  return (await EMBEDDED_JOBS[module as JobModule]()) as Record<string, unknown>;
};
