// Test preload (node --expose-gc --import): garbage collection forced between requests (a young-
// generation collection as each request starts) and a full collection every 50 ms, busy or idle.
// GC_STRESS_COUNT_FILE receives the number of collections at exit.
import { subscribe } from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';

if (typeof globalThis.gc !== 'function') throw new Error('gc-stress.mjs needs node --expose-gc');
let collections = 0;
subscribe('http.server.request.start', () => {
  globalThis.gc({ type: 'minor' });
  collections += 1;
});
setInterval(() => {
  globalThis.gc();
  collections += 1;
}, 50).unref();
process.on('exit', () => {
  if (process.env.GC_STRESS_COUNT_FILE) writeFileSync(process.env.GC_STRESS_COUNT_FILE, String(collections));
});
