// kct sandbox: run the local implementation of the API until Ctrl-C / SIGTERM.
import { rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { UsageError } from '../../api/errors.js';
import type { GraderOptions } from '../../api/sandbox.js';
import type { Context } from '../../cli/core/context.js';
import type { OptionsOf } from '../../cli/core/define-command.js';
import { fromEnv } from '../../cli/core/environment.js';
import { out } from '../../cli/core/io.js';
import { listenProblem } from '../../cli/core/listen-errors.js';
import { type FolderError, makeFolders } from '../../cli/core/make-folders.js';
import { notInExecutable } from '../../cli/packaging/executable.js';
import type { command } from './command.js';

type Options = OptionsOf<typeof command>;

export function defaultDataDir(env: NodeJS.ProcessEnv): string {
  return fromEnv(env, 'KCT_SANDBOX_DATA') ?? join(env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'kct', 'sandbox');
}

export async function run(options: Options, context: Context): Promise<void> {
  const { port, latency: latencyMs, workers, timeScale, trainingDelay: trainingDelayMs } = options;
  const dataDir = options.data ?? defaultDataDir(context.env);
  const grader = graderOptions(options, context.env);
  const limits = {
    ...(options.threads !== undefined ? { threads: options.threads } : {}),
    jobTimeoutMs: options.jobTimeout,
    requestTimeoutMs: options.requestTimeout,
    headersTimeoutMs: options.headersTimeout,
    idleTimeoutMs: options.idleTimeout,
    maxConnectionsPerClient: options.maxConnections,
    maxConnectionsPerKey: options.maxKeyConnections,
    ...(options.rateLimit !== undefined ? { rateLimit: options.rateLimit } : {}),
    ...(options.publicUrl !== undefined ? { publicUrl: options.publicUrl } : {}),
  };
  checkDataDir(dataDir, options.data !== undefined);
  // Whatever this process creates is its user's alone (the sandbox also creates its files so).
  process.umask(0o077);
  // made 0700 by the umask above
  const made = createDataDir(dataDir, options.data !== undefined);
  const host = options.host;
  const { startSandbox } = await context.sandbox().catch(notInExecutable('kct sandbox'));
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
      ...(grader ? { grader } : {}),
      ...limits,
      // Keys never appear in it (redacted by the sandbox); stderr keeps stdout for the --json line.
      ...(options.log ? { log: (line: string) => context.io.stderr.write(`${line}\n`) } : {}),
    });
  } catch (error) {
    // a folder this run made holds only the keys and accounts it just seeded, never shown: removed, not left half-made
    if (made.length > 0) rmSync(made[0], { recursive: true, force: true });
    throw startError(error, host, port, dataDir);
  }
  // SIGTERM or Ctrl-C while it was starting: stop now, announcing nothing
  if (context.signal.aborted) {
    await sandbox.close();
    return;
  }
  // every interface, and no --public-url: the URLs it gives out (its base, uploads) name an address no other machine can use
  const announced = new URL(sandbox.productUrl);
  if (announced.hostname === '0.0.0.0' || announced.hostname === '[::]')
    context.notice(
      'warning',
      `listening on every interface (${announced.hostname}), and the URLs the sandbox gives out name ${announced.hostname}, which other machines cannot use: pass --public-url http://<this machine's name or address>:${announced.port}`,
    );
  // Where marking happens, never the grader's key: only whether one was given.
  const marking = grader
    ? { engine: 'openai', url: grader.url, model: grader.model, api_key_set: grader.apiKey !== undefined }
    : { engine: 'sandbox' };
  if (options.json) {
    out(
      context.io,
      JSON.stringify({
        base_url: sandbox.baseUrl,
        keys: sandbox.keys,
        revoked_keys: sandbox.revokedKeys,
        product_url: sandbox.productUrl,
        listen_url: sandbox.listenUrl,
        passwords: sandbox.passwords,
        webhook_secret: sandbox.webhookSecret,
        data_dir: dataDir,
        grader: marking,
      }),
    );
  } else {
    // behind --public-url, where it listens and where others reach it differ: the Try line uses the latter
    const where =
      sandbox.listenUrl === sandbox.productUrl
        ? sandbox.baseUrl
        : `${sandbox.listenUrl}${new URL(sandbox.baseUrl).pathname}, reached at ${sandbox.baseUrl}`;
    out(context.io, `kct sandbox listening at ${where} (data in ${dataDir})`);
    out(context.io, 'Keys (sandbox only, never valid on the real service):');
    const revoked = new Set<string>(sandbox.revokedKeys);
    for (const [name, key] of Object.entries(sandbox.keys))
      out(context.io, `  ${name.padEnd(13)} ${key}${revoked.has(name) ? '  (revoked)' : ''}`);
    out(context.io, `Accounts, to manage keys with kct keys (product base ${sandbox.productUrl}):`);
    for (const [name, password] of Object.entries(sandbox.passwords)) out(context.io, `  ${name.padEnd(13)} password ${password}`);
    out(context.io, `Batch callbacks are signed with: ${sandbox.webhookSecret}`);
    out(
      context.io,
      grader
        ? `Marking with the model "${grader.model}" at ${grader.url} (key from KCT_GRADER_API_KEY: ${grader.apiKey ? 'set' : 'none'}); the deterministic grader is not used.`
        : 'Marking with the deterministic sandbox grader (--grader openai marks through your own language-model server).',
    );
    if (options.rateLimit !== undefined)
      out(context.io, `Rate limit: ${options.rateLimit} requests a second per key (past it: 429 with Retry-After).`);
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

/** Creates the data folder (make-folders.ts: one level at a time): the folders made; one that cannot be made is a usage error. */
function createDataDir(dataDir: string, given: boolean): string[] {
  try {
    return makeFolders(dataDir);
  } catch (error) {
    const { code, folder } = error as FolderError;
    throw new UsageError(
      `cannot use ${dataDir} as the sandbox data folder: it cannot be created (${folder === resolve(dataDir) ? '' : `making ${folder}: `}${code ?? String(error)})`,
      {
        suggestion: given
          ? 'Give --data a folder you can write to (it is created if missing).'
          : 'Set --data to a folder you can write to.',
      },
    );
  }
}

/** The errors a person can fix (port taken, folder not writable), as usage errors; anything else as it is. */
function startError(error: unknown, host: string, port: number, dataDir: string): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  // no usable SQLite driver (KCT_SQLITE_DRIVER, or better-sqlite3 missing on Node 20)
  if (code === 'ERR_KCT_SQLITE_UNAVAILABLE')
    return new UsageError((error as Error).message, { suggestion: (error as { suggestion?: string }).suggestion });
  const listening = listenProblem(error, host, port);
  if (listening !== error) return listening;
  if (code === 'EACCES' || code === 'EROFS' || code === 'ENOTDIR') {
    return new UsageError(`cannot use ${dataDir} as the sandbox data folder (${code})`, {
      suggestion: 'Pick a folder you can write to with --data.',
    });
  }
  return error;
}

/**
 * The language-model engine asked for with --grader openai, checked before anything starts. The
 * key comes only from KCT_GRADER_API_KEY (never a flag: flags end up in shell history and process lists).
 */
function graderOptions(options: Options, env: NodeJS.ProcessEnv): GraderOptions | undefined {
  const engine = options.grader;
  if (engine !== 'sandbox' && engine !== 'openai') {
    throw new UsageError(`--grader must be "sandbox" or "openai", not "${engine}"`, {
      suggestion: 'Leave it out for the deterministic grader, or use --grader openai --grader-url URL --grader-model NAME.',
    });
  }
  if (engine === 'sandbox') {
    const stray = (
      [
        ['--grader-url', options.graderUrl],
        ['--grader-model', options.graderModel],
      ] as const
    ).find(([, v]) => v !== undefined);
    if (stray)
      throw new UsageError(`${stray[0]} only applies with --grader openai`, {
        suggestion: 'Add --grader openai to mark through a language-model server.',
      });
    return undefined;
  }
  const example = 'For example: kct sandbox --grader openai --grader-url http://127.0.0.1:11434/v1 --grader-model llama3.1:8b';
  if (!options.graderUrl)
    throw new UsageError('--grader openai needs --grader-url, the base URL of an OpenAI-compatible API', { suggestion: example });
  if (!options.graderModel)
    throw new UsageError('--grader openai needs --grader-model, the name of a model the server has', { suggestion: example });
  let url: URL;
  try {
    url = new URL(options.graderUrl);
  } catch {
    throw new UsageError(`--grader-url "${options.graderUrl}" is not a URL`, { suggestion: example });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--grader-url must be an http or https URL, not ${url.protocol}`, { suggestion: example });
  if (url.username || url.password) {
    throw new UsageError('--grader-url must not carry credentials', {
      suggestion: 'Put the key in the KCT_GRADER_API_KEY environment variable instead.',
    });
  }
  const key = fromEnv(env, 'KCT_GRADER_API_KEY')?.trim();
  return {
    kind: 'openai',
    url: url.href.replace(/\/+$/, ''),
    model: options.graderModel,
    ...(key ? { apiKey: key } : {}),
    timeoutMs: options.graderTimeout,
    concurrency: options.graderConcurrency,
  };
}
