// npm run pack: the release step. Builds both packages, then writes kct's tarball and kct-sandbox's
// into one folder (default tarballs/), which installs with one command:
//   npm install -g ./tarballs/kct-<version>.tgz ./tarballs/kct-sandbox-<version>.tgz
// (docs/guides/install.md). `npm pack` lists each package's files (its `files` field); they are
// copied into a staging folder whose package.json drops the root's `prepare` script, which only
// builds a clone: npm 11 lists a tarball's `prepare` among the install scripts "not yet covered by
// allowScripts", though it never runs one from a tarball. Everything else is packed as it is.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const ROOT = resolve(import.meta.dirname, '..');
/** The packages released together: the root (kct) and the sandbox workspace. */
const PACKAGES = [
  { name: 'kct', dir: ROOT },
  { name: 'kct-sandbox', dir: join(ROOT, 'packages', 'sandbox') },
];

function npm(args, cwd) {
  return new Promise((done, fail) => {
    const child = spawn('npm', args, {
      cwd,
      env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', fail);
    child.on('close', (code) =>
      code === 0 ? done(stdout) : fail(new Error(`npm ${args.join(' ')} (in ${cwd}) exited ${code}: ${stderr.trim()}`)),
    );
  });
}

/** One package's tarball in `out`, from a staging copy of exactly the files `npm pack` would take. */
async function packOne({ dir }, out) {
  const [listed] = JSON.parse(await npm(['pack', '--dry-run', '--json', '--ignore-scripts'], dir));
  const stage = mkdtempSync(join(tmpdir(), 'kct-pack-'));
  try {
    for (const { path } of listed.files) {
      mkdirSync(dirname(join(stage, path)), { recursive: true });
      copyFileSync(join(dir, path), join(stage, path));
    }
    const manifest = JSON.parse(readFileSync(join(stage, 'package.json'), 'utf8'));
    if (manifest.scripts) delete manifest.scripts.prepare;
    writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const [packed] = JSON.parse(await npm(['pack', '--json', '--ignore-scripts', '--pack-destination', out], stage));
    return [packed.name, join(out, packed.filename)];
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/**
 * Writes kct's and kct-sandbox's tarballs into `out` (replacing older ones there), after a build
 * unless `build` is false; resolves with their paths by package name.
 */
export async function packRelease(out, { build = true } = {}) {
  mkdirSync(out, { recursive: true });
  for (const name of readdirSync(out)) if (/^kct(-sandbox)?-\d.*\.tgz$/.test(name)) rmSync(join(out, name));
  if (build) await npm(['run', 'build', '--silent'], ROOT);
  const packed = {};
  for (const pkg of PACKAGES) {
    const [name, path] = await packOne(pkg, out);
    packed[name] = path;
  }
  return packed;
}

if (process.argv[1] === import.meta.filename) {
  const { values } = parseArgs({ options: { out: { type: 'string', default: 'tarballs' }, 'no-build': { type: 'boolean' } } });
  const out = resolve(process.cwd(), values.out);
  const packed = await packRelease(out, { build: !values['no-build'] });
  const shown = Object.values(packed).map((path) => {
    const near = relative(process.cwd(), path);
    return near.startsWith('..') ? path : `./${near}`;
  });
  console.log(`Packed into ${out}:\n  ${Object.values(packed).join('\n  ')}`);
  console.log(`Install both, from the same folder, with:\n  npm install -g --allow-scripts=better-sqlite3,tesseract.js ${shown.join(' ')}`);
}
