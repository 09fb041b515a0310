// 9. Install: `npm install --global` of the packed kct tarball, and of kct with kct-sandbox, side by
// side in one run, each into a fresh private prefix, offline from npm's cache (what `npm ci` put
// there: no network is timed). Reported: wall time, size on disk, packages, native addons and
// install scripts. Targets (issue 22): kct alone at most 25 MB and 60 packages, no native build,
// no install script, under 15 s. The sandbox's figures are for information.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fixed, log, removeDir, SMOKE, table, tempDir } from './lib.js';
import { installGlobally, packWorkspaces } from './packed.js';

const TARGET = { megabytes: 25, packages: 60, seconds: 15 };

export async function run() {
  const work = tempDir('kct-bench-install-');
  // the prefixes go in the work folder: removed with it
  const prefix = (name) => {
    mkdirSync(join(work, name));
    return join(work, name);
  };
  try {
    const tarballs = await packWorkspaces(work);
    const kct = await installGlobally(prefix('kct'), [tarballs.kct]);
    // The smoke pass installs kct alone: with kct-sandbox, npm compiles better-sqlite3 on Node 20
    // (minutes of CPU), as test/e2e/package.test.ts does already.
    const both = SMOKE ? undefined : await installGlobally(prefix('both'), [tarballs.kct, tarballs['kct-sandbox']]);
    const row = (name, r) => [name, fixed(r.seconds, 1), fixed(r.megabytes, 1), r.packages, r.nativeAddons.length, r.installScripts.length];
    log('npm install --global --offline of the packed tarballs, each into a fresh prefix');
    log(
      table(
        ['install', 'seconds', 'MB on disk', 'packages', 'native addons', 'install scripts'],
        [row('kct', kct), ...(both ? [row('kct + kct-sandbox', both)] : [])],
      ),
    );
    if (kct.installScripts.length > 0) log(`install scripts in kct's tree: ${kct.installScripts.join(', ')}`);
    const met =
      kct.megabytes <= TARGET.megabytes &&
      kct.packages <= TARGET.packages &&
      kct.seconds <= TARGET.seconds &&
      kct.nativeAddons.length === 0 &&
      kct.installScripts.length === 0;
    return [
      {
        benchmark: 'install: npm install -g kct',
        kct: `${fixed(kct.megabytes, 1)} MB, ${kct.packages} packages, ${fixed(kct.seconds, 1)} s`,
        floor: '-',
        ratio: '-',
        target: `<= ${TARGET.megabytes} MB, ${TARGET.packages} packages, ${TARGET.seconds} s, no native build`,
        met,
      },
      ...(both
        ? [
            {
              benchmark: '  kct with kct-sandbox',
              kct: `${fixed(both.megabytes, 1)} MB, ${both.packages} packages, ${fixed(both.seconds, 1)} s`,
              floor: '-',
              ratio: '-',
              target: '(information)',
            },
          ]
        : []),
    ];
  } finally {
    removeDir(work);
  }
}
