// 9. Install: the release step's tarballs (`npm run pack`), installed with `npm install --global`
// as docs/guides/install.md says: kct alone, and kct with kct-sandbox in one command, each into a
// fresh private prefix, offline from npm's cache (what `npm ci` put there: no network is timed),
// BENCH_RUNS times each (default 3), taking turns. Reported: each run's wall time and the spread,
// the size (the files' sizes added up, and the blocks on disk), packages, native addons, install
// scripts and npm's warnings. Targets (issue 22): kct alone at most 25 MB and 60 packages, no
// native build, no install script, under 15 s. The sandbox's figures are for information; on
// Node.js 20 they include better-sqlite3's build, which compiles SQLite where npm cannot download
// its prebuilt binary (this machine reaches the npm registry only).

import { fixed, loadLine, log, QUICK, removeDir, table, tempDir } from './lib.js';
import { installGlobally, packWorkspaces } from './packed.js';

const TARGET = { megabytes: 25, packages: 60, seconds: 15 };
const RUNS = Number(process.env.BENCH_RUNS ?? (QUICK ? 1 : 3));

const spread = (values, digits = 1) =>
  Math.min(...values) === Math.max(...values)
    ? fixed(values[0], digits)
    : `${fixed(Math.min(...values), digits)} to ${fixed(Math.max(...values), digits)}`;

export async function run() {
  const work = tempDir('kct-bench-install-');
  try {
    const tarballs = await packWorkspaces(work);
    const runs = { kct: [], both: [] };
    const rows = [];
    for (let index = 1; index <= RUNS; index += 1) {
      for (const [name, list] of [
        ['kct', [tarballs.kct]],
        ['both', [tarballs.kct, tarballs['kct-sandbox']]],
      ]) {
        const prefix = tempDir('kct-bench-prefix-');
        const before = loadLine();
        const result = await installGlobally(prefix, list);
        removeDir(prefix);
        runs[name].push(result);
        rows.push([
          index,
          name === 'kct' ? 'kct' : 'kct + kct-sandbox',
          fixed(result.seconds, 1),
          fixed(result.megabytes, 1),
          fixed(result.diskMegabytes, 1),
          result.packages,
          result.nativeAddons.length,
          result.installScripts.length,
          before,
        ]);
        for (const warning of new Set(result.warnings.map((line) => line.replace(/\s+/g, ' ').slice(0, 100))))
          log(`  ${name}, run ${index}: ${warning}`);
      }
    }
    log('npm install --global --offline of the release tarballs, each into a fresh prefix');
    log(
      table(['run', 'install', 'seconds', 'MB (files)', 'MB on disk', 'packages', 'native addons', 'install scripts', 'load before'], rows),
    );
    const kct = runs.kct;
    const met =
      Math.max(...kct.map((r) => r.megabytes)) <= TARGET.megabytes &&
      Math.max(...kct.map((r) => r.packages)) <= TARGET.packages &&
      Math.max(...kct.map((r) => r.seconds)) <= TARGET.seconds &&
      kct.every((r) => r.nativeAddons.length === 0 && r.installScripts.length === 0);
    const line = (list) =>
      `${spread(list.map((r) => r.seconds))} s, ${fixed(list[0].megabytes, 1)} MB (${fixed(list[0].diskMegabytes, 1)} MB on disk), ${list[0].packages} packages, ${RUNS} runs`;
    return [
      {
        benchmark: 'install: npm install -g kct',
        kct: line(kct),
        floor: '-',
        ratio: '-',
        target: `<= ${TARGET.megabytes} MB, ${TARGET.packages} packages, ${TARGET.seconds} s, no native build`,
        met,
      },
      { benchmark: '  kct with kct-sandbox', kct: line(runs.both), floor: '-', ratio: '-', target: '(information)' },
    ];
  } finally {
    removeDir(work);
  }
}
