// A command's declaration, as Wrangler's createCommand. Each src/commands/<name>/command.ts is one:
// its name, flags (each declared once, with its kind and default), arguments and examples, from which
// its options are typed (OptionsOf, in its run.ts) and checked; its run.ts, loaded only when it runs,
// does the work (docs/architecture.md, "Adding a command").

import { UsageError } from '../../api/errors.js';
import type * as z from '../../api/zod.js';
import { GLOBAL_OPTIONS } from './options.js';
import { EMPTY } from './parse.js';

/**
 * One flag, keyed by its commander syntax in a declaration's `options` (`'-m, --model <id>'`): its
 * description alone, or its description with more. Its kind follows from what is declared: no value
 * (`--raw`, `--no-wait`) is a boolean, `choices` a choice of those literals, `repeatable` or `<x...>`
 * a list of strings, else a string; `check` replaces the value's schema (`checked(parsePositiveNumber, '--total-score')`, cli/core/parse.ts). It may
 * be left out unless it is `required`, has a `defaultValue` or is a `--no-` flag (commander then always sends it).
 */
type OptionSpec = string | OptionDetail;

export interface OptionDetail {
  readonly description: string;
  readonly defaultValue?: string | boolean;
  readonly choices?: readonly string[];
  readonly hidden?: boolean;
  readonly required?: boolean;
  /** May be given several times; the values arrive as an array (e.g. --asset a --asset b). */
  readonly repeatable?: boolean;
  /** The value's own schema, built when the command runs: its message, if it names the flag, is kept. */
  readonly check?: (zod: Zod) => z.ZodType;
  /** The hint when the value is empty (refused as an unset shell variable), e.g. `For example --report class.html.` */
  readonly whenEmpty?: string;
}

/** Flags by commander syntax, in the order --help lists them (no key looks like an integer, so insertion order holds). */
export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

/** Arguments by commander syntax, e.g. `'<taskId>': 'task id'` or `'[files...]'`: <> required, [] optional, ... a list. */
export type ArgSpecs = Readonly<Record<string, string>>;

/** A declaration's flags as [syntax, detail] pairs, in --help order. */
export function optionEntries(options: OptionSpecs = {}): [string, OptionDetail][] {
  return Object.entries(options).map(([flags, spec]) => [flags, typeof spec === 'string' ? { description: spec } : spec]);
}

interface CommandMeta {
  name: string;
  summary: string;
  examples: string[];
  aliases?: string[];
  /** Left out of --help, man pages and completion (internal helpers). */
  hidden?: boolean;
  subcommands?: CommandDeclaration[];
}

/** zod's namespace, handed to a schema when its command runs (zod is not loaded to list commands). */
export type Zod = typeof import('../../api/zod.js');

/**
 * What a run.ts exports: `run(options: Options, context: Context)`, Options being OptionsOf its command. The
 * loader is checked for a `run` only: checking its options too would make the two types cycle.
 */
export interface RunModule {
  run: (...args: never[]) => unknown;
}

/** A declaration as the registry (program.ts) holds it, whatever its options' type. */
export interface CommandDeclaration extends CommandMeta {
  args?: ArgSpecs;
  options?: OptionSpecs;
  load?: () => Promise<RunModule>;
}

/** A runnable command's declaration, its flags and arguments kept as written for OptionsOf. */
export interface TypedDeclaration<O extends OptionSpecs, A extends ArgSpecs> extends CommandDeclaration {
  args?: A;
  options?: O;
  load: () => Promise<RunModule>;
}

/** No flags, or no arguments. */
type None = Record<never, never>;

export function defineCommand<const O extends OptionSpecs = None, const A extends ArgSpecs = None>(
  spec: CommandMeta & { args?: A; options?: O; load: () => Promise<RunModule> },
): TypedDeclaration<O, A> {
  return spec;
}

/** A group that only holds subcommands (`kct ingest`, `kct auth`, ...). */
export function defineGroup(spec: CommandMeta & { subcommands: CommandDeclaration[] }): CommandDeclaration {
  return spec;
}

// The attribute names and value types commander hands over, computed from the flags as written.
type Camel<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;
type FirstWord<S extends string> = S extends `${infer Word} ${string}` ? Word : S;
type OptionName<F extends string> = F extends `${string}--no-${infer Rest}`
  ? Camel<FirstWord<Rest>>
  : F extends `${string}--${infer Rest}`
    ? Camel<FirstWord<Rest>>
    : never;
type Unlisted<S extends string> = S extends `${infer Name}...` ? Name : S;
type ArgName<S extends string> = S extends `<${infer Name}>` | `[${infer Name}]` ? Camel<Unlisted<Name>> : never;

type OptionValue<F extends string, S> = S extends { check: (zod: Zod) => infer T extends z.ZodType }
  ? z.output<T>
  : S extends { choices: readonly (infer C)[] }
    ? C
    : S extends { repeatable: true }
      ? string[]
      : F extends `${string}...${string}`
        ? string[]
        : F extends `${string}<${string}` | `${string}[${string}`
          ? string
          : boolean;
type AlwaysSent<F extends string, S> = S extends { required: true } | { defaultValue: string | boolean }
  ? true
  : F extends `${string}--no-${string}`
    ? true
    : false;
type ArgValue<S extends string> = S extends `${string}...${string}` ? string[] : string;

type OptionValues<O> = { [F in keyof O & string as AlwaysSent<F, O[F]> extends true ? OptionName<F> : never]: OptionValue<F, O[F]> } & {
  [F in keyof O & string as AlwaysSent<F, O[F]> extends true ? never : OptionName<F>]?: OptionValue<F, O[F]>;
};
type ArgValues<A> = { [S in keyof A & string as S extends `<${string}` ? ArgName<S> : never]: ArgValue<S> } & {
  [S in keyof A & string as S extends `<${string}` ? never : ArgName<S>]?: ArgValue<S>;
};
type Flatten<T> = { [K in keyof T]: T[K] };

/** The values of a command's repeatable flags as [option name, value], in the order given across flags. */
type InOrder = { repeatedInOrder?: [string, string][] };

/** The options a command's run receives: kct's global flags, the command's flags and its arguments by name. */
export type OptionsOf<D> =
  D extends TypedDeclaration<infer O, infer A>
    ? Flatten<OptionValues<typeof GLOBAL_OPTIONS> & OptionValues<O> & ArgValues<A> & InOrder>
    : never;

/** The name an option or argument arrives under from commander: --poll-interval is pollInterval, --no-wait is wait. */
export function attributeName(flagsOrSyntax: string): string {
  const long = /--(?:no-)?([\w-]+)/.exec(flagsOrSyntax)?.[1] ?? flagsOrSyntax.replace(/[<>[\].]/g, '');
  return long.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
}

function optionSchema(flags: string, option: OptionDetail, zod: Zod): z.ZodType {
  const value = option.check
    ? option.check(zod)
    : option.choices
      ? zod.enum(option.choices as [string, ...string[]])
      : option.repeatable || flags.includes('...')
        ? zod.array(zod.string().regex(/\S/, EMPTY))
        : /[<[]/.test(flags)
          ? zod.string().regex(/\S/, EMPTY)
          : zod.boolean();
  const alwaysSent = option.required || option.defaultValue !== undefined || flags.includes('--no-');
  return alwaysSent ? value : value.optional();
}

function argSchema(syntax: string, zod: Zod): z.ZodType {
  if (syntax.includes('...')) return syntax.startsWith('<') ? zod.array(zod.string()) : zod.array(zod.string()).optional();
  return syntax.startsWith('<') ? zod.string().regex(/\S/, EMPTY) : zod.string().optional();
}

/** The options schema of a declaration: the global flags, its arguments and its flags, in that order. */
export function optionsSchema(declaration: CommandDeclaration, zod: Zod): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const [flags, option] of optionEntries(GLOBAL_OPTIONS)) shape[attributeName(flags)] = optionSchema(flags, option, zod);
  for (const syntax of Object.keys(declaration.args ?? {})) shape[attributeName(syntax)] = argSchema(syntax, zod);
  for (const [flags, option] of optionEntries(declaration.options)) shape[attributeName(flags)] = optionSchema(flags, option, zod);
  shape.repeatedInOrder = zod.array(zod.array(zod.string())).optional();
  return zod.object(shape);
}

/**
 * Parses the options with the command's derived schema; a bad value is a usage error (exit 2)
 * naming the flag or argument. A check that writes its own message (it names the flag) keeps it.
 */
export function parseOptions(declaration: CommandDeclaration, raw: Record<string, unknown>, zod: Zod): unknown {
  // parsed once a process: zod's compiled fast path would cost more to build than it saves
  const parsed = optionsSchema(declaration, zod).safeParse(raw, { jitless: true });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  if (issue.code === 'custom') throw new UsageError(issue.message);
  const key = String(issue.path[0] ?? '');
  const flags = Object.keys({ ...GLOBAL_OPTIONS, ...declaration.options }).find((syntax) => attributeName(syntax) === key);
  const arg = Object.keys(declaration.args ?? {}).find((syntax) => attributeName(syntax) === key);
  const name = flags ? flags.replace(/^-\w, /, '').replace(/ .*$/, '') : (arg ?? key);
  const whenEmpty =
    issue.message === EMPTY && flags
      ? optionEntries({ ...GLOBAL_OPTIONS, ...declaration.options }).find(([f]) => f === flags)?.[1].whenEmpty
      : undefined;
  throw new UsageError(`invalid value for ${name}: ${issue.message}`, { suggestion: whenEmpty ?? 'Run with --help for usage.' });
}
