// --import hook of the throughput benchmark: when the process exits, appends to the file named by
// BENCH_FIRST_REQUEST_FILE the milliseconds from process start to its first HTTP request (undici's
// 'undici:request:create' diagnostics channel), so the time spent before sending anything shows.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { appendFileSync } from 'node:fs';

const out = process.env.BENCH_FIRST_REQUEST_FILE;
if (out) {
  let first;
  const onRequest = () => {
    first = performance.now();
    unsubscribe('undici:request:create', onRequest);
  };
  subscribe('undici:request:create', onRequest);
  process.on('exit', () => appendFileSync(out, `${first ?? -1}\n`));
}
