// The single-file executable (npm run build:exe): built for this file from the built dist/ (the
// Node binary in KCT_SEA_NODE, else this Node), then run with an empty PATH, so nothing outside
// the file is found, for --version, credits and a one-pass against the sandbox. `kct sandbox`
// runs inside an executable built from Node 22.13+ (CI: KCT_SEA_NODE is a Node 24), its jobs on
// worker threads, and says what to do inside one built from Node 20: when the Node running the
// tests is a Node 20 and KCT_SEA_NODE is not, a second executable is built from it for that.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THREAD_NICENESS } from '../../packages/sandbox/src/threads/serve.js';
import {
  FIXTURES,
  GENERATED,
  parseJson,
  ROOT,
  type RunOptions,
  removeDir,
  runKct,
  type Sandbox,
  startSandbox,
  tempDir,
  useSandbox,
} from './harness.js';

const shared = useSandbox();
const dir = tempDir('kct-exe-');
const exe = join(dir, 'kct-linux-x64');
const embeddedNode = process.env.KCT_SEA_NODE ?? process.execPath;
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };

/** A Node binary's version, and whether it has node:sqlite unflagged (22.13+, 23.4+). */
function runtime(node: string): { version: string; major: number; sqlite: boolean } {
  const full = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim().slice(1);
  const [major, minor] = full.split('.').map(Number);
  return { version: full, major, sqlite: major > 23 || (major === 23 && minor >= 4) || (major === 22 && minor >= 13) };
}
const embedded = runtime(embeddedNode);
const testing = runtime(process.execPath);
/** An executable whose Node has no node:sqlite: this one, or one built from the Node running the tests. */
const withoutSqlite = !embedded.sqlite ? exe : !testing.sqlite ? join(dir, 'kct-node20') : undefined;

/** Runs an executable with nothing from this environment: an empty PATH, a private HOME and config. */
function runExe(args: string[], env: Record<string, string> = {}, options: Omit<RunOptions, 'env' | 'executable'> = {}, executable = exe) {
  return runKct(args, {
    ...options,
    cwd: dir,
    executable,
    env: { PATH: '', HOME: dir, KCT_CONFIG_DIR: dir, NO_COLOR: '1', CI: '1', KCT_POLL_INTERVAL: '50ms', ...env },
  });
}

const asUser = (sandbox: Sandbox = shared.sandbox) => ({ KCT_BASE_URL: sandbox.baseUrl, KCT_API_KEY: sandbox.keys.user });

const build = (node: string, out: string) =>
  promisify(execFile)(process.execPath, [join(ROOT, 'scripts', 'build-exe.js'), '--out', out, '--node', node], {
    cwd: ROOT,
    timeout: 300_000,
  });

/** What build-exe.js said of the executable it built (its line on stderr). */
let built = '';

beforeAll(async () => {
  // one after the other: postject needs ~1 GB while it rewrites a binary
  built = (await build(embeddedNode, exe)).stderr;
  if (withoutSqlite && withoutSqlite !== exe) await build(process.execPath, withoutSqlite);
}, 620_000);

afterAll(() => removeDir(dir)); // each executable is over 100 MB

describe('the single-file executable, with an empty PATH', () => {
  it('is one executable file, with the Node it was built from inside', async () => {
    expect(statSync(exe).mode & 0o111).toBe(0o111);
    const run = await runExe(['version', '--json']);
    expect(run.code).toBe(0);
    expect(parseJson(run.stdout)).toEqual({ version, node: embedded.version, platform: 'linux', arch: 'x64' });
  });

  it('--version prints the package version; --help works without any file beside it', async () => {
    const run = await runExe(['--version']);
    expect(run).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: '' });
    const help = await runExe(['one-pass', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: kct one-pass');
    expect(help.stderr).toBe('');
  });

  it('its size is said in MiB (the unit said was "MB" for sizes in MiB)', () => {
    const mib = statSync(exe).size / 2 ** 20;
    // the guide gives the size as "about": it changes with each Node.js release, which CI takes as it comes
    expect(built).toContain(`kct-linux-x64 (${mib.toFixed(1)} MiB; Node.js v${embedded.version}`);
  });

  it('credits against the sandbox', async () => {
    const run = await runExe(['credits', '--json'], asUser());
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(typeof parseJson<{ credits: number }>(run.stdout).credits).toBe('number');
  });

  it('one-pass of a text and a PDF answer against the sandbox, and the class report', async () => {
    const report = join(dir, 'class.html');
    const run = await runExe(
      ['one-pass', join(FIXTURES, 'essay.txt'), join(GENERATED, 'essay.pdf'), '--model', '12', '--output', 'ndjson', '--report', report],
      asUser(),
      { timeoutMs: 120_000 },
    );
    expect(run.code).toBe(0);
    const rows = run.stdout
      .trim()
      .split('\n')
      .map((line) => parseJson<{ status: string; score: number; max_score: number }>(line));
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.status).toBe('SUCCESS');
      expect(row.score).toBeGreaterThan(0);
      expect(row.max_score).toBe(20);
    }
    expect(readFileSync(report, 'utf8')).toContain(`<meta name="generator" content="kct ${version}">`);
  });
});

describe.skipIf(!embedded.sqlite)('kct sandbox inside an executable built from Node 22.13 or later (KCT_SEA_NODE)', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ executable: exe, dataDir: join(dir, 'sandbox'), env: { PATH: '', HOME: dir } });
  }, 120_000);
  afterAll(async () => {
    await sandbox?.stop();
  });

  it('marks TXT, DOCX and PDF answers on its worker threads, through the executable itself; an image ends FAILURE with the reason', async () => {
    const answers = [
      join(FIXTURES, 'essay.txt'),
      join(GENERATED, 'essay.docx'),
      join(GENERATED, 'essay.pdf'),
      join(GENERATED, 'essay.png'),
    ];
    const run = await runExe(['one-pass', ...answers, '--model', '12', '--output', 'ndjson'], asUser(sandbox), { timeoutMs: 120_000 });
    expect(run.code).toBe(3); // an answer ended FAILURE (README: exit codes)
    const rows = run.stdout
      .trim()
      .split('\n')
      .map((line) => parseJson<{ file: string; status: string; score: number | null; max_score: number | null; message?: string }>(line));
    const byFile = new Map(rows.map((row) => [row.file, row]));
    expect([...byFile.keys()].sort()).toEqual([...answers].sort());
    for (const answer of answers.slice(0, 3)) {
      expect(byFile.get(answer)).toMatchObject({ status: 'SUCCESS', max_score: 20 });
      expect(byFile.get(answer)!.score).toBeGreaterThan(0);
    }
    // tesseract.js and its data are not in the executable: the reason says so and what to send
    expect(byFile.get(answers[3])).toMatchObject({ status: 'FAILURE', score: null });
    expect(byFile.get(answers[3])!.message).toBe(
      'Could not read answer file "essay.png": The single-file executable of kct has no OCR engine, so text in images and scanned pages cannot be read: send the answer as a PDF with text, DOCX, RTF or TXT, or run kct sandbox from the npm package, which reads them.',
    );

    // A file answer is always read on a pool thread: those threads are in the sandbox's process
    // now, idle, each at the pool's lower priority (and named kct-job where Node names threads).
    const pid = sandbox.process.pid!;
    const threads = readdirSync(`/proc/${pid}/task`).map((tid) => ({
      name: readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim(),
      nice: Number(
        readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')
          .replace(/^.*\) /s, '')
          .split(' ')[16],
      ),
    }));
    const pool = threads.filter((thread) => thread.nice === THREAD_NICENESS);
    expect(pool.length).toBeGreaterThanOrEqual(1);
    if (embedded.major >= 24) expect(pool.every((thread) => thread.name === 'kct-job')).toBe(true);

    expect(sandbox.stderr()).toBe('');
    await sandbox.stop();
    expect(sandbox.process.exitCode).toBe(143); // stopped by SIGTERM, cleanly
  }, 150_000);
});

describe.skipIf(!withoutSqlite)('kct sandbox inside an executable built from Node 20', () => {
  it('says it needs an executable built from Node 22.13 or later (exit 2), and makes no file', async () => {
    const data = join(dir, 'sandbox-20');
    const run = await runExe(['sandbox', '--port', '0', '--json', '--data', data], {}, { timeoutMs: 60_000 }, withoutSqlite);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    const { error } = parseJson<{ error: { message: string; suggestion: string; exit_code: number } }>(run.stderr);
    expect(error.message).toMatch(
      /^kct sandbox in this single-file executable needs Node\.js 22\.13 or later inside it: it was built from Node\.js v20\./,
    );
    expect(error.suggestion).toContain('Build the executable from Node.js 24');
    expect(error.suggestion).toContain(
      'install kct and its sandbox with npm (both tarballs of `npm run pack` in one npm install -g: docs/guides/install.md)',
    );
    expect(error.exit_code).toBe(2);
    // the folder it was given was made for this start: gone again, with no database made in it
    expect(existsSync(data)).toBe(false);
  });
});
