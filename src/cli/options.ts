// Option groups that several commands share, each with its part of the options schema: the output
// format, watching a task, signing in to the product (`kct keys`), and kct's global flags. The
// schema parts take zod as an argument: it is imported only when a command runs.
import type { OptionSpec, Zod } from './define-command.js';
import { parsePositiveNumber } from './parse.js';

const OUTPUT_CHOICES = ['table', 'json', 'ndjson', 'csv'] as const;

export const output = (description = 'output format'): OptionSpec => ({ flags: '-o, --output <format>', description, choices: [...OUTPUT_CHOICES] });
export const outputShape = (z: Zod) => ({ output: z.enum(OUTPUT_CHOICES).optional() });

export const watchOptions: OptionSpec[] = [
  { flags: '--timeout <duration>', description: 'how long each task is watched once accepted (e.g. 90s, 30m, 12h)', defaultValue: '30m' },
  { flags: '--poll-interval <duration>', description: 'first polling interval, backing off to 15 s (env KCT_POLL_INTERVAL)' },
];
// durations are checked where they are used (cli/watching.ts), naming the flag or KCT_POLL_INTERVAL
export const watchShape = (z: Zod) => ({ timeout: z.string(), pollInterval: z.string().optional() });

/** The run's request budget (src/client/budget.ts), checked there with its env KCT_MAX_RPS. */
export const maxRps = (): OptionSpec => ({ flags: '--max-rps <n>', description: 'at most this many requests a second for the whole run; a 429 or 503 slows it further (default 20, env KCT_MAX_RPS)' });
export const maxRpsShape = (z: Zod) => ({ maxRps: z.string().optional() });

// How `kct keys` signs in to the product (cli/product-session.ts): never a password argument.
export const signInOptions: OptionSpec[] = [
  { flags: '--account <name>', description: 'the account to sign in as (env KCT_ACCOUNT, config `account`)' },
  { flags: '--password-stdin', description: 'read the password from standard input (else KCT_PASSWORD, else asked on a terminal)' },
  { flags: '--product-url <url>', description: 'the product base of the key routes (env KCT_PRODUCT_URL, config `product_url`; default: the base URL without /v1)' },
];
export const signInShape = (z: Zod) => ({ account: z.string().optional(), passwordStdin: z.boolean().optional(), productUrl: z.string().optional() });

/** kct's global flags (program.ts), which every command's options carry. */
export const globalOptions = (z: Zod) => z.object({
  profile: z.string().optional(),
  baseUrl: z.string().optional(),
  json: z.boolean().optional(),
  debug: z.boolean().optional(),
  color: z.boolean().optional(),
  pager: z.boolean().optional(),
});

/** A flag holding a positive number, checked with the same message as before the schema had it. */
export const positiveNumber = (z: Zod, flag: string) => z.string().transform((value) => parsePositiveNumber(value, flag));
