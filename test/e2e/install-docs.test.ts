// Every install command of README.md and docs/ run as written, each on a clean prefix (issue 36):
// the release step `npm run pack`, then each tarball command the docs give, from npm's cache
// (offline; what the cache lacks is fetched once), in the folder the tarballs were written to.
// The registry's forms the docs mark "once published (not yet)" are run with the tarballs in the
// place of the names: what they will do once published. A clone's commands are
// test/e2e/quick-start.test.ts's; a Node.js runtime from the registry's `node` package is what
// .ci/run installs. npm must print nothing the install guide does not explain. Outside CI, the
// registry is asked whether the names test/install-commands.ts lists as unpublished still are.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../bench/packed.js';
import { type InstallCommand, installCommands, type Kind, PUBLISHED, UNPUBLISHED } from '../install-commands.js';
import { ROOT, removeDir, tempDir } from './harness.js';

const commands = installCommands();
const guide = readFileSync(join(ROOT, 'docs', 'guides', 'install.md'), 'utf8');
const [major, minor] = process.versions.node.split('.').map(Number);
const builtInSqlite = major > 22 || (major === 22 && minor >= 13);

let folder = '';
const made: string[] = [];
afterAll(() => {
  for (const dir of [folder, ...made]) if (dir) removeDir(dir);
});

/** A command as it runs in the tarballs' folder: its folder (`./tarballs/`, `./vendor/`) that one; a registry name, its tarball. */
function inFolder(command: string): string {
  const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  return command
    .replace(/\.\/[\w.-]+\/(kct(?:-sandbox)?-\d)/g, './$1')
    .replace(/ (kct-sandbox|kct)(?= |$)/g, (_, name: string) => ` ./${name}-${version}.tgz`)
    .replace(/ --global /, ' -g ');
}

/** The distinct commands of a kind, as they run in the folder, and where the docs give them. */
function ofKind(kind: Kind): Map<string, InstallCommand[]> {
  const byCommand = new Map<string, InstallCommand[]>();
  for (const command of commands.filter((c) => c.kind === kind)) {
    const key = inFolder(command.command);
    byCommand.set(key, [...(byCommand.get(key) ?? []), command]);
  }
  return byCommand;
}

/** A command line run by npm (or npx), in `cwd`, offline with a private global prefix; fetched once if the cache lacks a package. */
async function npmLine(line: string, cwd: string, prefix: string) {
  const [tool, ...args] = line.split(/\s+/);
  // SQLite compiled at -O1 (as .ci/run does), half the CPU of the package's -O3: what is checked is the command, not the build's speed
  const env = { ...process.env, npm_config_prefix: prefix, npm_config_update_notifier: 'false', CFLAGS: process.env.CFLAGS ?? '-O1' };
  const offline = await run(tool, args, { cwd, env: { ...env, npm_config_offline: 'true' } });
  if (offline.code === 0 || !/ENOTCACHED/.test(offline.stderr)) return offline;
  return run(tool, args, { cwd, env: { ...env, npm_config_prefer_offline: 'true' } });
}

/** What npm printed beyond its "added N packages" and what the install guide explains. */
function unexplained(output: string): string[] {
  const explained = [
    /^added \d+ packages? in [\d.]+(ms|s|m|h)$/,
    /^\d+ packages? (is|are) looking for funding$/,
    /^\s*run `npm fund` for details$/,
    // Node.js 20 only: cookie@2.0.2 asks for Node.js 22 (the guide says why it is harmless)
    ...(guide.includes('EBADENGINE Unsupported engine') && guide.includes('cookie@2.0.2') ? [/^npm warn EBADENGINE/] : []),
  ];
  return output
    .split('\n')
    .filter((line) => line.trim() !== '')
    .filter((line) => !explained.some((pattern) => pattern.test(line)));
}

beforeAll(async () => {
  const [pack] = [...ofKind('pack').keys()];
  expect(pack).toBe('npm run pack');
  folder = tempDir('kct-tarballs-');
  // as written, into a folder of the test's (the build is the one the tests run on)
  const packed = await run('npm', ['run', 'pack', '--', '--out', folder, '--no-build']);
  expect(packed.code, packed.stderr).toBe(0);
  expect(packed.stdout).toContain('npm install -g --allow-scripts=better-sqlite3,tesseract.js');
}, 240_000);

describe('the install commands of the docs, each on a clean prefix', () => {
  it('kct alone from its tarball: nothing printed but what npm always says, and kct runs', async () => {
    const lines = ofKind('kct');
    expect(lines.size).toBeGreaterThan(0);
    for (const [line, where] of lines) {
      const prefix = tempDir('kct-prefix-');
      made.push(prefix);
      const installed = await npmLine(line, folder, prefix);
      const said = `${line} (${where.map((w) => `${w.file}:${w.line}`).join(', ')})`;
      expect(installed.code, `${said}\n${installed.stderr}`).toBe(0);
      expect(unexplained(installed.stdout + installed.stderr), said).toEqual([]);
      const version = await run(join(prefix, 'bin', 'kct'), ['--version']);
      expect(version.code, said).toBe(0);
      expect(existsSync(join(prefix, 'bin', 'kct-sandbox')), said).toBe(false);
    }
  }, 600_000);

  it('kct with kct-sandbox: one command, the same wherever the docs give it; no install-script notice; both bins start the sandbox', async () => {
    const lines = ofKind('both');
    expect([...lines.keys()], 'every doc gives the same command').toHaveLength(1);
    const [[line, where]] = [...lines];
    expect(where.map((w) => w.file)).toEqual(expect.arrayContaining(['README.md', 'docs/guides/install.md', 'docs/guides/sandbox.md']));
    const prefix = tempDir('kct-prefix-');
    made.push(prefix);
    const installed = await npmLine(line, folder, prefix);
    expect(installed.code, `${line}\n${installed.stderr}`).toBe(0);
    expect(installed.stderr).not.toContain('install-scripts');
    expect(unexplained(installed.stdout + installed.stderr)).toEqual([]);
    for (const [bin, args] of [
      ['kct', ['sandbox']],
      ['kct-sandbox', []],
    ] as const) {
      const started = await start(join(prefix, 'bin', bin), [...args]);
      if (!builtInSqlite && started.line === undefined) {
        // on Node.js 20 the sandbox needs better-sqlite3, which the command's --allow-scripts built
        throw new Error(`${bin} did not start on Node.js ${process.version}: ${started.stderr}`);
      }
      const first = JSON.parse(started.line!) as { base_url: string; keys: Record<string, string> };
      expect(first.base_url, bin).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      expect(first.keys.user, bin).toMatch(/^kct_/);
    }
  }, 900_000);

  it("kct-sandbox's tarball alone does not install (its peer kct is looked for on the registry), as the guide says", async () => {
    const prefix = tempDir('kct-prefix-');
    made.push(prefix);
    const alone = await run(
      'npm',
      ['install', '-g', '--offline', `./${[...ofKind('both').keys()][0].split(' ').at(-1)!.replace(/^\.\//, '')}`],
      {
        cwd: folder,
        env: { ...process.env, npm_config_prefix: prefix },
      },
    );
    expect(alone.code).not.toBe(0);
    expect(alone.stderr).toMatch(/ENOTCACHED|E404/);
    expect(guide).toContain('stops with `E404`');
  }, 120_000);

  it('the library into a project from the tarball, and npx of it', async () => {
    const project = tempDir('kct-project-');
    made.push(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    for (const line of ofKind('project').keys()) {
      const installed = await npmLine(line.replace(/\.\/(kct-\d)/, `${folder}/$1`), project, tempDir('kct-unused-prefix-'));
      expect(installed.code, `${line}\n${installed.stderr}`).toBe(0);
      expect(unexplained(installed.stdout + installed.stderr), line).toEqual([]);
      const imported = await run(
        process.execPath,
        ['--input-type=module', '-e', "const k = await import('kct'); console.log(typeof k.KctClient)"],
        {
          cwd: project,
        },
      );
      expect(imported.stdout.trim(), imported.stderr).toBe('function');
    }
    for (const line of ofKind('npx').keys()) {
      // `npx kct --help` once published: the package given by its tarball meanwhile
      const [, tarball, ...rest] = line.split(' ');
      const cache = join(tempDir('kct-npx-'), 'bin');
      mkdirSync(cache, { recursive: true });
      const ran = await npmLine(['npx', '--yes', `--package=${tarball}`, 'kct', ...rest].join(' '), folder, cache);
      expect(ran.code, `${line}\n${ran.stderr}`).toBe(0);
      expect(ran.stdout).toContain('Usage: kct');
    }
  }, 600_000);

  it('a Node.js runtime from the registry is what .ci/run installs the same way', () => {
    const ci = readFileSync(join(ROOT, '.ci', 'run'), 'utf8');
    for (const line of ofKind('runtime').keys()) {
      const runtime = /node@\d+/.exec(line)![0];
      expect(ci, line).toContain(runtime);
      expect(ci).toMatch(/npm install --prefix/);
    }
  });
});

describe.skipIf(process.env.CI)('the registry (outside CI: CI depends on no network)', () => {
  it('still lacks the names the docs call unpublished, and has the others', async () => {
    for (const name of [...UNPUBLISHED, ...PUBLISHED]) {
      const view = await run('npm', ['view', name, 'name', '--prefer-online']);
      if (UNPUBLISHED.includes(name)) {
        expect(view.stderr, `${name} is on the registry now: say so in the docs, and drop it from UNPUBLISHED`).toMatch(/E404/);
      } else expect(view.code, `${name}: ${view.stderr}`).toBe(0);
    }
  }, 120_000);
});

/** Starts a bin with --port 0 --json: its first line, or how it ended. */
async function start(bin: string, args: string[]): Promise<{ line?: string; code?: number | null; stderr: string }> {
  const child: ChildProcess = spawn(bin, [...args, '--port', '0', '--json', '--data', tempDir('kct-docs-sbx-')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    return await new Promise((resolve) => {
      createInterface({ input: child.stdout! }).once('line', (line: string) => resolve({ line, stderr }));
      child.once('exit', (code) => resolve({ code, stderr }));
    });
  } finally {
    child.kill('SIGTERM');
  }
}
