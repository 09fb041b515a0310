// Flags that several commands share, declared once each and spread into a command's `options`: the
// output format, watching a task, the request budget, signing in to the product (`kct keys`), and kct's
// global flags. Each command's options schema is derived from its flags when it runs (cli/core/define-command.ts), so zod is not loaded here.

import { OUTPUT_FORMATS } from '../render/format.js';
import type { OptionSpecs } from './define-command.js';
import { parseDuration } from './duration.js';
import { checked, outputAsFile, parseMaxRps } from './parse.js';

export const output = () =>
  ({
    '-o, --output <format>': { description: 'output format', choices: OUTPUT_FORMATS },
  }) as const satisfies OptionSpecs;

// durations are checked where they are used (cli/core/watch.ts), naming the flag or KCT_POLL_INTERVAL
export const watchOptions = {
  '--timeout <duration>': {
    description: 'how long each task is watched once accepted (e.g. 90s, 30m, 12h)',
    defaultValue: '30m',
    check: checked(parseDuration, '--timeout'),
  },
  // an empty value is none: KCT_POLL_INTERVAL, else the spec's 3 s
  '--poll-interval <duration>': {
    description: 'first polling interval, backing off to 15 s (env KCT_POLL_INTERVAL)',
    check: checked((value, flag) => (value === '' ? undefined : parseDuration(value, flag)), '--poll-interval', { parsesEmpty: true }),
  },
} as const satisfies OptionSpecs;

/** The run's request budget (src/client/budget.ts); KCT_MAX_RPS is read by cli/core/environment.ts. */
export const maxRps = () =>
  ({
    '--max-rps <n>': {
      description:
        'requests a second for the whole run, at most; a 429 or 503 slows it (default: none: kct starts at 10 and finds the pace the service allows; env KCT_MAX_RPS)',
      check: checked(parseMaxRps, '--max-rps'),
    },
  }) as const satisfies OptionSpecs;

/** Identical answers of one run (one identity, src/client/identity.ts) are marked once unless this is given. */
export const markCopies = (what: string) =>
  ({
    '--mark-copies': `${what}, each sent and charged, an earlier run's mark of that content not reused (by default the same content is marked once and charged once)`,
  }) as const satisfies OptionSpecs;

// How `kct keys` signs in to the product (commands/keys/product-session.ts): never a password argument.
export const signInOptions = {
  '--account <name>': 'the account to sign in as (env KCT_ACCOUNT, config `account`)',
  '--password-stdin': 'read the password from standard input (else KCT_PASSWORD, else asked on a terminal)',
  '--product-url <url>':
    'the product base of the key routes (env KCT_PRODUCT_URL, config `product_url`; default: the base URL without /v1)',
} as const satisfies OptionSpecs;

// The servers kct starts (kct sandbox, kct callbacks listen) answer on loopback unless told otherwise.
export const hostOption = {
  '--host <host>': { description: 'address to listen on', defaultValue: '127.0.0.1' },
} as const satisfies OptionSpecs;

/** kct's global flags (program.ts), which every command's options carry. */
export const GLOBAL_OPTIONS = {
  '-p, --profile <name>': 'config profile (env KCT_PROFILE)',
  '--base-url <url>': 'API root, e.g. https://host/v1 (env KCT_BASE_URL)',
  '--json': 'print machine-readable JSON on stdout',
  '--debug': 'trace HTTP requests and responses on stderr (key redacted)',
  '--no-color': 'no colour (also NO_COLOR)',
  '--no-pager': 'never page long output (pager: KCT_PAGER, PAGER, else less -FRX)',
} as const satisfies OptionSpecs;

// Both ingest commands (kct ingest questions|rubrics): where the files come from, the preview they write.
export const assetOption = {
  '--asset <url>': { description: 'a public https URL of a file, or a URL from `kct upload` (repeat for several)', repeatable: true },
} as const satisfies OptionSpecs;
export const previewFileOptions = <const File extends string>(defaultFile: File) =>
  ({
    '--out <file>': { description: 'preview file to write: .yaml, .yml or .json', defaultValue: defaultFile },
    ...deprecatedOutputFile(),
    '--force': 'replace the preview file if it exists',
  }) as const satisfies OptionSpecs;

/**
 * -o/--output named the file these commands write before it meant a format everywhere: still
 * taken, hidden, as the file, with a note (`kct report`, `kct ingest`); a format name is refused.
 */
export const deprecatedOutputFile = () =>
  ({
    '-o, --output <file>': {
      description: 'deprecated: the file to write (use --out)',
      hidden: true,
      check: checked(outputAsFile, '--output'),
    },
  }) as const satisfies OptionSpecs;
