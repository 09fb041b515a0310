// The thread bundle of the single executable (scripts/build-exe.js): a pool thread's loop, with
// the job modules of src/sandbox/threads/embedded-jobs.ts bundled in.
import { serveJobs } from '../../dist/sandbox/threads/serve.js';
import { loadEmbedded } from '../../dist/sandbox/threads/embedded-jobs.js';

serveJobs(loadEmbedded);
