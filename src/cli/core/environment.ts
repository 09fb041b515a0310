// Every KCT_* variable kct reads, declared once with what it means, and the one reader of them.
// A value is checked where it is read here, and a bad one is a usage error (exit 2) that names
// the variable and what to do. kct(1), docs/guides/configuration-and-keys.md and `kct help environment` list this
// table; test/unit/environment.test.ts keeps the docs and the code in step. The client library
// reads no variable: the CLI passes it plain options.
import { UsageError } from '../../api/errors.js';
import { parseDuration } from './duration.js';

type Kind = 'text' | 'secret' | 'path' | 'duration' | 'count' | 'count0';

export interface Variable {
  kind: Kind;
  /** What it does, in one line (the docs' table and the man page). */
  help: string;
  /** Who reads it, when only some commands do. */
  for?: string;
}

export const VARIABLES = {
  KCT_API_KEY: { kind: 'secret', help: 'the API key (never pass it as an argument); takes precedence over the stored one' },
  KCT_BASE_URL: { kind: 'text', help: 'the API root, e.g. https://host/v1' },
  KCT_PROFILE: { kind: 'text', help: 'the config profile to use' },
  KCT_MODEL: { kind: 'text', help: 'the default model id' },
  KCT_OUTPUT: { kind: 'text', help: 'the default output format: table, json, ndjson or csv' },
  KCT_CONFIG_DIR: { kind: 'path', help: 'the folder of config.json (default $XDG_CONFIG_HOME/kct)' },
  KCT_STATE_DIR: {
    kind: 'path',
    help: 'the folder of the ledger of what was sent (default: state/ in KCT_CONFIG_DIR when that is set, else $XDG_STATE_HOME/kct)',
  },
  KCT_POLL_INTERVAL: { kind: 'duration', help: 'the first polling interval, e.g. 500ms (default 3s)' },
  KCT_MAX_RPS: {
    kind: 'count',
    help: 'requests a second a run may start, at most (default: none: kct starts at 10 and finds the pace the service allows)',
  },
  KCT_MAX_RETRIES: { kind: 'count0', help: 'retries of a failed request (0 turns them off; default 3)' },
  KCT_RETRY_BASE_DELAY: { kind: 'duration', help: 'the first pause before a retry, doubled each time (default 500ms)' },
  KCT_REQUEST_TIMEOUT: {
    kind: 'duration',
    help: 'how long a request waits for the server to start answering, and then between parts of its answer, before it is tried again (default 120s)',
  },
  KCT_MAX_PENDING: { kind: 'count', help: "a waiting run's tasks unfinished at once, at most (default 10000)", for: 'one-pass' },
  KCT_BATCH_FROM: {
    kind: 'count',
    help: 'plain-text answers from which --via auto sends batches with --resume (default 500)',
    for: 'one-pass',
  },
  KCT_PAGER: { kind: 'text', help: 'the pager for long output on a terminal (else PAGER, else less -FRX; "" or cat: none)' },
  KCT_ACCOUNT: { kind: 'text', help: 'the product account kct keys signs in with', for: 'keys' },
  KCT_PRODUCT_URL: { kind: 'text', help: 'the product base of the key routes, when it is not the base URL without /v1', for: 'keys' },
  KCT_PASSWORD: { kind: 'secret', help: 'the password of that account, for CI secrets (never an argument)', for: 'keys' },
  KCT_WEBHOOK_SECRET: { kind: 'secret', help: 'the secret batch callbacks are signed with', for: 'callbacks verify, callbacks listen' },
  KCT_SANDBOX_DATA: { kind: 'path', help: "the sandbox's data folder (default $XDG_DATA_HOME/kct/sandbox)", for: 'sandbox' },
  KCT_GRADER_API_KEY: { kind: 'secret', help: 'the key of the OpenAI-compatible server of --grader-url, sent only there', for: 'sandbox' },
  KCT_NO_HELP_CACHE: { kind: 'text', help: "any value: --help is rendered from the command tree instead of the build's cache" },
} as const satisfies Record<string, Variable>;

export type VariableName = keyof typeof VARIABLES;

/** Variables kct reads that are not its own (conventions it follows). */
export const OTHER_VARIABLES: readonly [string, string][] = [
  ['PAGER', 'the pager, when KCT_PAGER is not set (not on a dumb terminal: TERM=dumb or unset)'],
  ['NO_COLOR', 'no colour'],
  ['COLUMNS', 'the width tables fit, on a terminal or not (a whole number of 20 or more)'],
  ['CI', 'never prompt'],
  ['HTTPS_PROXY, HTTP_PROXY, NO_PROXY', 'proxy settings'],
  ['XDG_CONFIG_HOME, XDG_STATE_HOME, XDG_DATA_HOME', "where the config, the state and the sandbox's data go by default"],
];

type Value<K extends Kind> = K extends 'duration' | 'count' | 'count0' ? number : string;

/** A variable's value, checked; undefined when unset or empty (a blank line in a CI file unsets it). */
export function fromEnv<N extends VariableName>(env: NodeJS.ProcessEnv, name: N): Value<(typeof VARIABLES)[N]['kind']> | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const { kind } = VARIABLES[name] as Variable;
  const value = kind === 'secret' || kind === 'text' ? raw : raw.trim();
  if (kind === 'duration') return parseDuration(value, name) as never;
  if (kind === 'count' || kind === 'count0') {
    const least = kind === 'count' ? 1 : 0;
    if (!/^\d+$/.test(value) || Number(value) < least) {
      throw new UsageError(`${name} must be a whole number, ${least} or more, not "${raw}"`, {
        suggestion: `It sets ${VARIABLES[name].help}. Fix the value, or unset ${name}.`,
      });
    }
    // past 2^53 a number is rounded (parse.ts refuses it the same way)
    if (!Number.isSafeInteger(Number(value)))
      throw new UsageError(`${name} ${value} is too large: a whole number kct can read exactly is at most ${Number.MAX_SAFE_INTEGER}`, {
        suggestion: `It sets ${VARIABLES[name].help}. Fix the value, or unset ${name}.`,
      });
    return Number(value) as never;
  }
  return value as never;
}

/** A variable's raw value, set or not (an empty KCT_PAGER means "no pager"); for what "unset" and "empty" tell apart. */
export function rawEnv(env: NodeJS.ProcessEnv, name: VariableName): string | undefined {
  return env[name];
}

/**
 * The request time-outs KCT_REQUEST_TIMEOUT sets, for every client a command makes (the API's, the
 * probe's, the product's): a CI smoke check against a server that takes the request and says
 * nothing need not wait 2 minutes an attempt.
 */
export function timeoutsFromEnv(env: NodeJS.ProcessEnv): { headersMs: number; bodyMs: number } | undefined {
  const ms = fromEnv(env, 'KCT_REQUEST_TIMEOUT');
  return ms === undefined ? undefined : { headersMs: ms, bodyMs: ms };
}
