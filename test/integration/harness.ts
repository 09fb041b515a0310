// Integration harness: kct's main() in-process over the test IO (test/unit/cli/test-io.ts), against
// a real sandbox that `kct sandbox --json` starts in this process on a free loopback port. It has
// the end-to-end harness's shape (useSandbox, startSandbox, asUser, runKct, kctEnv...), so a test
// reads the same in both; what differs is that nothing here spawns a process: a run costs
// milliseconds instead of a Node start-up. What only a real process shows (signals, the bin, a
// pseudo-terminal, the process's own exit, stdout closed by its reader, the package, the
// executable) stays in test/e2e (docs/testing.md).
import { Readable } from 'node:stream';
import { afterAll, beforeAll } from 'vitest';
import { main } from '../../src/cli/main.js';
import { kctEnv, parseJson, type SandboxKeys, tempDir } from '../e2e/harness.js';
import { CaptureStream } from '../unit/cli/test-io.js';

export {
  creditsOf,
  FIXTURES,
  fakeApi,
  GENERATED,
  kctEnv,
  parseJson,
  ROOT,
  removeDir,
  type SandboxKeys,
  sendJson,
  tempDir,
} from '../e2e/harness.js';

/** The sandbox package from its sources, as the unit tests load it (its worker threads run the built code). */
const sandboxPackage = () => import('../../packages/sandbox/src/server.js');

/** A row of `--output ndjson`, as far as the tests of reruns read it. */
export interface NdjsonRow {
  file: string;
  task_id: string | null;
  status: string;
  replayed?: boolean;
}

/** The rows of `--output ndjson` text. */
export function ndjsonRows<R = NdjsonRow>(text: string): R[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => parseJson<R>(line));
}

export interface RunResult {
  code: number;
  /** Always null: nothing here is stopped by a signal (test/e2e holds those). */
  signal: null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  /** What stdin holds (default: nothing, and at its end). */
  input?: string | Buffer;
  /** The working directory of the run (relative paths); runs with a cwd are never concurrent. */
  cwd?: string;
  /** A run still going after this long is interrupted (a Ctrl-C) and the test fails with its output. */
  timeoutMs?: number;
  /** stdin, stdout and stderr are a terminal (fake: isTTY and a width), as gh's iostreams.Test(). */
  tty?: boolean;
  columns?: number;
  /** Aborting it is a Ctrl-C (SIGINT). */
  signal?: AbortSignal;
  /** Each write to stderr, with all of stderr so far (to interrupt a run at a given line). */
  onStderr?: (chunk: string, all: string) => void;
  /** Each write to stdout, with all of stdout so far. */
  onStdout?: (chunk: string, all: string) => void;
}

/** A CaptureStream that also tells a listener what it is given. */
class WatchedStream extends CaptureStream {
  constructor(
    tty: boolean,
    columns: number | undefined,
    private readonly listener?: (chunk: string, all: string) => void,
  ) {
    super(tty, columns);
  }

  override _write(chunk: Buffer | string, encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    super._write(chunk, encoding, done);
    this.listener?.(this.chunks[this.chunks.length - 1], this.text());
  }
}

let cwdInUse: string | undefined;

/** `kct <args>` in-process: main() with the test IO, an environment of its own and no signal handlers. */
export async function runKct(args: string[], options: RunOptions = {}): Promise<RunResult> {
  const env = Object.fromEntries(Object.entries(options.env ?? kctEnv(tempDir())).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv;
  const tty = options.tty ?? false;
  const stdout = new WatchedStream(tty, options.columns, options.onStdout);
  const stderr = new WatchedStream(tty, options.columns, options.onStderr);
  const stdin = Object.assign(Readable.from(options.input === undefined ? [] : [options.input]), { isTTY: tty });
  const controller = new AbortController();
  const interrupt = () => controller.abort();
  if (options.signal?.aborted) interrupt();
  else options.signal?.addEventListener('abort', interrupt, { once: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs ?? 120_000);
  const restoreCwd = enterCwd(options.cwd);
  const restoreTz = enterTz(env.TZ);
  // `kct sandbox` sets the process's umask (077) for what it creates: the test process keeps its own
  const umask = process.umask();
  try {
    const code = await main(args, {
      io: { stdin, stdout, stderr },
      env,
      handleSignals: false,
      signal: controller.signal,
      sandbox: sandboxPackage,
    });
    if (timedOut) throw new Error(`kct ${args.join(' ')} timed out\nstdout: ${stdout.text()}\nstderr: ${stderr.text()}`);
    return { code, signal: null, stdout: stdout.text(), stderr: stderr.text() };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', interrupt);
    process.umask(umask);
    restoreCwd();
    restoreTz();
  }
}

/** The run's TZ is the process's while it runs (Node reads process.env.TZ afresh when it is set). */
function enterTz(tz: string | undefined): () => void {
  if (tz === undefined || tz === process.env.TZ) return () => {};
  const before = process.env.TZ;
  process.env.TZ = tz;
  return () => {
    if (before === undefined) delete process.env.TZ;
    else process.env.TZ = before;
  };
}

function enterCwd(cwd: string | undefined): () => void {
  if (cwd === undefined) return () => {};
  if (cwdInUse !== undefined) throw new Error(`a run in ${cwdInUse} is under way: runs with a cwd cannot overlap in one process`);
  const before = process.cwd();
  process.chdir(cwd);
  cwdInUse = cwd;
  return () => {
    process.chdir(before);
    cwdInUse = undefined;
  };
}

export interface Sandbox {
  baseUrl: string;
  /** The product base of the key routes (the origin). */
  productUrl: string;
  keys: SandboxKeys;
  /** Each seeded account's password, for `kct keys`. */
  passwords: SandboxKeys;
  webhookSecret: string;
  dataDir: string;
  /** Stops it as Ctrl-C stops `kct sandbox`; resolves with its exit code. */
  stop(): Promise<number>;
  /** What it wrote on stderr so far (its request log with `--log`). */
  stderr(): string;
}

export interface SandboxStartOptions {
  dataDir?: string;
  latencyMs?: number;
  /** More `kct sandbox` flags. */
  args?: string[];
  env?: Record<string, string>;
}

/** `kct sandbox --json` in this process, on a free loopback port, started once its first line (the keys) is printed. */
export async function startSandbox(options: SandboxStartOptions = {}): Promise<Sandbox> {
  const dataDir = options.dataDir ?? tempDir('kct-sbx-');
  let announced: (line: string) => void = () => {};
  const firstLine = new Promise<string>((resolve) => (announced = resolve));
  const stdout = new WatchedStream(false, undefined, (_, all) => {
    if (all.includes('\n')) announced(all.slice(0, all.indexOf('\n')));
  });
  const stderr = new CaptureStream(false);
  const controller = new AbortController();
  const env = { ...process.env, NO_COLOR: '1', ...options.env } as NodeJS.ProcessEnv;
  // `kct sandbox` sets the process's umask to 077 for what it creates; here the process is the
  // test's, whose own files keep the usual modes (a test of a 0600 file must be able to fail)
  const umask = process.umask();
  const exited = main(
    ['sandbox', '--json', '--port', '0', '--data', dataDir, '--latency', String(options.latencyMs ?? 0), ...(options.args ?? [])],
    {
      io: { stdin: Readable.from([]), stdout, stderr },
      env,
      handleSignals: false,
      signal: controller.signal,
      sandbox: sandboxPackage,
    },
  );
  const line = await Promise.race([
    firstLine,
    exited.then((code) => Promise.reject(new Error(`kct sandbox exited with ${code} before it started: ${stderr.text()}`))),
  ]).finally(() => process.umask(umask));
  const info = JSON.parse(line) as {
    base_url: string;
    product_url: string;
    /** Where it listens: base_url and product_url name --public-url when one is given. */
    listen_url: string;
    keys: SandboxKeys;
    passwords: SandboxKeys;
    webhook_secret: string;
  };
  return {
    baseUrl: `${info.listen_url}${new URL(info.base_url).pathname}`,
    productUrl: info.listen_url,
    keys: info.keys,
    passwords: info.passwords,
    webhookSecret: info.webhook_secret,
    dataDir,
    async stop() {
      controller.abort();
      return exited;
    },
    stderr: () => stderr.text(),
  };
}

/** Runs kct against a sandbox as a given seeded user (an in-process one, or a process from test/e2e/harness.ts). */
export function asUser(sandbox: Pick<Sandbox, 'baseUrl' | 'keys'>, who: keyof SandboxKeys = 'user', configDir: string = tempDir()) {
  const env = kctEnv(configDir, { KCT_BASE_URL: sandbox.baseUrl, KCT_API_KEY: sandbox.keys[who] });
  return (args: string[], options: Omit<RunOptions, 'env'> & { env?: Record<string, string | undefined> } = {}) =>
    runKct(args, { ...options, env: { ...env, ...options.env } });
}

/**
 * One sandbox for a test file, started before its tests and stopped after them; the returned
 * object's `sandbox` and `kct` (the `user` key) are set once it is up.
 */
export function useSandbox(options: SandboxStartOptions = {}): { sandbox: Sandbox; kct: ReturnType<typeof asUser> } {
  const shared = {} as { sandbox: Sandbox; kct: ReturnType<typeof asUser> };
  beforeAll(async () => {
    shared.sandbox = await startSandbox(options);
    shared.kct = asUser(shared.sandbox);
  });
  afterAll(async () => {
    await shared.sandbox?.stop();
  });
  return shared;
}
