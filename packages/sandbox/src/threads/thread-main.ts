// The first module of a pool thread in the npm package: jobs' modules are the compiled files
// under dist/ (or a file: URL), loaded by the ES module loader.
import { serveJobs } from './serve.js';

serveJobs((url) => import(url) as Promise<Record<string, unknown>>);
