// The thread bundle of the single executable (scripts/build-exe.js): a pool thread's loop, with
// the job modules of packages/sandbox/src/threads/embedded-jobs.ts bundled in.

import { loadEmbedded } from '../../packages/sandbox/dist/threads/embedded-jobs.js';
import { serveJobs } from '../../packages/sandbox/dist/threads/serve.js';

serveJobs(loadEmbedded);
