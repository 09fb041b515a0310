// Flags that several commands share, declared once each: the output format, watching a task, the
// request budget, signing in to the product (`kct keys`), and kct's global flags. Each command's
// options schema is derived from its flags when it runs (cli/define-command.ts), so zod is not loaded here.
import type { OptionSpec, Zod } from './define-command.js';
import { parsePositiveNumber } from './parse.js';

export const output = () => ({ flags: '-o, --output <format>', description: 'output format', choices: ['table', 'json', 'ndjson', 'csv'] }) as const satisfies OptionSpec;

// durations are checked where they are used (cli/watching.ts), naming the flag or KCT_POLL_INTERVAL
export const watchOptions = [
  { flags: '--timeout <duration>', description: 'how long each task is watched once accepted (e.g. 90s, 30m, 12h)', defaultValue: '30m' },
  { flags: '--poll-interval <duration>', description: 'first polling interval, backing off to 15 s (env KCT_POLL_INTERVAL)' },
] as const satisfies OptionSpec[];

/** The run's request budget (src/client/budget.ts), checked there with its env KCT_MAX_RPS. */
export const maxRps = () =>
  ({ flags: '--max-rps <n>', description: 'at most this many requests a second for the whole run; a 429 or 503 slows it further (default 20, env KCT_MAX_RPS)' }) as const satisfies OptionSpec;

// How `kct keys` signs in to the product (cli/product-session.ts): never a password argument.
export const signInOptions = [
  { flags: '--account <name>', description: 'the account to sign in as (env KCT_ACCOUNT, config `account`)' },
  { flags: '--password-stdin', description: 'read the password from standard input (else KCT_PASSWORD, else asked on a terminal)' },
  { flags: '--product-url <url>', description: 'the product base of the key routes (env KCT_PRODUCT_URL, config `product_url`; default: the base URL without /v1)' },
] as const satisfies OptionSpec[];

/** kct's global flags (program.ts), which every command's options carry. */
export const GLOBAL_OPTIONS = [
  { flags: '-p, --profile <name>', description: 'config profile (env KCT_PROFILE)' },
  { flags: '--base-url <url>', description: 'API root, e.g. https://host/v1 (env KCT_BASE_URL)' },
  { flags: '--json', description: 'print machine-readable JSON on stdout' },
  { flags: '--debug', description: 'trace HTTP requests and responses on stderr (key redacted)' },
  { flags: '--no-color', description: 'no colour (also NO_COLOR)' },
  { flags: '--no-pager', description: 'never page long output (pager: KCT_PAGER, PAGER, else less -FRX)' },
] as const satisfies OptionSpec[];

/** A flag holding a positive number, checked with the same message as before the schema had it. */
export const positiveNumber = (flag: string) => (z: Zod) => z.string().transform((value) => parsePositiveNumber(value, flag));

// Both ingest commands (kct ingest questions|rubrics): where the files come from, the preview they write.
export const assetOption = { flags: '--asset <url>', description: 'a public https URL of a file, or a URL from `kct upload` (repeat for several)', repeatable: true } as const satisfies OptionSpec;
export const previewFileOptions = <const File extends string>(defaultFile: File) => [
  { flags: '-o, --output <file>', description: 'preview file to write: .yaml, .yml or .json', defaultValue: defaultFile },
  { flags: '--force', description: 'replace the output file if it exists' },
] as const satisfies OptionSpec[];
