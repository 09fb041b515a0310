// The command tree as plain data, read from the commander program: one source for the man pages
// (scripts/build-man.js) and the shell completion scripts, so neither can drift from --help.
import type { Command, Option } from 'commander';

export interface TreeOption {
  short?: string;
  long?: string;
  /** The flag as written in help, e.g. "-m, --model <id>". */
  flags: string;
  description: string;
  /** The value's name ("id", "file") when the flag takes a value. */
  valueName?: string;
  variadic: boolean;
  choices?: readonly string[];
  defaultValue?: unknown;
  required: boolean;
}

export interface TreeArgument {
  name: string;
  required: boolean;
  variadic: boolean;
  description: string;
}

export interface TreeCommand {
  /** Words after `kct`, e.g. ["models", "show"]; [] for kct itself. */
  path: string[];
  summary: string;
  aliases: string[];
  args: TreeArgument[];
  options: TreeOption[];
  examples: readonly string[];
  subcommands: TreeCommand[];
}

const examples = new WeakMap<Command, readonly string[]>();

/** program.ts records each command's examples here, so generated documents can list them. */
export function setExamples(command: Command, lines: readonly string[]): void {
  examples.set(command, lines);
}

export function commandTree(program: Command): TreeCommand {
  return visit(program, []);
}

function visit(command: Command, path: string[]): TreeCommand {
  return {
    path,
    summary: command.description(),
    aliases: command.aliases(),
    args: command.registeredArguments.map((arg) => ({
      name: arg.name(),
      required: arg.required,
      variadic: arg.variadic,
      description: arg.description,
    })),
    options: command.options.filter((option) => !option.hidden).map(toOption),
    examples: examples.get(command) ?? [],
    subcommands: command.commands
      .filter((sub) => !(sub as unknown as { _hidden?: boolean })._hidden)
      .map((sub) => visit(sub, [...path, sub.name()])),
  };
}

function toOption(option: Option): TreeOption {
  const takesValue = option.required || option.optional;
  const valueName = takesValue ? /[<[]([^>\]]+?)(?:\.\.\.)?[>\]]/.exec(option.flags)?.[1] : undefined;
  return {
    ...(option.short ? { short: option.short } : {}),
    ...(option.long ? { long: option.long } : {}),
    flags: option.flags,
    description: option.description,
    ...(valueName ? { valueName } : {}),
    variadic: option.variadic,
    ...(option.argChoices ? { choices: option.argChoices } : {}),
    ...(option.defaultValue !== undefined ? { defaultValue: option.defaultValue } : {}),
    required: option.mandatory,
  };
}

/** Every command in the tree, parents before children. */
export function flatten(root: TreeCommand): TreeCommand[] {
  return [root, ...root.subcommands.flatMap(flatten)];
}
