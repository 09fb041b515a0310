// The README's Quick start, run as written (issue 11, item 16; issue 24, goal 3). Its first block is
// the newcomer's path on a clone: `npm install` (which builds, through the root `prepare` script),
// `npm run demo`, `npm test`, `npm link -w kct`, `kct --version`. This test runs what a test can:
// the demo's script (after the build `npm test` has made), `npm link -w kct` into a private prefix so
// the machine's global folder is untouched, then the linked `kct`; the two ways it names without
// `npm link` (`npx kct` in the clone, `npm install -g ./packages/kct`); and the second block, trying
// kct on a sandbox, with the key typed at the prompt of `kct auth login` on a pseudo-terminal.
// `npm install` itself is not run (it would download the dependencies), nor `npm test` (it is what
// runs this file).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, inTerminal, kctEnv, runKct, tempDir, useSandbox } from './harness.js';

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const quickStart = /## Quick start\n([\s\S]*?)\n## /.exec(readme)?.[1] ?? '';
/** Each ```sh block of the Quick start, as its command lines without comments. */
const blocks = [...quickStart.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1].split('\n').map((line) => line.replace(/\s+#.*$/, '').trim()).filter(Boolean));
const [newcomer = [], tryIt = []] = blocks;
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
const version = (JSON.parse(readFileSync(join(ROOT, 'packages', 'kct', 'package.json'), 'utf8')) as { version: string }).version;
const shared = useSandbox();

function sh(command: string, args: string[], env: NodeJS.ProcessEnv) {
  return spawnSync(command, args, { cwd: ROOT, env, encoding: 'utf8', timeout: 90_000 });
}

/** npm's environment with a private global prefix: nothing is installed or linked outside it. */
function privateNpm(prefix: string): NodeJS.ProcessEnv {
  return { ...process.env, npm_config_prefix: prefix, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
}

/** `npm <args> --ignore-scripts` as the README writes it (the build is done), into a private prefix. */
function npm(line: string, prefix: string) {
  return sh('npm', [...line.replace(/^npm /, '').split(/\s+/), '--ignore-scripts'], privateNpm(prefix));
}

/** The environment of a shell whose PATH starts with the prefix's bin, against the shared sandbox. */
function onPath(prefix: string): NodeJS.ProcessEnv {
  return { ...kctEnv(tempDir()), PATH: `${join(prefix, 'bin')}:${process.env.PATH}`, KCT_BASE_URL: shared.sandbox.baseUrl, KCT_API_KEY: shared.sandbox.keys.user } as NodeJS.ProcessEnv;
}

describe('the quick start', () => {
  it('is the newcomer\'s path in order, and npm install builds', () => {
    expect(newcomer.map((line) => line.split(' ').slice(0, 3).join(' '))).toEqual(['npm install', 'npm run demo', 'npm test', 'npm link -w', 'kct --version']);
    expect(pkg.scripts.prepare).toMatch(/npm run build/);
    expect(pkg.scripts.demo).toBe('npm run build --silent && node scripts/demo.js');
    expect(quickStart).toContain('npx kct');
    expect(quickStart).toContain('npm install -g ./packages/kct');
  });

  it('npm run demo marks the sample essay on a sandbox and stops it', () => {
    const demo = sh(process.execPath, [join(ROOT, 'scripts', 'demo.js')], { ...process.env, NO_COLOR: '1' });
    expect(demo.status, demo.stderr).toBe(0);
    expect(demo.stderr).toContain('Marking examples/sample-essay.txt with model 12');
    expect(demo.stdout).toMatch(/Total/i);
  });

  it('npm link -w kct puts a working kct on the PATH', () => {
    const prefix = tempDir('kct-prefix-');
    const line = newcomer.find((command) => command.startsWith('npm link'))!;
    const link = npm(line, prefix);
    expect(link.status, link.stderr).toBe(0);
    const env = onPath(prefix);
    const printed = sh('kct', ['--version'], env);
    expect(printed.status, printed.stderr).toBe(0);
    expect(printed.stdout.trim()).toBe(version);
    const credits = sh('kct', ['credits'], env);
    expect(credits.status, credits.stderr).toBe(0);
    expect(credits.stdout).toMatch(/credits/);
  });

  it('without npm link: npx kct inside the clone, or npm install -g ./packages/kct', () => {
    const run = sh('npx', ['--no-install', 'kct', '--help'], { ...process.env, npm_config_update_notifier: 'false' });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('Usage: kct');
    const prefix = tempDir('kct-prefix-');
    const install = npm('npm install -g ./packages/kct --offline', prefix);
    expect(install.status, install.stderr).toBe(0);
    const printed = sh('kct', ['--version'], onPath(prefix));
    expect(printed.stdout.trim()).toBe(version);
  });

  it('then kct on the sandbox: log in with the key at the prompt, set the model, mark the sample', async () => {
    expect(tryIt.map((line) => line.split(' ').slice(0, 3).join(' '))).toEqual(['kct sandbox', 'kct auth login', 'kct config set', 'kct one-pass examples/sample-essay.txt']);
    const dir = tempDir();
    const env = { ...kctEnv(dir), CI: undefined };
    // the sandbox of the first line runs already, on a free port instead of 4010
    const args = (line: string) => line.replace(/^kct /, '').replace('http://127.0.0.1:4010/v1', shared.sandbox.baseUrl).split(/\s+/);
    const login = await inTerminal(args(tryIt[1]), env, `${shared.sandbox.keys.user}\r`);
    expect(login.output).toContain('Logged in');
    expect(login.code).toBe(0);
    for (const line of tryIt.slice(2)) {
      const run = await runKct(args(line), { env });
      expect(run.code, `${line}\n${run.stderr}`).toBe(0);
    }
    const marked = await runKct(args(tryIt[3]), { env: { ...env, KCT_OUTPUT: 'json' } });
    expect(JSON.parse(marked.stdout)).toMatchObject({ status: 'SUCCESS', model_id: 12 });
  });
});
