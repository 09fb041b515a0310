// An unknown command answered by meaning as well as spelling. Commander suggests the command
// spelled most like the word typed ("watch": "Did you mean batch?"); a person who types `kct watch`
// wants `kct status <task_id> --watch`. The words people type for what kct does under another name
// are in one table here; commander's spelling suggestion stays for every other word. A command's
// flag typed before the command is answered with the line as it would work.
import type { Command } from 'commander';
import { shellWord } from './shell-word.js';

/** A word typed as a command, and the kct command that does what it means. */
export const MEANINGS: Record<string, { command: string; does: string }> = {};
const meaning = (words: string[], command: string, does: string) => {
  for (const word of words) MEANINGS[word] = { command, does };
};
meaning(['watch', 'follow', 'poll', 'wait', 'track', 'progress'], 'kct status <task_id> --watch', 'follows a task until it ends');
meaning(['mark', 'grade', 'score', 'assess', 'run'], 'kct one-pass <file> --model <id>', 'marks answers and prints the scores');
meaning(['submit', 'send', 'queue'], 'kct one-pass <file> --model <id> --no-wait', 'sends answers and prints their task ids');
meaning(['results', 'scores', 'get', 'show', 'fetch'], 'kct result <task_id>', "prints a task's score, criteria and feedback");
meaning(['stop', 'kill', 'abort'], 'kct cancel <task_id>', 'cancels a task (never charged)');
meaning(
  ['login', 'signin', 'sign-in', 'logon', 'key', 'token', 'apikey', 'api-key', 'setup', 'init'],
  'kct auth login',
  'stores an API key',
);
meaning(['logout', 'signout', 'sign-out'], 'kct auth logout', 'forgets the stored key');
meaning(['whoami', 'me', 'account'], 'kct auth status', 'says which key kct uses, and whose');
meaning(['balance', 'credit', 'quota', 'usage', 'billing'], 'kct credits', 'prints the credits left');
meaning(['server', 'serve', 'start', 'local', 'mock', 'offline'], 'kct sandbox', 'runs the local API');
meaning(['health', 'ping', 'test', 'diagnose', 'verify'], 'kct doctor', 'checks the key, the service and the models');
meaning(['html', 'export', 'summary'], 'kct report <saved-run> --out class.html', 'makes a class report from a saved run');
meaning(['train', 'build', 'new', 'create'], 'kct models new', 'builds a marking model from a question paper and a rubric');
meaning(
  ['rubric', 'rubrics', 'questions', 'parse'],
  'kct ingest rubrics <file>',
  'reads a rubric (or `kct ingest questions`) into a file to edit',
);
meaning(['settings', 'set', 'configure', 'prefs'], 'kct config set <key> <value>', 'changes a setting');

/** Any word followed by a platform's name (`kct grade moodle`, `kct fill canvas`) means the grade file. */
const PLATFORM_FILES: Record<string, { command: string; does: string }> = {
  moodle: { command: 'kct grades moodle <saved-run> <worksheet.csv>', does: "fills Moodle's grading worksheet from a saved run" },
  canvas: {
    command: 'kct grades canvas <saved-run> <gradebook.csv> --assignment <name>',
    does: "fills Canvas's gradebook from a saved run",
  },
};

/** The command a word means (and the word after it), worded as a suggestion; undefined for a word not in the tables. */
function meaningOf(word: string, next?: string): string | undefined {
  const platform = next?.toLowerCase();
  const found =
    platform !== undefined && Object.hasOwn(PLATFORM_FILES, platform)
      ? PLATFORM_FILES[platform]
      : Object.hasOwn(MEANINGS, word.toLowerCase())
        ? MEANINGS[word.toLowerCase()]
        : undefined;
  return found ? `Did you mean \`${found.command}\`? It ${found.does}.` : undefined;
}

const UNKNOWN = /^((?:error: )?unknown command '([^']+)')(?:\n\(Did you mean [^\n]*\?\))?/;

/**
 * Commander's "unknown command" message with the suggestion by meaning in place of the one by
 * spelling, when the word is kct's first (the table is of kct's own commands: `kct keys new` is
 * left to commander, which knows `keys create`) and the table has it.
 */
export function withMeaning(message: string, first: string | undefined, next?: string): string {
  const match = UNKNOWN.exec(message);
  const suggestion = match && match[2] === first ? meaningOf(match[2], next) : undefined;
  if (!match || !suggestion) return message;
  return `${match[1]}\n(${suggestion})${message.slice(match[0].length)}`;
}

const UNKNOWN_OPTION = /^((?:error: )?unknown option '([^'=]+)(?:=[^']*)?')(?:\n\(Did you mean [^\n]*\?\))?/;

/**
 * A command's flag typed before the command (`kct --model 12 one-pass essay.txt`): kct knows no
 * such flag of its own, and says where it goes, with the line as it would work. A flag after it
 * that commander finds no spelling for, named by its first word (`--data-dir`), gets that flag.
 */
export function withPlacement(message: string, argv: readonly string[], program: Command): string {
  const match = UNKNOWN_OPTION.exec(message);
  if (!match) return message;
  const flag = match[2];
  const flagAt = argv.findIndex((word) => word === flag || word.startsWith(`${flag}=`));
  const named = commandNamed(argv, program);
  if (!named || flagAt < 0) return message;
  const { command, at, end } = named;
  if (flagAt > at) return match[0].includes('(Did you mean') ? message : withNearFlag(match, message, command);
  const option = command.options.find((o) => o.long === flag || o.short === flag);
  if (!option) return message;
  const takesValue = (option.required || option.optional) && !argv[flagAt].includes('=') && flagAt + 1 < at;
  const moved = argv.slice(flagAt, flagAt + (takesValue ? 2 : 1));
  const before = argv.slice(0, flagAt);
  const between = argv.slice(flagAt + moved.length, end + 1);
  const line = ['kct', ...[...before, ...between, ...moved, ...argv.slice(end + 1)].map(shellWord)].join(' ');
  const path = argv.slice(at, end + 1).join(' ');
  const suggestion = `Did you mean \`${line}\`? ${flag} is an option of kct ${path}: it goes after the command's name.`;
  return `${match[1]}\n(${suggestion})${message.slice(match[0].length)}`;
}

/** The command named in argv, down to its subcommand (`models new`), and where its words are. */
function commandNamed(argv: readonly string[], program: Command): { command: Command; at: number; end: number } | undefined {
  const named = (command: Command, word: string) => command.name() === word || command.aliases().includes(word);
  const at = argv.findIndex((word) => program.commands.some((command) => named(command, word)));
  if (at < 0) return undefined;
  let command = program.commands.find((candidate) => named(candidate, argv[at]))!;
  let end = at;
  let sub: Command | undefined;
  while ((sub = command.commands.find((c) => named(c, argv[end + 1])))) {
    command = sub;
    end += 1;
  }
  return { command, at, end };
}

/**
 * Commander suggests by spelling, and `--data-dir` is too far from `--data` for it: the one flag of
 * the command whose first word is the typed flag's (data) is suggested instead, as commander words it.
 */
function withNearFlag(match: RegExpExecArray, message: string, command: Command): string {
  // `no` is a word of its own: --wait-for is never taken for --no-wait, its opposite
  const firstWord = (flag: string) => flag.replace(/^--/, '').split('-')[0];
  const typed = firstWord(match[2]);
  if (!match[2].startsWith('--') || typed === '') return message;
  const near = command.options.filter((option) => option.long !== undefined && firstWord(option.long) === typed);
  if (near.length !== 1) return message;
  return `${match[1]}\n(Did you mean ${near[0].long}?)${message.slice(match[0].length)}`;
}

const MISSING = /^((?:error: )?)required option '[^']+' not specified/;

/** Commander names the first required option missing; every one missing is named, so one more run is enough. */
export function withAllMissing(message: string, argv: readonly string[], program: Command): string {
  const match = MISSING.exec(message);
  const command = match ? commandNamed(argv, program)?.command : undefined;
  if (!match || !command) return message;
  const missing = command.options.filter((option) => option.mandatory && command.getOptionValue(option.attributeName()) === undefined);
  if (missing.length < 2) return message;
  return `${match[1]}required options not specified: ${missing.map((option) => `'${option.flags}'`).join(', ')}${message.slice(match[0].length)}`;
}
