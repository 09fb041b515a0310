// Man pages (roff, man(7) macros) rendered from the command tree: kct.1 and one page per command,
// kct-<command>-<subcommand>.1, as gh does. scripts/build-man.js writes them at build time.
import type { TreeCommand, TreeOption } from '../core/command-tree.js';
import { flatten } from '../core/command-tree.js';
import { OTHER_VARIABLES, VARIABLES } from '../core/environment.js';
import { EXIT_CODE_TABLE } from '../core/exit-codes.js';

/** The environment variables kct reads, for kct(1): cli/core/environment.ts declares them. */
const ENVIRONMENT: readonly [string, string][] = [
  ...Object.entries(VARIABLES).map(([name, variable]): [string, string] => [
    name,
    'for' in variable ? `${variable.help} (${variable.for})` : variable.help,
  ]),
  ...OTHER_VARIABLES,
];

/** "kct-models-show" for ["models", "show"]. */
function pageTitle(path: readonly string[]): string {
  return ['kct', ...path].join('-');
}

function manPageName(path: readonly string[]): string {
  return `${pageTitle(path)}.1`;
}

/** Every page, by file name. */
export function renderManPages(root: TreeCommand, version: string): Map<string, string> {
  const pages = new Map<string, string>();
  for (const command of flatten(root)) pages.set(manPageName(command.path), renderPage(command, root, version));
  return pages;
}

function renderPage(command: TreeCommand, root: TreeCommand, version: string): string {
  const isRoot = command.path.length === 0;
  const title = pageTitle(command.path);
  const name = ['kct', ...command.path].join(' ');
  const lines: string[] = [
    `.TH "${title.toUpperCase()}" "1" "" "kct ${roffEscape(version)}" "kct manual"`,
    '.SH NAME',
    `${dashes(title)} \\- ${roffEscape(command.summary)}`,
    '.SH SYNOPSIS',
    `.B ${dashes(name)}`,
    synopsisTail(command),
  ];
  if (isRoot) {
    lines.push(
      '.SH DESCRIPTION',
      roffEscape(command.summary),
      '.PP',
      'Results go to standard output; progress, warnings and errors to standard error. Every command takes the global options below and',
      '.BR \\-\\-help .',
    );
  } else {
    lines.push('.SH DESCRIPTION', roffEscape(sentence(command.summary)));
  }
  if (command.args.length > 0) {
    lines.push('.SH ARGUMENTS');
    for (const arg of command.args)
      lines.push(
        '.TP',
        `.I ${dashes(arg.name)}${arg.variadic ? ' ...' : ''}`,
        roffEscape(arg.description || (arg.required ? 'required' : 'optional')),
      );
  }
  if (command.subcommands.length > 0) {
    lines.push('.SH COMMANDS');
    for (const sub of command.subcommands) lines.push('.TP', `.BR ${dashes(pageTitle(sub.path))} (1)`, roffEscape(sentence(sub.summary)));
  }
  const own = isRoot ? [] : command.options;
  if (own.length > 0) {
    lines.push('.SH OPTIONS');
    for (const option of own) lines.push(...optionLines(option));
  }
  lines.push('.SH GLOBAL OPTIONS');
  if (isRoot) for (const option of root.options) lines.push(...optionLines(option));
  else {
    const globals = root.options.filter((option) => option.long !== '--version').map((option) => option.long ?? option.flags);
    lines.push(`${globals.map(dashes).join(', ')}: see`, '.BR kct (1).');
  }
  if (isRoot) {
    lines.push('.SH ENVIRONMENT');
    for (const [variable, meaning] of ENVIRONMENT) lines.push('.TP', `.B ${roffEscape(variable)}`, roffEscape(meaning));
    lines.push(
      '.SH FILES',
      '.TP',
      '.I $XDG_CONFIG_HOME/kct/config.json',
      'profiles: API key, base URL, default model and output (mode 0600).',
    );
  }
  lines.push('.SH EXIT STATUS');
  if (isRoot) {
    for (const [code, meaning] of EXIT_CODE_TABLE) lines.push('.TP', `.B ${code}`, roffEscape(meaning));
  } else {
    lines.push(
      'The same for every command: 0 on success, 2 for bad usage or input, 4 for authentication, 9 when the service is unreachable; the whole table is in',
      '.BR kct (1).',
    );
  }
  if (command.examples.length > 0) {
    lines.push('.SH EXAMPLES', '.nf', '.RS 4', ...command.examples.map((example) => `$ ${dashes(example)}`), '.RE', '.fi');
  }
  const related = [...(isRoot ? [] : [pageTitle(command.path.slice(0, -1))]), ...command.subcommands.map((sub) => pageTitle(sub.path))];
  if (related.length > 0) lines.push('.SH SEE ALSO', related.map((page) => `.BR ${dashes(page)} (1)`).join(',\n'));
  return `${lines.filter((line) => line !== '').join('\n')}\n`;
}

function synopsisTail(command: TreeCommand): string {
  const parts: string[] = [];
  if (command.subcommands.length > 0) parts.push('\\fIcommand\\fR');
  if (command.options.length > 0 || command.path.length > 0) parts.push('[\\fIoptions\\fR]');
  for (const arg of command.args) {
    const text = `\\fI${dashes(arg.name)}\\fR${arg.variadic ? '...' : ''}`;
    parts.push(arg.required ? text : `[${text}]`);
  }
  return parts.join(' ');
}

function optionLines(option: TreeOption): string[] {
  const extras: string[] = [];
  if (option.choices) extras.push(`one of: ${option.choices.join(', ')}`);
  if (option.defaultValue !== undefined && option.defaultValue !== false) extras.push(`default: ${String(option.defaultValue)}`);
  if (option.required) extras.push('required');
  const description = `${option.description}${extras.length > 0 ? ` (${extras.join('; ')})` : ''}`;
  return ['.TP', `.B ${dashes(option.flags)}`, roffEscape(sentence(description))];
}

/** "mark answers" becomes "Mark answers." */
function sentence(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '') return trimmed;
  // an identifier stays as written (student_id, --model)
  const capital = /^[a-z]+\b(?![_-])/.test(trimmed) ? trimmed[0].toUpperCase() + trimmed.slice(1) : trimmed;
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/** Text made safe for roff: backslashes, a leading dot or quote, and non-ASCII characters. */
export function roffEscape(text: string): string {
  const escaped = text
    .replace(/\\/g, '\\e')
    .replace(/[^\x00-\x7f]/gu, (char) => `\\[u${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`);
  return escaped
    .split('\n')
    .map((line) => (/^[.']/.test(line) ? `\\&${line}` : line))
    .join('\n');
}

/** Like escape, and hyphens as \- so flags and commands copy and paste as typed. */
function dashes(text: string): string {
  return roffEscape(text).replace(/-/g, '\\-');
}
