// Which format a command prints in: the one rule every command follows (docs/guides/configuration-and-keys.md,
// "Output formats"). It imports nothing of the CLI, so the flag's declaration (cli/core/options.ts) reads the list here.
import { UsageError } from '../../api/errors.js';

export const OUTPUT_FORMATS = ['table', 'json', 'ndjson', 'csv'] as const;

export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/**
 * --json, else --output, else the configured format (KCT_OUTPUT or `kct config set output`),
 * else a table. --json with another --output, or a configured value that is not a format, is an
 * error, not a silent choice.
 */
export function resolveFormat(
  options: { output?: unknown; json?: unknown },
  configured?: { value?: string; source?: string },
): OutputFormat {
  if (options.json && typeof options.output === 'string' && options.output !== 'json') {
    // two formats asked for at once is a mistake in a script: refused, never one silently chosen
    throw new UsageError(`--json and --output ${options.output} ask for two formats`, {
      suggestion: `Give one: --json (the same as --output json), or --output ${options.output}.`,
    });
  }
  if (options.json) return 'json';
  if (typeof options.output === 'string') return options.output as OutputFormat; // commander checked the choice
  const value = configured?.value;
  if (value === undefined) return 'table';
  if (!(OUTPUT_FORMATS as readonly string[]).includes(value)) {
    throw new UsageError(
      `output format "${value}" from ${configured?.source ?? 'the configuration'} is not one of ${OUTPUT_FORMATS.join(', ')}`,
      { suggestion: `Set it to one of them, or unset it (\`kct config unset output\`, or KCT_OUTPUT); --output picks one for a command.` },
    );
  }
  return value as OutputFormat;
}
