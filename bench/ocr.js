// 10. OCR in the sandbox: a scanned PDF, then a photo, each marked (submitted and waited for) one
// after the other, by a sandbox under V8's defaults (what `kct sandbox` runs with) and by one under
// --liftoff-only (the flag kct set for every process before issue 22; WebAssembly OCR then never
// reaches V8's optimising compiler). Interleaved rounds, a fresh sandbox each; medians.
import { join } from 'node:path';
import { BIN, fixed, interleave, kctEnv, log, median, ROOT, removeDir, SMOKE, sized, startSandbox, table, tempDir, timeOk } from './lib.js';

const ROUNDS = sized(3, 1);
// the smoke pass reads the pages' openings (a third of the time), as the OCR tests do
const FILES = [
  ['scanned PDF', join(ROOT, 'test', 'fixtures', 'generated', SMOKE ? 'scanned-opening.pdf' : 'scanned.pdf')],
  ['photo (PNG)', join(ROOT, 'test', 'fixtures', 'generated', SMOKE ? 'essay-opening.png' : 'essay.png')],
];

export async function run() {
  const contenders = { 'V8 defaults': '', '--liftoff-only': '--liftoff-only' };
  const times = {};
  await interleave(ROUNDS, Object.keys(contenders), async (name) => {
    const previous = process.env.BENCH_SANDBOX_NODE_ARGS;
    process.env.BENCH_SANDBOX_NODE_ARGS = contenders[name];
    const sandbox = await startSandbox({ workers: 1 });
    process.env.BENCH_SANDBOX_NODE_ARGS = previous ?? '';
    const configDir = tempDir('kct-bench-ocr-cfg-');
    try {
      const env = kctEnv(configDir, sandbox, { KCT_POLL_INTERVAL: '100ms' });
      for (const [label, file] of FILES) {
        // a fresh answer each time (its student id), so no replay is timed
        const run = await timeOk(
          `${name} ${label}`,
          process.execPath,
          [BIN, 'one-pass', file, '--model', '12', '--student-id', `ocr-${name}-${Date.now()}`, '--json'],
          { env, toFiles: true },
        );
        (times[`${name}|${label}`] ??= []).push(run.ms / 1000);
      }
    } finally {
      await sandbox.stop();
      removeDir(configDir);
    }
    return 0;
  });
  const rows = FILES.map(([label]) => {
    const plain = median(times[`V8 defaults|${label}`]);
    const liftoff = median(times[`--liftoff-only|${label}`]);
    return [label, fixed(plain, 2), fixed(liftoff, 2), fixed(liftoff / plain)];
  });
  log(
    `each file marked once per round by a fresh sandbox (one worker), ${ROUNDS} interleaved rounds; seconds from submission to the result, medians`,
  );
  log(table(['answer', 'V8 defaults s', '--liftoff-only s', 'slower by'], rows));
  return FILES.map(([label], i) => ({
    benchmark: `ocr: ${label}, marked`,
    kct: `${rows[i][1]} s`,
    floor: `${rows[i][2]} s (--liftoff-only)`,
    ratio: rows[i][3],
    target: '(information)',
  }));
}
