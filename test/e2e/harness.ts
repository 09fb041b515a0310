// End-to-end harness: the built `kct` binary as a child process, against a sandbox started with
// `kct sandbox --port 0 --json` on loopback, with a private config dir per test file.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll } from 'vitest';

export const ROOT = resolve(import.meta.dirname, '../..');
export const BIN = join(ROOT, 'bin', 'kct.js');
export const FIXTURES = join(ROOT, 'test', 'fixtures');
export const GENERATED = join(FIXTURES, 'generated');

import type { SandboxKeys } from '../../packages/sandbox/src/store/seed.js';

export type { SandboxKeys };

export interface Sandbox {
  baseUrl: string;
  /** The product base of the key routes (the origin). */
  productUrl: string;
  keys: SandboxKeys;
  /** Each seeded account's password, for `kct keys`. */
  passwords: SandboxKeys;
  webhookSecret: string;
  dataDir: string;
  process: ChildProcess;
  /** The base URL it announced: under --public-url when one was given (baseUrl is where it listens). */
  announcedBaseUrl: string;
  /** Graceful stop (SIGTERM). */
  stop(): Promise<void>;
  /** Hard kill (SIGKILL), as a crash would. */
  kill(): Promise<void>;
  /** What the sandbox wrote on stderr so far. */
  stderr(): string;
}

export function tempDir(prefix = 'kct-e2e-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export interface SandboxStartOptions {
  dataDir?: string;
  latencyMs?: number;
  port?: number;
  args?: string[];
  nodeArgs?: string[];
  env?: Record<string, string>;
  /** The single-file kct to run the sandbox in, instead of bin/kct.js under this Node. */
  executable?: string;
  /** Takes what the sandbox prints after its first line (stderr, later stdout lines), instead of stderr() keeping it. */
  onOutput?: (text: string) => void;
}

/** `kct sandbox --json` on a free loopback port (by default), started once its first line (the keys) is read. */
export async function startSandbox(options: SandboxStartOptions = {}): Promise<Sandbox> {
  const dataDir = options.dataDir ?? tempDir('kct-sbx-');
  const [command, prefix] = options.executable ? [options.executable, []] : [process.execPath, [...(options.nodeArgs ?? []), BIN]];
  const child = spawn(
    command,
    [
      ...prefix,
      'sandbox',
      '--json',
      '--port',
      String(options.port ?? 0),
      '--data',
      dataDir,
      '--latency',
      String(options.latencyMs ?? 0),
      ...(options.args ?? []),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', ...options.env } },
  );
  let stderr = '';
  const keep = options.onOutput ?? ((text: string) => void (stderr += text));
  child.stderr!.setEncoding('utf8').on('data', keep);
  const lines = createInterface({ input: child.stdout! });
  const line = await new Promise<string>((resolveLine, reject) => {
    const timer = setTimeout(() => reject(new Error(`sandbox did not start in time: ${stderr}`)), 60_000);
    lines.once('line', (first) => {
      clearTimeout(timer);
      resolveLine(first);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`sandbox exited with ${code}: ${stderr}`));
    });
  });
  if (options.onOutput) lines.on('line', options.onOutput);
  const info = JSON.parse(line) as {
    base_url: string;
    product_url: string;
    /** Where it listens: base_url and product_url name --public-url when one is given. */
    listen_url: string;
    keys: SandboxKeys;
    passwords: SandboxKeys;
    webhook_secret: string;
  };
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return {
    baseUrl: `${info.listen_url}${new URL(info.base_url).pathname}`,
    productUrl: info.listen_url,
    keys: info.keys,
    passwords: info.passwords,
    webhookSecret: info.webhook_secret,
    dataDir,
    process: child,
    announcedBaseUrl: info.base_url,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    stderr: () => stderr,
  };
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  input?: string | Buffer;
  cwd?: string;
  timeoutMs?: number;
  /** Called with the child once spawned (to send signals). */
  onSpawn?: (child: ChildProcess) => void;
  /** Run this executable (the single-file kct) instead of bin/kct.js under this Node. */
  executable?: string;
}

/** A kct environment with nothing inherited that could change behaviour (no real config, no proxy). */
export function kctEnv(configDir: string, extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    PATH: process.env.PATH,
    HOME: configDir,
    KCT_CONFIG_DIR: configDir,
    KCT_POLL_INTERVAL: '50ms',
    KCT_RETRY_BASE_DELAY: '20ms',
    NO_COLOR: '1',
    CI: '1',
    ...extra,
  };
}

export function runKct(args: string[], options: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolveRun, reject) => {
    const env = Object.fromEntries(
      Object.entries(options.env ?? kctEnv(tempDir())).filter(([, v]) => v !== undefined),
    ) as NodeJS.ProcessEnv;
    const [command, argv] = options.executable ? [options.executable, args] : [process.execPath, [BIN, ...args]];
    const child = spawn(command, argv, { cwd: options.cwd ?? ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`kct ${args.join(' ')} timed out\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, options.timeoutMs ?? 120_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolveRun({ code, signal, stdout, stderr });
    });
    options.onSpawn?.(child);
    if (options.input !== undefined) child.stdin.end(options.input);
    else child.stdin.end();
  });
}

/** Runs kct against a sandbox as a given seeded user. */
export function asUser(sandbox: Sandbox, who: keyof SandboxKeys = 'user', configDir: string = tempDir()) {
  const env = kctEnv(configDir, { KCT_BASE_URL: sandbox.baseUrl, KCT_API_KEY: sandbox.keys[who] });
  return (args: string[], options: Omit<RunOptions, 'env'> & { env?: Record<string, string | undefined> } = {}) =>
    runKct(args, { ...options, env: { ...env, ...options.env } });
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export function parseJson<T = unknown>(text: string): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(`not JSON: ${text}`);
  }
}

/** Runs kct under a pseudo-terminal (util-linux `script`), typing `input` once it asks for an API key. */
export function inTerminal(
  args: string[],
  env: Record<string, string | undefined>,
  input?: string,
): Promise<{ code: number | null; output: string }> {
  return answering(args, env, input === undefined ? [] : [['API key', input]], 100);
}

/** kct under a pseudo-terminal (util-linux `script`), `columns` wide, typing each answer once its prompt appears. */
export function answering(
  args: string[],
  env: Record<string, string | undefined>,
  answers: [prompt: string, text: string][],
  columns = 120,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const command = [process.execPath, BIN, ...args].map((part) => `'${part.replace(/'/g, `'\\''`)}'`).join(' ');
    const child = spawn('script', ['-qefc', `stty cols ${columns} rows 40; ${command}`, '/dev/null'], {
      env: {
        ...Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)),
        TERM: 'xterm',
        COLUMNS: String(columns),
      } as NodeJS.ProcessEnv,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    const pending = [...answers];
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (pending.length > 0 && output.includes(pending[0][0])) child.stdin.write(pending.shift()![1]);
    });
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** A throwaway HTTP server standing in for the API, for answers the sandbox never gives. */
export async function fakeApi(
  handler: (req: IncomingMessage, res: ServerResponse, body: string) => void,
): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString('latin1');
    });
    req.on('end', () => handler(req, res, body));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** The balance a kct runner's key sees. */
export async function creditsOf(run: ReturnType<typeof asUser>): Promise<number> {
  return parseJson<{ credits: number }>((await run(['credits', '--json'])).stdout).credits;
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
