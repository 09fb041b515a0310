// npm run bench: every benchmark, or only those named (`node bench/run.js startup sandbox`).
// Benchmarks report; they never fail: the exit code is 0 unless a benchmark could not run at all.
import { fixed, loadLine, log, machineLine, QUICK, table } from './lib.js';

const BENCHMARKS = ['startup', 'throughput', 'memory', 'sandbox', 'sqlite', 'stall', 'grader'];
// run only when named: the single-file executable (builds one), the class report, the
// district-sized runs of scale.js (about an hour; BENCH_QUICK=1: a few minutes), the install and
// `npm test` on a clean clone
const OPTIONAL = ['executable', 'report', 'scale', 'install', 'ocr', 'npm-test'];

const wanted = process.argv.slice(2);
for (const name of wanted) {
  if (!BENCHMARKS.includes(name) && !OPTIONAL.includes(name)) {
    console.error(`unknown benchmark "${name}"; choose from: ${[...BENCHMARKS, ...OPTIONAL].join(', ')}`);
    process.exit(2);
  }
}
const chosen = wanted.length > 0 ? wanted : BENCHMARKS;

log(`kct benchmarks${QUICK ? ' (BENCH_QUICK=1: a smoke pass, figures not for the record)' : ''}`);
log(`machine: ${machineLine()}`);
log(`date: ${new Date().toISOString()}`);
const started = Date.now();
const results = [];
let broken = 0;
for (const name of chosen) {
  log();
  log(`== ${name} == (load average ${loadLine()})`);
  const t0 = Date.now();
  try {
    const { run } = await import(`./${name}.js`);
    results.push(...(await run()));
  } catch (error) {
    broken += 1;
    log(`${name} could not run: ${error.stack ?? error}`);
  }
  log(`(${name}: ${fixed((Date.now() - t0) / 1000, 1)} s; load average ${loadLine()})`);
}

log();
log('== summary ==');
log(`machine: ${machineLine()}`);
log(
  table(
    ['benchmark', 'kct', 'floor', 'ratio', 'target', 'met?'],
    results.map((r) => [r.benchmark, r.kct, r.floor, r.ratio, r.target, r.met === undefined ? '-' : r.met ? 'yes' : 'NO']),
  ),
);
log(`total ${fixed((Date.now() - started) / 1000, 1)} s`);
process.exitCode = broken > 0 ? 1 : 0;
