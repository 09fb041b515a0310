// The packages as users get them: the tarballs of the release step (`npm run pack`,
// scripts/pack.js), installed globally into a private prefix as docs/guides/install.md says,
// offline (every dependency comes from npm's cache, which `npm ci` filled). Shared by
// bench/install.js and test/e2e/package.test.ts.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { packRelease } from '../scripts/pack.js';
import { ROOT } from './lib.js';

/** Runs a command; resolves with its exit code, output and wall time. */
export function run(command, args, { cwd = ROOT, env = process.env } = {}) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, args, {
      cwd,
      env: { ...env, NO_COLOR: '1', npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: Number(process.hrtime.bigint() - started) / 1e6 }));
  });
}

/** The release step's tarballs of kct and kct-sandbox (after a build) in `dir`; their paths by package name. */
export function packWorkspaces(dir) {
  return packRelease(dir, { build: false });
}

/** What docs/guides/install.md adds to the install of the sandbox: its dependencies' install scripts, reviewed. */
export const SANDBOX_ALLOW_SCRIPTS = '--allow-scripts=better-sqlite3,tesseract.js';

/**
 * `npm install --global` of tarballs into `prefix`, offline, with the flags the install guide
 * gives (`--allow-scripts=...` with the sandbox); what it took, what it left and what npm said.
 */
export async function installGlobally(prefix, tarballs) {
  const sandbox = tarballs.some((path) => /kct-sandbox-[^/]*\.tgz$/.test(path));
  const installed = await run('npm', [
    'install',
    '--global',
    '--prefix',
    prefix,
    '--offline',
    '--no-audit',
    '--no-fund',
    '--loglevel',
    'warn',
    ...(sandbox ? [SANDBOX_ALLOW_SCRIPTS] : []),
    ...tarballs,
  ]);
  if (installed.code !== 0) throw new Error(`npm install of ${tarballs.join(', ')} failed: ${installed.stderr}`);
  const modules = join(prefix, 'lib', 'node_modules');
  const packages = packageDirs(modules);
  return {
    seconds: installed.ms / 1000,
    /** The files' sizes added up (what `du --apparent-size` says)... */
    megabytes: folderBytes(modules) / 1e6,
    /** ...and the blocks they take on disk (what `du` says). */
    diskMegabytes: folderBytes(modules, true) / 1e6,
    /** npm's warnings and notices (stderr), one a line: the install guide explains each. */
    warnings: installed.stderr.split('\n').filter((line) => line.startsWith('npm warn')),
    packages: packages.length,
    /** Compiled native addons (a native build, or a prebuilt one): kct must have none. */
    nativeAddons: files(modules).filter((path) => path.endsWith('.node')),
    /** Packages that declare an install script (preinstall, install, postinstall). */
    installScripts: packages.filter((dir) => {
      try {
        const scripts = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).scripts ?? {};
        return ['preinstall', 'install', 'postinstall'].some((name) => scripts[name]);
      } catch {
        return false;
      }
    }),
    bin: join(prefix, 'bin'),
    modules,
  };
}

/** Every installed package's folder (a folder of node_modules holding a package.json), nested ones too. */
function packageDirs(modules) {
  const found = [];
  const visit = (dir) => {
    let names;
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      if (name.startsWith('.')) continue;
      const path = join(dir, name);
      if (name.startsWith('@')) {
        visit(path);
        continue;
      }
      try {
        statSync(join(path, 'package.json'));
      } catch {
        continue;
      }
      found.push(path);
      visit(join(path, 'node_modules'));
    }
  };
  visit(modules);
  return found;
}

function files(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...files(path));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

function folderBytes(dir, onDisk = false) {
  let total = 0;
  for (const path of files(dir)) {
    const stat = statSync(path);
    total += onDisk ? stat.blocks * 512 : stat.size;
  }
  return total;
}
