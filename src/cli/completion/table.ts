// What completion offers at each place of a kct command line, read from the command tree: the
// subcommands of each command, its flags, and what a flag's value or an argument may be.

import { METHODS } from '../core/api-request.js';
import type { TreeArgument, TreeCommand, TreeOption } from '../core/command-tree.js';
import { CONFIG_KEYS, type ConfigKey } from '../core/config-keys.js';
import { HELP_TOPICS } from '../core/help-topic-names.js';
import { OUTPUT_FORMATS } from '../render/format.js';

/**
 * What to offer for a value: `files`, `models` (ids from `kct __complete model-ids`), `text`
 * (a value is expected, nothing to suggest) or `choices a b c`.
 */
type ValueKind = string;

export interface CommandEntry {
  /** Words after kct, space-separated; "" for kct itself. */
  path: string;
  subcommands: string[];
  flags: string[];
  /** Flags that take a value, with what the value may be. */
  values: [flag: string, kind: ValueKind][];
  /** One kind per positional argument; the last repeats when it is variadic. */
  args: ValueKind[];
  variadic: boolean;
}

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** Option values that name files or folders, by the value's name in the help ("<file>"). */
const FILE_VALUE = /^(file|files|path|dir|folder|journal|list|manifest|csv|zip-or-folder)$/;
const MODEL_FLAGS = new Set(['--model', '--mark']);

/** Positional arguments that are not files, by name (and command where the name is ambiguous). */
function argumentKind(command: TreeCommand, arg: TreeArgument): ValueKind {
  const path = command.path.join(' ');
  if (path === 'models show' && arg.name === 'id') return 'models';
  if (arg.name === 'shell') return `choices ${SHELLS.join(' ')}`;
  if (arg.name === 'method') return `choices ${METHODS.join(' ')}`;
  if (arg.name === 'key' && command.path[0] === 'config') return `choices ${CONFIG_KEYS.join(' ')}`;
  if (/^(answers|files|question-files|manifest|source|saved-run|worksheet|gradebook)$/.test(arg.name)) return 'files';
  return 'text';
}

/** What `kct config set <key>` takes after each key. */
const CONFIG_VALUE: Record<ConfigKey, ValueKind> = {
  base_url: 'text',
  model: 'models',
  output: `choices ${OUTPUT_FORMATS.join(' ')}`,
  product_url: 'text',
  account: 'text',
};

function optionKind(option: TreeOption): ValueKind | undefined {
  if (option.valueName === undefined) return undefined;
  if (option.choices) return `choices ${option.choices.join(' ')}`;
  if (option.long && MODEL_FLAGS.has(option.long)) return 'models';
  if (FILE_VALUE.test(option.valueName)) return 'files';
  return 'text';
}

function names(option: TreeOption): string[] {
  return [option.long, option.short].filter((name): name is string => name !== undefined);
}

function flagsOf(options: TreeOption[]): Pick<CommandEntry, 'flags' | 'values'> {
  const values = options.flatMap((option) => {
    const kind = optionKind(option);
    return kind === undefined ? [] : names(option).map((name): [string, ValueKind] => [name, kind]);
  });
  return { flags: [...new Set([...options.flatMap(names), '--help', '-h'])], values };
}

function subcommandNames(command: TreeCommand): string[] {
  return command.subcommands.flatMap((sub) => [sub.path[sub.path.length - 1], ...sub.aliases]);
}

export function completionTable(root: TreeCommand): CommandEntry[] {
  // --version belongs to kct itself, not to its commands
  const globals = root.options.filter((option) => option.long !== '--version');
  const entries: CommandEntry[] = [];
  const visit = (command: TreeCommand, path: string[]) => {
    entries.push({
      path: path.join(' '),
      subcommands: subcommandNames(command),
      ...flagsOf(path.length === 0 ? root.options : [...command.options, ...globals]),
      args: command.args.map((arg) => argumentKind(command, arg)),
      variadic: command.args.at(-1)?.variadic ?? false,
    });
    for (const sub of command.subcommands) {
      for (const name of [sub.path[sub.path.length - 1], ...sub.aliases]) visit(sub, [...path, name]);
    }
  };
  visit(root, []);
  const at = (path: string) => entries.find((entry) => entry.path === path)!;
  // each key of config set is walked as a subcommand, so the value after it completes by key (model: ids)
  const set = at('config set');
  set.subcommands = [...CONFIG_KEYS];
  for (const key of CONFIG_KEYS)
    entries.push({ ...set, path: `config set ${key}`, subcommands: [], args: [CONFIG_VALUE[key]], variadic: false });
  // commander's help command is in no tree: `kct help <command...>`, and its topics (`kct help exit-codes`)
  at('').subcommands.push('help');
  const helpOf = (command: TreeCommand, path: string[]) => {
    entries.push({
      path: ['help', ...path].join(' '),
      subcommands: [...subcommandNames(command), ...(path.length === 0 ? HELP_TOPICS : [])],
      ...flagsOf(globals),
      args: [],
      variadic: false,
    });
    for (const sub of command.subcommands) if (sub.subcommands.length > 0) helpOf(sub, [...path, sub.path[sub.path.length - 1]]);
  };
  helpOf(root, []);
  for (const topic of HELP_TOPICS) entries.push({ path: `help ${topic}`, subcommands: [], ...flagsOf(globals), args: [], variadic: false });
  return entries;
}
