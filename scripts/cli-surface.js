// kct's user-facing surface as plain files, for comparing a change before and after it
// (docs/testing.md, "The surface before and after"): every --help text, every man page and the
// bash, zsh and fish completion scripts of a built checkout.
//
//   node scripts/cli-surface.js <out-dir> [checkout]   # checkout: a built clone (default: this one)
//   diff -ru before/ after/
//
// It reads the build's help cache and man pages, and runs the checkout's bin for completion with an
// empty configuration. An older checkout with one package at its root (no packages/kct) works too.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const [outDir, checkout = resolve(import.meta.dirname, '..')] = process.argv.slice(2);
if (!outDir) {
  console.error('usage: node scripts/cli-surface.js <out-dir> [checkout]');
  process.exit(2);
}
const pkg = existsSync(join(checkout, 'packages', 'kct')) ? join(checkout, 'packages', 'kct') : checkout;
const cache = join(pkg, 'dist', 'help-cache.json');
if (!existsSync(cache)) {
  console.error(`${cache} is missing: build that checkout first (npm run build)`);
  process.exit(2);
}

mkdirSync(join(outDir, 'help'), { recursive: true });
for (const [path, text] of Object.entries(JSON.parse(readFileSync(cache, 'utf8')).help)) {
  writeFileSync(join(outDir, 'help', `${['kct', ...path.split(' ').filter(Boolean)].join('-')}.txt`), text);
}
cpSync(join(pkg, 'dist', 'man'), join(outDir, 'man'), { recursive: true });

const home = mkdtempSync(join(tmpdir(), 'kct-surface-'));
try {
  mkdirSync(join(outDir, 'completion'), { recursive: true });
  for (const shell of ['bash', 'zsh', 'fish']) {
    const env = { PATH: process.env.PATH, HOME: home, KCT_CONFIG_DIR: home, NO_COLOR: '1' };
    const script = execFileSync(process.execPath, [join(pkg, 'bin', 'kct.js'), 'completion', shell], { env, encoding: 'utf8' });
    writeFileSync(join(outDir, 'completion', `kct.${shell}`), script);
  }
} finally {
  rmSync(home, { recursive: true, force: true });
}
console.log(`wrote ${outDir}: help/, man/, completion/`);
