// The README's Quick start, run as written on a clean clone (issue 11, item 16; issue 24, goal 3).
//
// beforeAll clones this repository (its committed HEAD) into a temporary folder and runs the first
// line, `npm install`, there, from npm's cache (offline: nothing is downloaded). One substitution
// keeps the test near two minutes: on Node.js 20 the sandbox's better-sqlite3 is a native module that
// `npm install` compiles (two to three minutes of C++ on a 2-core machine), so the clone's packages are
// first laid down with `npm ci --offline --ignore-scripts` and that one compiled module is copied from
// this checkout (same version, same Node.js); the README's `npm install` then runs as written and
// builds both packages (the root `prepare` script). Measured on the 2-core machine (2026-11-26): the
// whole file takes 57 s of CPU; its wall time was 3.5 minutes at load average 10 (`npm ci` about 25 s,
// `npm install` 85 s, mostly the build; the tests after it 34 s), about a minute on a quiet machine. A
// full `npm install` of a clean clone, the native compile included, took 4.5 minutes there.
//
// Then, in the clone: the demo's script (after the build `npm install` has made; `npm run demo` is
// `npm run build --silent && node scripts/demo.js`, checked below), `npm link` into a private
// prefix (the machine's global folder is untouched), `kct --version` and `kct credits` on that PATH;
// the way it names without `npm link` (`npx kct` in the clone; the tarballs are install-docs.test.ts's);
// and the second block, trying kct on the sandbox: `kct sandbox` (on a free port, with --json, instead
// of 4010, which another test may hold), the key typed at the prompt of `kct auth login` on a
// pseudo-terminal, `kct config set model 12`, `kct one-pass examples/sample-essay.txt`.
// `npm test` is not run: it is what runs this file.
import { type ChildProcess, type SpawnSyncReturns, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, removeDir, tempDir } from './harness.js';

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const quickStart = /## Quick start\n([\s\S]*?)\n## /.exec(readme)?.[1] ?? '';
/** Each ```sh block of the Quick start, as its command lines without comments. */
const blocks = [...quickStart.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) =>
  match[1]
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter(Boolean),
);
const [newcomer = [], tryIt = []] = blocks;
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** Generous: npm on a loaded 2-core runner once took over 60 s for `npm link` (status null). */
const NPM_TIMEOUT = 180_000;

let clone = '';
let prefix = '';
let home = '';
let sandbox: ChildProcess | undefined;
let sandboxInfo: { base_url: string; keys: { user: string } } | undefined;

/** npm's environment: offline, quiet, and a private global prefix. */
function npmEnv(globalPrefix: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    npm_config_prefix: globalPrefix,
    npm_config_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  };
}

/** Everything a failed command said, for the assertion's message. */
function said(run: SpawnSyncReturns<string>, what: string): string {
  return `${what}: status ${run.status}, signal ${run.signal}${run.error ? `, ${run.error.message}` : ''}\nstdout: ${run.stdout?.slice(-2000)}\nstderr: ${run.stderr?.slice(-4000)}`;
}

/**
 * A README line (`npm install`, `npm link`) run as written, in the clone: from npm's cache, or,
 * when the cache lacks a package (ENOTCACHED), once more allowed to fetch what is missing.
 */
function npmLine(line: string, env = npmEnv(prefix)) {
  const args = line.replace(/^npm /, '').split(/\s+/);
  const run = spawnSync('npm', args, { cwd: clone, env, encoding: 'utf8', timeout: NPM_TIMEOUT });
  if (run.status === 0 || !/ENOTCACHED/.test(run.stderr ?? '')) return run;
  return spawnSync('npm', args, {
    cwd: clone,
    env: { ...env, npm_config_offline: 'false', npm_config_prefer_offline: 'true' },
    encoding: 'utf8',
    timeout: NPM_TIMEOUT,
  });
}

/** A shell's environment after `npm link`: the prefix's bin first on PATH, a private home. */
function shellEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    PATH: `${join(prefix, 'bin')}:${process.env.PATH}`,
    HOME: home,
    KCT_CONFIG_DIR: join(home, '.config', 'kct'),
    NO_COLOR: '1',
    KCT_POLL_INTERVAL: '50ms',
    ...extra,
  };
}

function kct(args: string[], env: NodeJS.ProcessEnv) {
  return spawnSync('kct', args, { cwd: clone, env, encoding: 'utf8', timeout: 60_000 });
}

/** A command under a pseudo-terminal (util-linux `script`), typing `answer` once `prompt` appears. */
function inTerminal(
  command: string,
  env: NodeJS.ProcessEnv,
  prompt: string,
  answer: string,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('script', ['-qefc', `stty cols 100 rows 40; ${command}`, '/dev/null'], {
      cwd: clone,
      env: { ...env, TERM: 'xterm' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    let typed = false;
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (!typed && output.includes(prompt)) {
        typed = true;
        child.stdin.write(answer);
      }
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

beforeAll(
  async () => {
    clone = join(tempDir('kct-clone-'), 'kct');
    prefix = tempDir('kct-prefix-');
    home = tempDir('kct-home-');
    const cloned = spawnSync('git', ['clone', '--quiet', ROOT, clone], { encoding: 'utf8', timeout: NPM_TIMEOUT });
    expect(cloned.status, said(cloned, 'git clone')).toBe(0);
    const laid = npmLine('npm ci --ignore-scripts');
    expect(laid.status, said(laid, 'npm ci --offline --ignore-scripts')).toBe(0);
    const compiled = join(ROOT, 'node_modules', 'better-sqlite3', 'build');
    if (existsSync(compiled) && existsSync(join(clone, 'node_modules', 'better-sqlite3')))
      cpSync(compiled, join(clone, 'node_modules', 'better-sqlite3', 'build'), { recursive: true });
    // the README's first line, as written
    const installed = npmLine(newcomer[0] ?? 'npm install');
    expect(installed.status, said(installed, newcomer[0] ?? 'npm install')).toBe(0);
  },
  3 * NPM_TIMEOUT + 60_000,
);

afterAll(async () => {
  if (sandbox && sandbox.exitCode === null && sandbox.signalCode === null) {
    const exited = new Promise((done) => sandbox!.once('exit', done));
    sandbox.kill('SIGTERM');
    await exited;
  }
  if (clone) removeDir(join(clone, '..'));
  for (const dir of [prefix, home]) if (dir) removeDir(dir);
});

/** The second block's first line, `kct sandbox`, from the clone's linked kct; on a free port with --json. */
async function startClonedSandbox(): Promise<{ base_url: string; keys: { user: string } }> {
  if (sandboxInfo) return sandboxInfo;
  expect(tryIt[0]).toBe('kct sandbox');
  const child = spawn('kct', ['sandbox', '--port', '0', '--json', '--latency', '0'], {
    cwd: clone,
    env: shellEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  sandbox = child;
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (text: string) => void (stderr += text));
  const line = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`kct sandbox did not start within 60 s: ${stderr}`)), 60_000);
    createInterface({ input: child.stdout! }).once('line', (first) => {
      clearTimeout(timer);
      resolve(first);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`kct sandbox exited with ${code}: ${stderr}`));
    });
  });
  sandboxInfo = JSON.parse(line) as { base_url: string; keys: { user: string } };
  return sandboxInfo;
}

describe('the quick start, on a clean clone', () => {
  it("is the newcomer's path in order, and npm install builds both packages", () => {
    expect(newcomer.map((line) => line.split(' ').slice(0, 3).join(' '))).toEqual([
      'npm install',
      'npm run demo',
      'npm test',
      'npm link --ignore-scripts',
      'kct --version',
    ]);
    expect(pkg.scripts.prepare).toMatch(/npm run build/);
    expect(pkg.scripts.demo).toBe('npm run build --silent && node scripts/demo.js');
    expect(quickStart).toContain('npx kct');
    expect(quickStart).toContain('[Install](#install)');
    expect(existsSync(join(clone, 'dist', 'cli', 'main.js'))).toBe(true);
    expect(existsSync(join(clone, 'packages', 'sandbox', 'dist', 'server.js'))).toBe(true);
  });

  it('npm run demo marks the sample essay on a sandbox and stops it', () => {
    const demo = spawnSync(process.execPath, [join(clone, 'scripts', 'demo.js')], {
      cwd: clone,
      env: { ...process.env, NO_COLOR: '1' },
      encoding: 'utf8',
      timeout: NPM_TIMEOUT,
    });
    expect(demo.status, said(demo, 'node scripts/demo.js')).toBe(0);
    expect(demo.stderr).toContain('Marking examples/sample-essay.txt with model 12');
    expect(demo.stdout).toMatch(/Total/i);
  });

  it('npm link puts a working kct on the PATH', async () => {
    const line = newcomer.find((command) => command.startsWith('npm link'))!;
    const link = npmLine(line);
    expect(link.status, said(link, line)).toBe(0);
    // nothing the README does not explain: the clone is built, so npm has no script to list
    expect(link.stderr, line).not.toContain('npm warn');
    const printed = kct(['--version'], shellEnv());
    expect(printed.status, said(printed, 'kct --version')).toBe(0);
    expect(printed.stdout.trim()).toBe(version);
    const { base_url: baseUrl, keys } = await startClonedSandbox();
    const credits = kct(['credits'], shellEnv({ KCT_BASE_URL: baseUrl, KCT_API_KEY: keys.user }));
    expect(credits.status, said(credits, 'kct credits')).toBe(0);
    expect(credits.stdout).toMatch(/credits/);
  });

  it('without npm link: npx kct inside the clone', () => {
    const run = spawnSync('npx', ['--no-install', 'kct', '--help'], {
      cwd: clone,
      env: npmEnv(prefix),
      encoding: 'utf8',
      timeout: NPM_TIMEOUT,
    });
    expect(run.status, said(run, 'npx kct --help')).toBe(0);
    expect(run.stdout).toContain('Usage: kct');
  });

  it('then kct on the sandbox: log in with the key at the prompt, set the model, mark the sample', async () => {
    expect(tryIt.map((line) => line.split(' ').slice(0, 3).join(' '))).toEqual([
      'kct sandbox',
      'kct auth login',
      'kct config set',
      'kct one-pass examples/sample-essay.txt',
    ]);
    if (!existsSync(join(prefix, 'bin', 'kct'))) expect(npmLine('npm link --ignore-scripts').status).toBe(0);
    const { base_url: baseUrl, keys } = await startClonedSandbox();
    const env = shellEnv();
    // the sandbox of the first line listens on a free port instead of 4010
    const line = (command: string) => command.replace('http://127.0.0.1:4010/v1', baseUrl);
    const login = await inTerminal(line(tryIt[1]), env, 'API key', `${keys.user}\r`);
    expect(login.output).toContain('Logged in');
    expect(login.code, login.output).toBe(0);
    for (const command of tryIt.slice(2)) {
      const run = kct(line(command).replace(/^kct /, '').split(/\s+/), env);
      expect(run.status, said(run, command)).toBe(0);
    }
    const marked = kct(line(tryIt[3]).replace(/^kct /, '').split(/\s+/), { ...env, KCT_OUTPUT: 'json' });
    expect(JSON.parse(marked.stdout)).toMatchObject({ status: 'SUCCESS', model_id: 12 });
  });
});
