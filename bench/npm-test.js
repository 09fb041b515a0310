// npm test where a newcomer stands: a clean clone of HEAD (commit first), its packages laid down
// from npm's cache, then `npm test` as the README gives it, BENCH_RUNS times (default 3). The first
// run is a newcomer's first; later ones reuse the build and vitest's caches. Reported: each run's
// wall time and the load average around it, and the spread. Run only when named:
// `node bench/run.js npm-test` (about 5 to 7 minutes a run on the 2-core machine). BENCH_OUTPUT_DIR=DIR
// keeps each run's output there, to read what `npm test` printed.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixed, loadLine, log, ROOT, removeDir, table, tempDir, timeProcess } from './lib.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);

/** Minutes and seconds, as the docs write them. */
const minutes = (ms) => `${Math.floor(ms / 60_000)} min ${String(Math.round((ms % 60_000) / 1000)).padStart(2, '0')} s`;

export async function run() {
  const work = tempDir('kct-bench-npm-test-');
  const clone = join(work, 'kct');
  try {
    const cloned = spawnSync('git', ['clone', '--quiet', ROOT, clone], { encoding: 'utf8' });
    if (cloned.status !== 0) throw new Error(`git clone: ${cloned.stderr}`);
    const env = { ...process.env, npm_config_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false' };
    // as test/e2e/quick-start.test.ts does: the packages without their scripts, better-sqlite3's
    // compiled module copied from this checkout (same version, same Node.js), then the build
    const laid = await timeProcess('npm', ['ci', '--ignore-scripts'], { cwd: clone, env });
    if (laid.code !== 0) throw new Error(`npm ci: ${laid.stderr}`);
    const compiled = join(ROOT, 'node_modules', 'better-sqlite3', 'build');
    if (existsSync(compiled)) cpSync(compiled, join(clone, 'node_modules', 'better-sqlite3', 'build'), { recursive: true });
    const built = await timeProcess('npm', ['run', 'build', '--silent'], { cwd: clone, env });
    if (built.code !== 0) throw new Error(`npm run build: ${built.stderr}`);
    const rows = [];
    const times = [];
    for (let index = 1; index <= RUNS; index += 1) {
      const before = loadLine();
      const tested = await timeProcess('npm', ['test'], {
        cwd: clone,
        env: { ...env, NO_COLOR: '1' },
        timeoutMs: 30 * 60_000,
        toFiles: true,
      });
      const passed = /Tests\s+(\d+) passed/.exec(tested.stdout)?.[1] ?? '?';
      times.push(tested.ms);
      if (process.env.BENCH_OUTPUT_DIR)
        writeFileSync(join(process.env.BENCH_OUTPUT_DIR, `npm-test-${index}.txt`), tested.stdout + tested.stderr);
      rows.push([index, minutes(tested.ms), tested.code, passed, before, loadLine()]);
      log(`run ${index}: ${minutes(tested.ms)}, exit ${tested.code}, ${passed} passed`);
    }
    log(table(['run', 'npm test', 'exit', 'tests passed', 'load before', 'load after'], rows));
    const low = Math.min(...times);
    const high = Math.max(...times);
    return [
      {
        benchmark: `npm test, clean clone, ${RUNS} runs`,
        kct: `${minutes(low)} to ${minutes(high)} (first run ${minutes(times[0])})`,
        floor: '-',
        ratio: '-',
        target: `(information; ${fixed(low / 60_000, 1)} to ${fixed(high / 60_000, 1)} min)`,
      },
    ];
  } finally {
    removeDir(work);
  }
}
