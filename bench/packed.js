// The packages as users get them: `npm pack` of the workspaces, installed globally into a private
// prefix from the local tarballs, offline (every dependency comes from npm's cache, which `npm ci`
// filled). Shared by bench/install.js and test/e2e/package.test.ts.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
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

/** Packs kct (the root) and the kct-sandbox workspace into `dir`; returns the tarballs' paths by package name. */
export async function packWorkspaces(dir) {
  const packed = await run('npm', ['pack', '--json', '--include-workspace-root', '-w', 'kct-sandbox', '--pack-destination', dir]);
  if (packed.code !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
  const infos = JSON.parse(packed.stdout);
  return Object.fromEntries(infos.map((info) => [info.name, join(dir, info.filename)]));
}

/** `npm install --global` of tarballs into `prefix`, offline; what it took and what it left. */
export async function installGlobally(prefix, tarballs) {
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
    ...tarballs,
  ]);
  if (installed.code !== 0) throw new Error(`npm install of ${tarballs.join(', ')} failed: ${installed.stderr}`);
  const modules = join(prefix, 'lib', 'node_modules');
  const packages = packageDirs(modules);
  return {
    seconds: installed.ms / 1000,
    megabytes: folderBytes(modules) / 1e6,
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

function folderBytes(dir) {
  let total = 0;
  for (const path of files(dir)) total += statSync(path).size;
  return total;
}
