// Shared helpers of the benchmarks: statistics, timing a child process, a sandbox per run,
// the machine description and a plain text table. No timed assertions anywhere: benchmarks report.
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable, Writable } from 'node:stream';
import { prng } from './prng.js';

// the sandbox's own SQLite driver (a built sandbox, as every benchmark needs)
const { openSqlite } = await import('../packages/sandbox/dist/store/sqlite/driver.js');

export const ROOT = resolve(import.meta.dirname, '..');
export const BIN = join(ROOT, 'bin', 'kct.js');
export const BENCH = import.meta.dirname;
/**
 * BENCH_SMOKE=1 (`node bench/run.js --smoke`): the smallest run of each benchmark, one round of
 * tiny inputs through the same code, in seconds: what npm test runs so that no benchmark goes
 * stale (test/e2e/benchmarks.test.ts). Its figures mean nothing.
 */
export const SMOKE = process.env.BENCH_SMOKE === '1';
/** BENCH_QUICK=1: few repetitions and small inputs, a pass of a minute or two (also set by BENCH_SMOKE). */
export const QUICK = SMOKE || process.env.BENCH_QUICK === '1';

/** A size for this run: the full run's, BENCH_QUICK's, or the smoke pass's (default: BENCH_QUICK's). */
export function sized(full, quick, smoke = quick) {
  return SMOKE ? smoke : QUICK ? quick : full;
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function machine() {
  const list = cpus();
  return {
    cpu: list[0]?.model.trim() ?? 'unknown',
    cores: list.length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  };
}

export function machineLine() {
  const m = machine();
  return `${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, Node ${m.node}, ${m.platform}`;
}

/** The 1, 5 and 15 minute load averages: other work on the machine shows here and skews absolute figures. */
export function loadLine() {
  return loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
}

export function tempDir(prefix = 'kct-bench-') {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function removeDir(dir) {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Spawns a command and times it from spawn to exit (wall clock, ms), collecting stdout and stderr.
 * With `toFiles`, the child writes them to files (as `kct ... > marks.ndjson` would), read back
 * after it exits: a pipe to this process would make every write of the child wait on us.
 */
export function timeProcess(command, args, { env = process.env, cwd = ROOT, timeoutMs = 600_000, toFiles = false } = {}) {
  return new Promise((done, fail) => {
    const dir = toFiles ? tempDir('kct-bench-out-') : undefined;
    const fds = dir ? [openSync(join(dir, 'stdout'), 'w'), openSync(join(dir, 'stderr'), 'w')] : undefined;
    const started = process.hrtime.bigint();
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', ...(fds ?? ['pipe', 'pipe'])] });
    let stdout = '';
    let stderr = '';
    if (fds) for (const fd of fds) closeSync(fd);
    else {
      child.stdout.setEncoding('utf8').on('data', (chunk) => {
        stdout += chunk;
      });
      child.stderr.setEncoding('utf8').on('data', (chunk) => {
        stderr += chunk;
      });
    }
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', fail);
    child.on('exit', (code, signal) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      clearTimeout(timer);
      // 'close' follows once the pipes are drained; the time is taken at exit.
      child.on('close', () => {
        if (dir) {
          stdout = readFileSync(join(dir, 'stdout'), 'utf8');
          stderr = readFileSync(join(dir, 'stderr'), 'utf8');
          removeDir(dir);
        }
        done({ ms, code, signal, stdout, stderr });
      });
    });
  });
}

/** Like timeProcess, but rejects unless the exit code is 0 (a benchmark of a failing run means nothing). */
export async function timeOk(label, command, args, options) {
  const run = await timeProcess(command, args, options);
  if (run.code !== 0) throw new Error(`${label} exited with ${run.code ?? run.signal}\nstderr: ${run.stderr.slice(-2000)}`);
  return run;
}

/**
 * A sandbox as its own process (`kct sandbox --port 0 --json`), with a fresh data dir unless one
 * is given. The smoke pass runs it in this process instead, through the same `kct sandbox`
 * (kct's main()): its modules then load once, not once a sandbox, which keeps npm test's pass
 * of every benchmark to seconds.
 */
export async function startSandbox({ workers = 4, latencyMs = 0, dataDir, extraArgs = [] } = {}) {
  const args = ['--json', '--port', '0', '--latency', String(latencyMs), '--workers', String(workers), ...extraArgs];
  const nodeArgs = process.env.BENCH_SANDBOX_PROFILE || process.env.BENCH_SANDBOX_NODE_ARGS;
  // one worker thread: each thread loads the engines once (a few hundred ms of CPU), and a smoke pass reads a few files
  if (SMOKE && !nodeArgs) return startInProcess(args.includes('--threads') ? args : [...args, '--threads', '1'], dataDir);
  const dir = dataDir ?? tempDir('kct-bench-sbx-');
  // BENCH_SANDBOX_PROFILE=DIR: each sandbox writes a CPU profile there (node --cpu-prof)
  const profile = process.env.BENCH_SANDBOX_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_SANDBOX_PROFILE] : [];
  // BENCH_SANDBOX_NODE_ARGS="--trace-gc": more Node flags for each sandbox (what they print on stdout before its first line is skipped)
  profile.push(...(process.env.BENCH_SANDBOX_NODE_ARGS ?? '').split(' ').filter(Boolean));
  const child = spawn(process.execPath, [...profile, BIN, 'sandbox', '--data', dir, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  let stderr = '';
  /** What the sandbox printed besides its first line (e.g. --trace-gc), kept when BENCH_SANDBOX_NODE_ARGS is set. */
  const sandboxOut = [];
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise((done) => child.once('exit', done));
  const line = await new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`sandbox did not start: ${stderr}`)), 60_000);
    const lines = createInterface({ input: child.stdout });
    const onLine = (line) => {
      if (!line.startsWith('{')) return;
      lines.off('line', onLine);
      clearTimeout(timer);
      done(line);
    };
    lines.on('line', onLine);
    if (process.env.BENCH_SANDBOX_NODE_ARGS)
      lines.on('line', (line) => {
        if (!line.startsWith('{')) sandboxOut.push(line);
      });
    exited.then((code) => {
      clearTimeout(timer);
      fail(new Error(`sandbox exited with ${code}: ${stderr}`));
    });
  });
  const info = JSON.parse(line);
  return {
    baseUrl: info.base_url,
    keys: info.keys,
    dataDir: dir,
    pid: child.pid,
    stderr: () => stderr,
    stdout: () => sandboxOut,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      if (!dataDir) removeDir(dir);
    },
  };
}

/**
 * The sandbox's database in its data dir, opened with the sandbox's own driver (node:sqlite or
 * better-sqlite3, whichever this runtime uses), beside a running sandbox (it waits on its lock).
 */
export function sandboxDb(dataDir, options = {}) {
  const db = openSqlite(join(dataDir, 'sandbox.db'), options);
  db.pragma('busy_timeout = 5000');
  return db;
}

/** Sets the seeded account `name`'s balance (the seeded 1,000 credits pay for few long answers). */
export function setCredits(dataDir, name, credits) {
  const db = sandboxDb(dataDir);
  try {
    db.prepare('UPDATE users SET credits = ? WHERE name = ?').run(credits, name);
  } finally {
    db.close();
  }
}

/** `kct sandbox` in this process (the smoke pass): the same flags, the same object as startSandbox's. */
async function startInProcess(args, dataDir) {
  const dir = dataDir ?? tempDir('kct-bench-sbx-');
  const { main } = await import('../dist/cli/main.js');
  const sandboxPackage = () => import('../packages/sandbox/dist/server.js');
  const stdout = new TextSink();
  const stderr = new TextSink();
  const controller = new AbortController();
  const umask = process.umask();
  const exited = main(['sandbox', '--data', dir, ...args], {
    io: { stdin: Readable.from([]), stdout, stderr },
    env: { ...process.env, NO_COLOR: '1' },
    handleSignals: false,
    signal: controller.signal,
    sandbox: sandboxPackage,
  });
  try {
    const line = await new Promise((done, fail) => {
      stdout.onLine = done;
      exited.then((code) => fail(new Error(`sandbox exited with ${code}: ${stderr.text}`)));
    });
    const info = JSON.parse(line);
    return {
      baseUrl: info.base_url,
      keys: info.keys,
      dataDir: dir,
      pid: process.pid,
      stderr: () => stderr.text,
      stdout: () => [],
      async stop() {
        controller.abort();
        await exited;
        if (!dataDir) removeDir(dir);
      },
    };
  } finally {
    // `kct sandbox` keeps what it creates private (umask 077); this process's own files keep theirs
    process.umask(umask);
  }
}

/** A stream that keeps what is written, and calls onLine with its first line. */
class TextSink extends Writable {
  text = '';
  isTTY = false;
  onLine = undefined;

  _write(chunk, _encoding, done) {
    this.text += chunk.toString();
    const end = this.text.indexOf('\n');
    if (end >= 0 && this.onLine) {
      this.onLine(this.text.slice(0, end));
      this.onLine = undefined;
    }
    done();
  }
}

/** The environment kct runs with in every benchmark: a private config dir, no colour, no proxy. */
export function kctEnv(configDir, sandbox, extra = {}) {
  return {
    PATH: process.env.PATH,
    HOME: configDir,
    KCT_CONFIG_DIR: configDir,
    NO_COLOR: '1',
    CI: '1',
    ...(sandbox ? { KCT_BASE_URL: sandbox.baseUrl, KCT_API_KEY: sandbox.keys.user } : {}),
    ...extra,
  };
}

/** Runs fn for each contender in turn, `rounds` times (A, B, C, A, B, C ...); returns values per contender. */
export async function interleave(rounds, contenders, fn) {
  const values = Object.fromEntries(contenders.map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const name of contenders) values[name].push(await fn(name, round));
  }
  return values;
}

/** A plain-text table with aligned columns. */
export function table(headers, rows) {
  const cells = [headers, ...rows].map((row) => row.map((cell) => String(cell)));
  const widths = headers.map((_, i) => Math.max(...cells.map((row) => row[i].length)));
  const line = (row) =>
    row
      .map((cell, i) => cell.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(cells[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}

export function fixed(value, digits = 2) {
  return Number.isFinite(value) ? value.toFixed(digits) : String(value);
}

export function log(text = '') {
  process.stdout.write(`${text}\n`);
}

export { prng };

const WORDS = (
  'school uniforms students should wear clothes identity cost families equality bullying ' +
  'discipline freedom expression learning teachers parents board policy research evidence argue ' +
  'however therefore because although furthermore comfort weather focus pride community rules'
).split(' ');

/** Essay-like text of about `length` characters, different for every seed. */
export function essay(seed, length) {
  const random = prng(seed);
  const sentences = [`Answer ${seed}.`];
  let size = sentences[0].length;
  while (size < length) {
    const count = 6 + Math.floor(random() * 10);
    const words = Array.from({ length: count }, () => WORDS[Math.floor(random() * WORDS.length)]);
    const sentence = `${words[0][0].toUpperCase()}${words[0].slice(1)} ${words.slice(1).join(' ')}.`;
    sentences.push(sentence);
    size += sentence.length + 1;
  }
  return sentences.join(' ').slice(0, length);
}

/** CPU seconds this process and the children it has waited for have used (Linux; NaN elsewhere). */
export function cpuWithChildren() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    // utime, stime, cutime, cstime in clock ticks (USER_HZ 100)
    return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return NaN;
  }
}

/**
 * CPU seconds (user + system, every thread) a process has used, from /proc (Linux; NaN elsewhere):
 * the sandbox's CPU per task drained reads the same on a loaded machine, where wall time does not.
 */
export function cpuSeconds(pid, thread = false) {
  try {
    // thread: the main thread only (its task id is the pid), the one that answers requests
    const fields = readFileSync(thread ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, 'utf8')
      .split(') ')[1]
      .split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return NaN;
  }
}
