// Test preload (node --expose-gc --import): garbage collection forced between requests (a full
// collection as each request starts) and on a short interval (a collection while idle, which is
// when better-sqlite3 12 took Node 24.19+ down). GC_STRESS_COUNT_FILE receives the count at exit.
import { subscribe } from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';

if (typeof globalThis.gc !== 'function') throw new Error('gc-stress.mjs needs node --expose-gc');
let collections = 0;
const collect = () => {
  globalThis.gc();
  collections += 1;
};
subscribe('http.server.request.start', collect);
setInterval(collect, 20).unref();
process.on('exit', () => {
  if (process.env.GC_STRESS_COUNT_FILE) writeFileSync(process.env.GC_STRESS_COUNT_FILE, String(collections));
});
