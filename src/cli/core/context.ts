// What every command receives: IO, environment, global flags, and lazily built services (config,
// client). Nothing here is created until a command asks for it, so `kct --help` stays cheap.

import { UsageError } from '../../api/errors.js';
import { SANDBOX_PACKAGE, type SandboxPackage } from '../../api/sandbox.js';
import type { KctClient } from '../../client/client.js';
import type { Dispatcher } from '../../client/undici.js';
import { VERSION } from '../../version.js';
import type { TreeCommand } from './command-tree.js';
import type { ConfigStore } from './config-store.js';
import { fromEnv, timeoutsFromEnv } from './environment.js';
import { err, type IO, type NoticeCode, notice } from './io.js';
import { DEFAULT_PROFILE, type ResolvedSettings, resolveSettings, type SettingFlags } from './settings.js';

export interface GlobalOptions {
  profile?: string;
  baseUrl?: string;
  json?: boolean;
  debug?: boolean;
  color?: boolean;
  /** false with --no-pager */
  pager?: boolean;
}

export interface Context {
  io: IO;
  env: NodeJS.ProcessEnv;
  globals: GlobalOptions;
  /** Aborted on Ctrl-C / SIGTERM. */
  signal: AbortSignal;
  /** The words after `kct`, as typed: a hint that says to run the command again gives them all (shell-word.ts `commandAgain`). */
  args: readonly string[];
  /** Every HTTP client a command makes sends through it when set (tests: undici's MockAgent). */
  dispatcher?: Dispatcher;
  /** Loads the sandbox package for `kct sandbox` (the kct-sandbox launcher hands its own in). */
  sandbox(): Promise<SandboxPackage>;
  /** kct's own command tree (`kct completion`), built by main: a command does not import the program it is part of. */
  commands(): Promise<TreeCommand>;
  /** The config file for writing (conf); reading goes through settings(), which loads no conf. */
  config(): Promise<ConfigStore>;
  settings(flags?: SettingFlags): Promise<ResolvedSettings>;
  /**
   * The API client; `apiKey` overrides the configured key (auth login checks a new one), `maxRps`
   * the request budget (--max-rps; else KCT_MAX_RPS, else 20 requests a second).
   */
  client(flags?: SettingFlags, overrides?: { apiKey?: string; maxRps?: number }): Promise<KctClient>;
  /** Tells the user something on stderr: a line for people, a JSON line under --json (io.ts `notice`). */
  notice(code: NoticeCode, message: string, fields?: Record<string, unknown>): void;
  /**
   * @deprecated a line written by hand ("warning: ...", "kct: cost: ..."): err() reads it as a
   * notice by its prefix. Kept for one-pass until it calls notice() itself; every other command does.
   */
  note(text: string): void;
  /** Called once at the end of the process to free sockets and timers. */
  dispose(): Promise<void>;
}

/** What main may hand every client instead of the network (tests: undici's MockAgent), and the sandbox package. */
export interface Services {
  args?: readonly string[];
  dispatcher?: Dispatcher;
  sandbox?: () => Promise<SandboxPackage>;
  commands?: () => Promise<TreeCommand>;
}

export function createContext(
  io: IO,
  env: NodeJS.ProcessEnv,
  globals: GlobalOptions,
  signal: AbortSignal,
  services: Services = {},
): Context {
  let store: Promise<ConfigStore> | undefined;
  const clients: KctClient[] = [];
  // what stderr speaks is decided once, by the global flag, for every line written there
  io.stderrJson = Boolean(globals.json);
  const context: Context = {
    io,
    env,
    globals,
    signal,
    args: services.args ?? [],
    dispatcher: services.dispatcher,
    sandbox: services.sandbox ?? loadSandboxPackage,
    commands: services.commands ?? (() => Promise.reject(new Error('no command tree was handed to this context'))),
    config() {
      store ??= import('./config-store.js').then((m) => m.openConfigStore(env));
      return store;
    },
    async settings(flags = {}) {
      const { readStoredConfig } = await import('./config-store.js');
      const stored = readStoredConfig(env);
      return resolveSettings({ profile: globals.profile, baseUrl: globals.baseUrl, ...flags }, env, stored);
    },
    async client(flags = {}, overrides = {}) {
      const settings = await context.settings(flags);
      const baseUrl = settings.baseUrl.value;
      // a profile chosen and not there is a typo, even when the environment gives a key and a URL
      // (auth login, which brings its own key, is making it)
      if (profileMissing(settings) && overrides.apiKey === undefined) throw missingProfileError(settings);
      if (!baseUrl) {
        throw new UsageError('no API base URL is set', {
          suggestion: 'Run `kct auth login --base-url <url>`, set KCT_BASE_URL, or pass --base-url. For a local API, start `kct sandbox`.',
        });
      }
      const [{ KctClient }, { RequestBudget }] = await Promise.all([import('../../client/client.js'), import('../../client/budget.js')]);
      // a ceiling only: without one the run finds the pace the service allows (client/pace-policy.ts)
      const maxRps = overrides.maxRps ?? fromEnv(env, 'KCT_MAX_RPS');
      const retry = retryFromEnv(env);
      // one knob for every wait after a refusal: the pause without a Retry-After is two base delays
      const pauseMs = retry.baseDelayMs === undefined ? undefined : 2 * retry.baseDelayMs;
      const client = new KctClient({
        baseUrl,
        apiKey: overrides.apiKey ?? (settings.apiKey.value as string),
        budget: new RequestBudget({ maxPerSecond: maxRps, pauseMs }),
        env,
        dispatcher: context.dispatcher,
        retry,
        timeouts: timeoutsFromEnv(env),
        debug: globals.debug ? (line) => err(io, `[debug] ${line}`) : undefined,
        onRetry: ({ attempt, delayMs, reason }) => {
          if (globals.debug) return; // the trace says it
          notice(io, 'retry', `${reason}; retrying in ${Math.round(delayMs / 100) / 10} s (attempt ${attempt})`, {
            attempt,
            delay_ms: delayMs,
          });
        },
      });
      clients.push(client);
      return client;
    },
    notice(code, message, fields) {
      notice(io, code, message, fields);
    },
    note(text) {
      err(io, text);
    },
    async dispose() {
      await Promise.allSettled(clients.map((client) => client.close()));
    },
  };
  return context;
}

/** Whether a profile was chosen (--profile, KCT_PROFILE, the config file's current one) that the config file does not have. */
export function profileMissing(settings: ResolvedSettings): boolean {
  // "default" is the profile kct uses when none is chosen: naming it is never a typo
  return !settings.profileExists && settings.profileSource !== 'default' && settings.profile !== DEFAULT_PROFILE;
}

/** A chosen profile that is not in the config file is most likely a typo: say so, not "no base URL". */
export function missingProfileError(settings: ResolvedSettings): UsageError {
  const source = settings.profileSource === 'config file' ? 'current_profile in the config file' : settings.profileSource;
  const known = settings.knownProfiles.map((name) => `"${name}"`).join(', ');
  const create = `Create it with \`kct auth login --profile ${settings.profile} --base-url <url>\``;
  return new UsageError(
    `the profile "${settings.profile}" (from ${source}) does not exist; ${known ? `the profiles that exist are ${known}` : 'there are no profiles yet'}`,
    {
      suggestion: known ? `${create}, or choose one that exists with --profile or KCT_PROFILE.` : `${create}.`,
    },
  );
}

function retryFromEnv(env: NodeJS.ProcessEnv): { maxRetries?: number; baseDelayMs?: number } {
  // a typo is an error, never ignored: it would silently retry 3 times where the user asked for none
  const maxRetries = fromEnv(env, 'KCT_MAX_RETRIES');
  const baseDelayMs = fromEnv(env, 'KCT_RETRY_BASE_DELAY');
  return { ...(maxRetries === undefined ? {} : { maxRetries }), ...(baseDelayMs === undefined ? {} : { baseDelayMs }) };
}

/**
 * The sandbox package, installed beside kct (both tarballs in one npm install -g) or in the project; kct
 * depends on it only here, at run time, so an install of kct alone carries no server.
 */
async function loadSandboxPackage(): Promise<SandboxPackage> {
  try {
    return (await import(SANDBOX_PACKAGE)) as SandboxPackage;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code !== 'ERR_MODULE_NOT_FOUND' || !String((error as Error).message).includes(SANDBOX_PACKAGE)) throw error;
    // neither package is on the npm registry yet: the command that works is the tarballs' (docs/guides/install.md)
    throw new UsageError(
      `kct sandbox needs the sandbox package, which is not installed beside this kct: in the folder of the tarballs \`npm run pack\` wrote, npm install -g --allow-scripts=better-sqlite3,tesseract.js ./kct-${VERSION}.tgz ./${SANDBOX_PACKAGE}-${VERSION}.tgz (not on the npm registry yet)`,
    );
  }
}
