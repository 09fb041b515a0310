// Shared by the reliability suite (test/reliability, docs/security.md): a real `kct sandbox`
// process, an HTTP client that keeps a transcript of everything the sandbox answered, a reader
// of its database, a seeded random source, and the secrets scan of every output.
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, type Dispatcher, type FormData, request } from 'undici';
import { afterAll, beforeAll, expect } from 'vitest';
import { ROOT, type Sandbox, type SandboxKeys, startSandbox as startKctSandbox } from '../e2e/harness.js';

export { ROOT };

/** `npm run test:reliability` runs everything at full size with its bounds; `npm test` a smaller pass without timed bounds. */
export const FULL = process.env.KCT_RELIABILITY === 'full';
/** One seed for every generator of a run (KCT_SEED to replay one): printed by each file. */
export const SEED = Number(process.env.KCT_SEED ?? 12_012);

/** Everything the sandbox said, in one place, for the secrets scan. */
export class Transcript {
  private readonly parts: string[] = [];
  record(text: string): void {
    this.parts.push(text);
  }
  get text(): string {
    return this.parts.join('\n');
  }
}

export interface SandboxProcess extends Sandbox {
  origin: string;
  port: number;
  child: ChildProcess;
}

export function tempDir(prefix = 'kct-rel-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/**
 * `kct sandbox --json --log` on a free loopback port (the end-to-end harness's start). Its first
 * line (the keys, shown by design) is kept out of the transcript; everything else it prints goes in.
 */
export async function startSandbox(transcript: Transcript, options: { dataDir?: string; args?: string[] } = {}): Promise<SandboxProcess> {
  const dataDir = options.dataDir ?? tempDir('kct-rel-sbx-');
  const sandbox = await startKctSandbox({ dataDir, args: ['--log', ...(options.args ?? [])], onOutput: (text) => transcript.record(text) });
  const url = new URL(sandbox.baseUrl);
  return { ...sandbox, origin: url.origin, port: Number(url.port), child: sandbox.process };
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  body: any;
}

/** One HTTP client for a file: keep-alive, a deadline on every answer, every answer recorded. */
export class Client {
  readonly agent: Agent;
  constructor(
    readonly transcript: Transcript,
    readonly timeoutMs: number,
    connections?: number,
  ) {
    this.agent = new Agent({ headersTimeout: timeoutMs, bodyTimeout: timeoutMs, ...(connections ? { connections } : {}) });
  }

  async call(
    url: string,
    init: {
      method?: string;
      key?: string | null;
      json?: unknown;
      form?: FormData;
      body?: string | Buffer;
      headers?: Record<string, string> | string[];
    } = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (init.key) headers['x-api-key'] = init.key;
    let body: Dispatcher.DispatchOptions['body'];
    if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    } else if (init.form) body = init.form as unknown as Dispatcher.DispatchOptions['body'];
    else if (init.body !== undefined) body = init.body;
    const all = Array.isArray(init.headers)
      ? [...Object.entries(headers).flat(), ...init.headers]
      : { ...headers, ...(init.headers ?? {}) };
    const res = await request(url, {
      method: (init.method ?? (body === undefined ? 'GET' : 'POST')) as 'GET',
      headers: all,
      body,
      dispatcher: this.agent,
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    const text = await res.body.text();
    this.transcript.record(`${res.statusCode} ${JSON.stringify(res.headers)} ${text}`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: res.statusCode, headers: res.headers, text, body: parsed };
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

/** Files of a data dir, keys.json aside (it holds the seeded keys by design, 0600). */
export function dataDirFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (!/^(keys|passwords)\.json($|\.)/.test(e.name)) out.push(p);
    }
  };
  walk(dir);
  return out;
}

const KEY_PATTERN = /kct_sbx_[0-9a-f]{32}/g;

/**
 * Where a key value appears: in the transcript (answers, logs) or in a data-dir file. Every
 * seeded key is looked for, and anything shaped like a sandbox key.
 */
export function secretsFound(keys: SandboxKeys, transcript: Transcript, dataDir?: string, passwords?: SandboxKeys): string[] {
  const found: string[] = [];
  for (const [name, password] of Object.entries(passwords ?? {})) {
    if (transcript.text.includes(password)) found.push(`the transcript holds the ${name} password`);
    if (dataDir && existsSync(dataDir))
      for (const file of dataDirFiles(dataDir))
        if (readFileSync(file).includes(password)) found.push(`${file} holds the ${name} password in clear`);
  }
  const values = Object.values(keys);
  const text = transcript.text;
  // as sent, and percent-encoded as a URL may hold it ("kct%5Fsbx%5F…", either case)
  const forms = (key: string) => [key, key.replace(/_/g, '%5F'), key.replace(/_/g, '%5f')];
  for (const key of values)
    if (forms(key).some((form) => text.includes(form)))
      found.push(`the transcript holds the ${Object.entries(keys).find(([, v]) => v === key)![0]} key`);
  for (const match of text.match(KEY_PATTERN) ?? [])
    if (!values.includes(match)) found.push(`the transcript holds a key-shaped value ${match.slice(0, 12)}…`);
  if (dataDir && existsSync(dataDir)) {
    for (const file of dataDirFiles(dataDir)) {
      const bytes = readFileSync(file);
      for (const key of values) if (bytes.includes(key)) found.push(`${file} holds a key in clear`);
    }
  }
  return found;
}

/** A read-only handle on a sandbox database: node:sqlite where Node has it, else better-sqlite3. */
export interface ReadOnlyDb {
  all<T = Record<string, unknown>>(sql: string, ...params: unknown[]): T[];
  get<T = Record<string, unknown>>(sql: string, ...params: unknown[]): T | undefined;
  close(): void;
}

export async function openReadOnly(path: string): Promise<ReadOnlyDb> {
  const require = createRequire(import.meta.url);
  let sqlite:
    | {
        DatabaseSync: new (
          p: string,
          o: object,
        ) => { prepare(s: string): { all(...a: unknown[]): unknown[]; get(...a: unknown[]): unknown }; close(): void };
      }
    | undefined;
  try {
    sqlite = require('node:sqlite');
  } catch {
    sqlite = undefined;
  }
  if (sqlite) {
    const db = new sqlite.DatabaseSync(path, { readOnly: true });
    return {
      all: <T>(sql: string, ...params: unknown[]) => db.prepare(sql).all(...params) as T[],
      get: <T>(sql: string, ...params: unknown[]) => db.prepare(sql).get(...params) as T | undefined,
      close: () => db.close(),
    };
  }
  const Database = (await import('better-sqlite3')).default;
  const db = new Database(path, { readonly: true });
  return {
    all: <T>(sql: string, ...params: unknown[]) => db.prepare(sql).all(...params) as T[],
    get: <T>(sql: string, ...params: unknown[]) => db.prepare(sql).get(...params) as T | undefined,
    close: () => db.close(),
  };
}

/** A small seeded generator (mulberry32): the same seed, the same run. */
export { prng as random } from '../../bench/prng.js';

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Open file descriptors of a process (Linux). */
export function openFds(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}

export function sizeOf(path: string): number {
  return statSync(path).size;
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Words that only ever come from inside a program: none may reach a client. */
export const INTERNALS =
  /\n\s+at |\bat [\w.<>]+ \(|node_modules|\/src\/sandbox|\/dist\/|maximum call stack|cannot read propert|is not a function|\bERR_[A-Z_]{3,}/i;

export const ESSAY =
  'School uniforms should be compulsory at our school because they reduce pressure on families, build a sense of belonging and keep the focus on learning. First, a 2019 survey of 300 parents found that most spent less on clothes once uniforms were introduced. However, some argue that uniforms limit self-expression; students can still express themselves through their ideas. In conclusion, the school board should require uniforms.';

export function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}

/** Waits until `condition` holds, checking every 10 ms; fails naming `what` after `timeoutMs`. */
export async function until(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`still waiting after ${timeoutMs} ms for ${what}`);
    await sleep(10);
  }
}

/**
 * One sandbox and one client for a test file: started before its tests, stopped after them, then
 * nothing either wrote (the transcript, the data dir) may hold a key. Read `sb` and `client` in tests.
 */
export function sandboxForFile(
  transcript: Transcript,
  options: { args?: string[]; before?: () => void } = {},
  clientTimeoutMs = 60_000,
): { sb: SandboxProcess; client: Client } {
  const env = {} as { sb: SandboxProcess; client: Client };
  beforeAll(async () => {
    options.before?.();
    env.sb = await startSandbox(transcript, { args: options.args });
    env.client = new Client(transcript, clientTimeoutMs);
  });
  afterAll(async () => {
    await env.client?.close();
    await env.sb?.stop();
    expect(secretsFound(env.sb.keys, transcript, env.sb.dataDir)).toEqual([]);
    removeDir(env.sb.dataDir);
  });
  return env;
}
