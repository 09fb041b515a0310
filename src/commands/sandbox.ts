// kct sandbox: run the local implementation of the API until Ctrl-C / SIGTERM.
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import type { Context } from '../cli/context.js';
import { out } from '../cli/io.js';
import { parseDuration } from '../cli/duration.js';
import { parsePositiveInteger, parsePositiveNumber } from '../cli/parse.js';
import { UsageError } from '../api/errors.js';

export interface SandboxCommandOptions {
  host?: string;
  port?: string;
  data?: string;
  latency?: string;
  workers?: string;
  allowPrivateCallbacks?: boolean;
  timeScale?: string;
  trainingDelay?: string;
  publicUrl?: string;
  threads?: string;
  jobTimeout?: string;
  requestTimeout?: string;
  headersTimeout?: string;
  idleTimeout?: string;
  maxConnections?: string;
  log?: boolean;
  json?: boolean;
}

export function defaultDataDir(env: NodeJS.ProcessEnv): string {
  return env.KCT_SANDBOX_DATA || join(env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'kct', 'sandbox');
}

export async function run(options: SandboxCommandOptions, context: Context): Promise<void> {
  const port = parsePort(options.port ?? '4010');
  const latencyMs = options.latency === undefined ? 300 : parseNonNegative(options.latency, '--latency');
  const workers = parsePositiveInteger(options.workers ?? '4', '--workers');
  const timeScale = parsePositiveNumber(options.timeScale ?? '1', '--time-scale');
  const trainingDelayMs = options.trainingDelay === undefined ? 0 : parseNonNegative(options.trainingDelay, '--training-delay');
  const dataDir = options.data ?? defaultDataDir(context.env);
  const limits = {
    ...(options.threads !== undefined ? { threads: parsePositiveInteger(options.threads, '--threads') } : {}),
    jobTimeoutMs: parseDuration(options.jobTimeout ?? '180s', '--job-timeout'),
    requestTimeoutMs: parseDuration(options.requestTimeout ?? '60s', '--request-timeout'),
    headersTimeoutMs: parseDuration(options.headersTimeout ?? '10s', '--headers-timeout'),
    idleTimeoutMs: parseDuration(options.idleTimeout ?? '10s', '--idle-timeout'),
    maxConnectionsPerClient: parsePositiveInteger(options.maxConnections ?? '64', '--max-connections'),
    ...(options.publicUrl !== undefined ? { publicUrl: parsePublicUrl(options.publicUrl) } : {}),
  };
  // bin/kct.js keeps V8's young generation small for client commands; a server under load
  // wants V8's default growth (fewer collections, less promoted by them).
  setFlagsFromString('--semi-space-growth-factor=2');
  checkDataDir(dataDir, options.data !== undefined);
  // Whatever this process creates is its user's alone (the sandbox also creates its files so).
  process.umask(0o077);
  const host = options.host ?? '127.0.0.1';
  const { startSandbox } = await import('../sandbox/server.js');
  let sandbox;
  try {
    sandbox = await startSandbox({
      host,
      port,
      dataDir,
      latencyMs,
      workers,
      allowPrivateCallbacks: Boolean(options.allowPrivateCallbacks),
      timeScale,
      trainingDelayMs,
      ...limits,
      // Keys never appear in it (redacted by the sandbox); stderr keeps stdout for the --json line.
      ...(options.log ? { log: (line: string) => context.io.stderr.write(`${line}\n`) } : {}),
    });
  } catch (error) {
    throw startError(error, host, port, dataDir);
  }
  if (options.json) {
    out(context.io, JSON.stringify({ base_url: sandbox.baseUrl, keys: sandbox.keys, webhook_secret: sandbox.webhookSecret, data_dir: dataDir }));
  } else {
    out(context.io, `kct sandbox listening at ${sandbox.baseUrl} (data in ${dataDir})`);
    out(context.io, 'Keys (sandbox only, never valid on the real service):');
    for (const [name, key] of Object.entries(sandbox.keys)) out(context.io, `  ${name.padEnd(13)} ${key}`);
    out(context.io, `Batch callbacks are signed with: ${sandbox.webhookSecret}`);
    out(context.io, `Try: KCT_BASE_URL=${sandbox.baseUrl} KCT_API_KEY=${sandbox.keys.user} kct models`);
    out(context.io, 'Stop with Ctrl-C.');
  }
  await new Promise<void>((resolve) => {
    if (context.signal.aborted) resolve();
    else context.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await sandbox.close();
  if (!options.json) context.note('kct sandbox stopped.');
}

/** A --data that cannot be the sandbox's folder, told before anything is opened. */
function checkDataDir(dataDir: string, given: boolean): void {
  let info;
  try {
    info = statSync(dataDir);
  } catch {
    return; // created at start; a failure there is reported by startError
  }
  if (!info.isDirectory()) {
    throw new UsageError(`${given ? '--data ' : 'the sandbox data folder '}${dataDir} is a file, not a folder`, {
      suggestion: 'Give --data a folder (it is created if missing).',
    });
  }
}

/** The errors a person can fix (port taken, folder not writable), as usage errors; anything else as it is. */
function startError(error: unknown, host: string, port: number, dataDir: string): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === 'EADDRINUSE') return new UsageError(`port ${port} on ${host} is already in use`, { suggestion: 'Stop what uses it, or pick another with --port (--port 0 takes any free port).' });
  if (code === 'EADDRNOTAVAIL') return new UsageError(`cannot listen on ${host}: no such address on this machine`, { suggestion: 'Use --host 127.0.0.1, or an address of this machine.' });
  if (code === 'EACCES' && (error as { syscall?: string }).syscall === 'listen') return new UsageError(`not allowed to listen on port ${port}`, { suggestion: 'Use a port above 1023, or --port 0.' });
  if (code === 'EACCES' || code === 'EROFS' || code === 'ENOTDIR') {
    return new UsageError(`cannot use ${dataDir} as the sandbox data folder (${code})`, { suggestion: 'Pick a folder you can write to with --data.' });
  }
  return error;
}

function parsePort(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65535) throw new UsageError(`--port must be 0 to 65535, not "${value}"`);
  return Number(value);
}

/** An http(s) origin: what upload URLs start with. */
function parsePublicUrl(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.username || url.password || url.search || url.hash || url.pathname !== '/') {
    throw new UsageError(`--public-url must be an http(s) origin such as https://sandbox.school.example, not "${value}"`, { suggestion: 'Give the scheme, host and port clients use to reach this sandbox, without a path.' });
  }
  return url.origin;
}

function parseNonNegative(value: string, what: string): number {
  if (!/^\d+$/.test(value)) throw new UsageError(`${what} must be a whole number of milliseconds, not "${value}"`);
  return Number(value);
}
