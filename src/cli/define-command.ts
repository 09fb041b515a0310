// A command's declaration, as Wrangler's createCommand: name, flags (defaults written once),
// examples and the zod schema of its options sit in src/commands/<name>/command.ts; the work sits
// in run.ts, imported only when the command runs (docs/architecture.md, "Adding a command").
import type { z } from 'zod';
import { UsageError } from '../api/errors.js';
import type { Context } from './context.js';

export interface OptionSpec {
  flags: string;
  description: string;
  defaultValue?: string | boolean;
  choices?: string[];
  hidden?: boolean;
  required?: boolean;
  /** May be given several times; the values arrive as an array (e.g. --asset a --asset b). */
  repeatable?: boolean;
}

export interface ArgSpec {
  /** commander argument syntax, e.g. "<taskId>" or "[files...]" */
  syntax: string;
  description: string;
}

interface CommandMeta {
  name: string;
  summary: string;
  args?: ArgSpec[];
  options?: OptionSpec[];
  examples: string[];
  aliases?: string[];
  /** Left out of --help, man pages and completion (internal helpers). */
  hidden?: boolean;
  subcommands?: CommandDeclaration[];
}

/** zod's namespace, handed to a schema when its command runs (zod is not loaded to list commands). */
export type Zod = typeof import('zod').z;
type SchemaBuilder = (zod: Zod) => z.ZodType;

/** What a run.ts exports: `run` takes the options as its command's schema parsed them. */
export interface RunModule<Options> {
  run(options: Options, context: Context): Promise<void>;
}

export interface CommandSpec<Schema extends SchemaBuilder> extends CommandMeta {
  /** The options (global flags, the command's flags, its arguments by name), parsed once before run. */
  schema: Schema;
  load: () => Promise<RunModule<z.infer<ReturnType<Schema>>>>;
}

/** A declaration as the registry (program.ts) holds it, whatever its options' type. */
export interface CommandDeclaration extends CommandMeta {
  schema?: SchemaBuilder;
  load?: () => Promise<RunModule<never>>;
}

export function defineCommand<Schema extends SchemaBuilder>(spec: CommandSpec<Schema>): CommandDeclaration {
  return spec as unknown as CommandDeclaration;
}

/** A group that only holds subcommands (`kct ingest`, `kct auth`, ...). */
export function defineGroup(spec: CommandMeta & { subcommands: CommandDeclaration[] }): CommandDeclaration {
  return spec;
}

/** The name an option or argument arrives under from commander: --poll-interval is pollInterval, --no-wait is wait. */
export function attributeName(flagsOrSyntax: string): string {
  const long = /--(?:no-)?([\w-]+)/.exec(flagsOrSyntax)?.[1] ?? flagsOrSyntax.replace(/[<>[\].]/g, '');
  return long.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
}

/**
 * Parses the options with the command's schema; a bad value is a usage error (exit 2) naming the
 * flag or argument. A check that writes its own message (it names the flag) keeps it as written.
 */
export function parseOptions(declaration: CommandDeclaration, raw: Record<string, unknown>, zod: Zod): unknown {
  if (!declaration.schema) return raw;
  const parsed = declaration.schema(zod).safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  if (issue.code === 'custom') throw new UsageError(issue.message);
  const key = String(issue.path[0] ?? '');
  const option = declaration.options?.find((spec) => attributeName(spec.flags) === key);
  const arg = declaration.args?.find((spec) => attributeName(spec.syntax) === key);
  const name = option ? option.flags.replace(/^-\w, /, '').replace(/ .*$/, '') : arg ? arg.syntax : key;
  throw new UsageError(`invalid value for ${name}: ${issue.message}`, { suggestion: 'Run with --help for usage.' });
}
