// The CLI entry: parse, run one command, turn whatever it threw into a message and an exit code.
// main returns that code: only bin/kct.js and scripts/exe/main.cjs end the process, through
// process.exitCode, or through the `exit` they pass for what cannot wait (see MainOptions).

import { setMaxListeners } from 'node:events';
import type { Command } from 'commander';
import {
  ApiError,
  ConnectionError,
  InterruptedError,
  KctError,
  type StoppedRun,
  UnhandledDeliveriesError,
  UsageError,
  WatchTimeoutError,
} from '../api/errors.js';
import type { SandboxPackage } from '../api/sandbox.js';
import { redact } from '../client/redact.js';
import type { Dispatcher } from '../client/undici.js';
import { VERSION } from '../version.js';
import type { TreeCommand } from './core/command-tree.js';
import { type Context, createContext, type GlobalOptions } from './core/context.js';
import { EXIT, exitCodeFor, exitCodeForSignal } from './core/exit-codes.js';
import { HELP_TOPICS } from './core/help-topic-names.js';
import { cliHint } from './core/hints.js';
import { err, type IO, processIO, type Streams, safeText } from './core/io.js';
import { withAllMissing, withMeaning, withPlacement } from './core/meaning.js';
import { buildProgram } from './core/program.js';
import { shellWord } from './core/shell-word.js';

export interface MainOptions {
  /** The streams to read and write (default: the process's); colour and prompting are decided from them. */
  io?: Streams;
  env?: NodeJS.ProcessEnv;
  /** Install SIGINT/SIGTERM handlers (the real process does; tests may not). */
  handleSignals?: boolean;
  /**
   * Keep them when the command ends (the bins: the process ends next): a signal while it closes
   * (one Ctrl-C delivered twice) must not find Node's default, which kills it before it is done.
   */
  signalsToTheEnd?: boolean;
  /**
   * Ends the process at once, for the two cases that cannot wait for the command to return: a
   * second Ctrl-C, and stdout closed by its reader (`kct models | head`). The bins pass
   * process.exit; without it main never exits, and only aborts the running command.
   */
  exit?: (code: number) => void;
  /** The HTTP dispatcher of every client the command makes: API, doctor probe, key routes (tests pass undici's MockAgent). */
  dispatcher?: Dispatcher;
  /** Aborting it is a Ctrl-C (SIGINT): how in-process tests interrupt a run. */
  signal?: AbortSignal;
  /** The sandbox package for `kct sandbox`: the kct-sandbox launcher hands in its own (else it is imported by name). */
  sandbox?: () => Promise<SandboxPackage>;
}

export async function main(args: string[], options: MainOptions = {}): Promise<number> {
  const env = options.env ?? process.env;
  const io = processIO({ env, noColor: args.includes('--no-color') }, options.io);
  const controller = new AbortController();
  // every request in flight listens to it: a class run with --jobs 16 is not a leak
  setMaxListeners(0, controller.signal);
  const exit = options.exit ?? ((code: number) => controller.abort(new Error(`exit ${code}`)));
  if (!options.io)
    quietOnClosedPipe(exit, (error) =>
      reportError(
        io,
        new KctError('output', `cannot write to standard output (${error.code ?? error.message})`),
        EXIT.UNEXPECTED,
        args.includes('--json'),
        false,
      ),
    );
  let context: Context | undefined;
  const signals = { received: undefined as NodeJS.Signals | undefined };
  const removeSignals = options.handleSignals === false ? () => {} : installSignals(controller, io, signals, exit);
  const interrupt = () => {
    signals.received ??= 'SIGINT';
    controller.abort(new Error('received SIGINT'));
  };
  if (options.signal?.aborted) interrupt();
  else options.signal?.addEventListener('abort', interrupt, { once: true });

  const program = buildProgram(VERSION, (globals: GlobalOptions) => {
    context ??= createContext(io, env, globals, controller.signal, {
      args,
      dispatcher: options.dispatcher,
      sandbox: options.sandbox,
      commands: ownCommands,
    });
    return context;
  });
  // commander's parse errors are printed here with the others, so --json gets its one object
  const json = args.includes('--json');
  let heldUsage = '';
  const argv = helpArgv(program, versionArgv(args, json));
  const first = argv[commandAt(argv)];
  const next = argv[commandAt(argv) + 1];
  // Subcommands added with addCommand() do not inherit these: set them on every command.
  const commands = [program];
  for (let i = 0; i < commands.length; i++) commands.push(...(commands[i].commands as typeof commands));
  for (const command of commands) {
    command.exitOverride();
    // a hint line as every error has, naming the help that lists what was mistyped
    command.showHelpAfterError(
      json
        ? false
        : `hint: \`${commandPath(command)} --help\` lists its ${command.commands.length > 0 ? 'commands' : 'options'}, with examples`,
    );
    command.configureOutput({
      writeOut: (text) => io.stdout.write(text),
      // commander echoes what it could not parse ("unknown option '--api-key=kct_...'"): masked like every error;
      // with --json, what it writes there is the usage of a command named without its subcommand: held,
      // and said as an error below (or, for a bare `kct`, printed as its help is)
      writeErr: json
        ? (text) => {
            heldUsage += text;
          }
        : (text) => err(io, text),
      // an unknown command is answered by meaning as well as spelling (`kct watch`: status --watch)
      outputError: json
        ? () => {}
        : (text, write) => write(withAllMissing(withPlacement(withMeaning(text, first, next), argv, program), argv, program)),
    });
  }

  // A command left waiting on something nothing will settle would let Node exit 0 as if it had
  // finished, with nothing printed: a CI job must never read that as success (the real process only).
  const stalled = () => {
    err(
      io,
      'kct: internal error: the command stopped before it finished, with nothing left to wait for (a bug: please report it). Run it again; with --resume nothing is sent twice.',
    );
    options.exit?.(EXIT.UNEXPECTED);
  };
  if (options.exit) process.once('beforeExit', stalled);
  try {
    checkSingleDash(argv, commands);
    await program.parseAsync(argv, { from: 'user' });
    return signals.received ? exitCodeForSignal(signals.received) : EXIT.OK;
  } catch (error) {
    const code = (error as { code?: string }).code;
    // a command of commands named alone (`kct grades`): its usage on stderr, and no success for a script to go on with
    const missing =
      code === 'commander.help' && (error as { exitCode?: number }).exitCode !== 0 ? missingSubcommand(program, argv) : undefined;
    if (missing) {
      reportError(io, missing, EXIT.USAGE, json, false);
      return EXIT.USAGE;
    }
    // a bare `kct --json`: its help stays text, as a bare `kct` prints it
    if (heldUsage !== '') err(io, heldUsage);
    if (code === 'commander.helpDisplayed' || code === 'commander.version' || code === 'commander.help') return EXIT.OK;
    if (typeof code === 'string' && code.startsWith('commander.')) {
      // without --json commander has already printed it, as `error: ...` and the hint
      if (json) {
        // commander's "(Did you mean models?)" is a suggestion, not part of the message
        const [, message, similar] =
          /^(?:error: )?([\s\S]*?)(?:\n\((Did you mean .+\?[^\n]*)\))?$/.exec(
            withAllMissing(withPlacement(withMeaning((error as Error).message, first, next), argv, program), argv, program),
          ) ?? [];
        const suggestion = `${similar ? `${similar} ` : ''}Run with --help for usage.`;
        reportError(io, new UsageError(message ?? String(error), { suggestion }), EXIT.USAGE, true, false);
      }
      return EXIT.USAGE;
    }
    // stopped by a signal: 130 for SIGINT (Ctrl-C), 143 for SIGTERM, as a shell reports them
    const exitCode = signals.received && exitCodeFor(error) === EXIT.INTERRUPTED ? exitCodeForSignal(signals.received) : exitCodeFor(error);
    reportError(io, error, exitCode, Boolean(context?.globals.json ?? json), context?.globals.debug ?? false, context?.globals);
    return exitCode;
  } finally {
    process.off('beforeExit', stalled);
    options.signal?.removeEventListener('abort', interrupt);
    await context?.dispose();
    if (!options.signalsToTheEnd) removeSignals();
  }
}

/**
 * `-output csv` is read by commander as `-o utput` ("argument 'utput' is invalid"): a word after one
 * dash that is a long option of kct's is said to be one, before anything runs.
 */
function checkSingleDash(args: string[], commands: readonly Command[]): void {
  const end = args.indexOf('--');
  for (const arg of end === -1 ? args : args.slice(0, end)) {
    const word = /^-([a-z][a-z-]{2,})(?:=.*)?$/.exec(arg)?.[1];
    if (word && commands.some((command) => command.options.some((option) => option.long === `--${word}`)))
      throw new UsageError(`${arg} is not an option: a long option takes two dashes (--${word})`, {
        suggestion: `Write --${word}.`,
      });
  }
}

/** Global flags that take a value: skipped with it when looking for the command name. */
const GLOBAL_WITH_VALUE = new Set(['-p', '--profile', '--base-url']);

/** The error of a command of commands named without one of them (`kct grades`), naming them; none for a bare `kct` (its help). */
function missingSubcommand(program: Command, argv: string[]): UsageError | undefined {
  let command = program;
  for (const word of argv.slice(commandAt(argv))) {
    const sub = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!sub) break;
    command = sub;
  }
  if (command === program) return undefined;
  // the commands its help lists (commander's Help), without the help command itself
  const names = command
    .createHelp()
    .visibleCommands(command)
    .map((c) => c.name())
    .filter((name) => name !== 'help');
  return new UsageError(`${commandPath(command)} needs a command: ${names.join(', ')}`, {
    suggestion: `\`${commandPath(command)} --help\` lists them, with examples.`,
  });
}

/** Where the command's name is: the first word that is not a global flag (or its value). */
function commandAt(args: string[]): number {
  let at = 0;
  while (at < args.length && args[at].startsWith('-')) at += GLOBAL_WITH_VALUE.has(args[at]) ? 2 : 1;
  return at;
}

/** `kct --version --json` is `kct version --json`: --json means JSON on stdout everywhere (commander's --version prints a line). */
function versionArgv(args: string[], json: boolean): string[] {
  const at = commandAt(args);
  const flag = args.findIndex((arg, index) => index < at && (arg === '--version' || arg === '-V'));
  return json && flag >= 0 && at === args.length ? [...args.slice(0, flag), ...args.slice(flag + 1), 'version'] : args;
}

/**
 * `kct help exit-codes` is a topic; `kct help <name>` of no command is parsed as `kct <name>`, so
 * it fails as that does (unknown command, a suggestion, exit 2) instead of printing all the help.
 * Global flags may come first (`kct --json help exit-codes`): they are kept where they are.
 */
function helpArgv(program: Command, args: string[]): string[] {
  const at = commandAt(args);
  if (args[at] !== 'help') return args;
  const before = args.slice(0, at);
  const rest = args.slice(at + 1);
  if ((HELP_TOPICS as readonly string[]).includes(rest[0])) return [...before, `help-${rest[0]}`, ...rest.slice(1)];
  const name = rest[0];
  if (name === undefined || name.startsWith('-')) return args;
  // `kct help grades moodle` is the help of `grades moodle`: commander's help command reads one word
  const path: string[] = [];
  for (let at = program; path.length < rest.length; ) {
    const word = rest[path.length];
    const next = at.commands.find((command) => command.name() === word || command.aliases().includes(word));
    if (!next) break;
    path.push(word);
    at = next;
  }
  // a word after the path that is no subcommand of it (`kct help grades nope`) is parsed, and refused, as a command
  if (path.length > 0 && rest.length > path.length && !rest[path.length].startsWith('-')) return [...before, ...rest];
  if (path.length > 1) return [...before, ...path, '--help'];
  return path.length === 1 ? args : [...before, ...rest];
}

function reportError(io: IO, error: unknown, exitCode: number, json: boolean, debug: boolean, globals?: GlobalOptions): void {
  const message = redact(error instanceof Error ? error.message : String(error));
  const suggestion = withGlobals(cliHint(error) ?? (error instanceof KctError ? error.suggestion : undefined), globals);
  const status = error instanceof ApiError ? error.status : undefined;
  const requestId = error instanceof ApiError ? error.requestId : undefined;
  if (json) {
    const payload = {
      error: {
        code: error instanceof KctError ? error.code : 'unexpected',
        message,
        exit_code: exitCode,
        ...(status === undefined ? {} : { status }),
        ...(requestId === undefined ? {} : { request_id: requestId }),
        ...(suggestion === undefined ? {} : { suggestion }),
        ...(error instanceof WatchTimeoutError ? { task_ids: error.taskIds } : {}),
        ...(error instanceof InterruptedError && error.run ? stoppedRunFields(error.run) : {}),
        ...(error instanceof UnhandledDeliveriesError ? { webhook_ids: error.webhookIds } : {}),
      },
    };
    err(io, JSON.stringify(payload));
    return;
  }
  const where = status === undefined ? '' : ` (HTTP ${status}${requestId ? `, request ${requestId}` : ''})`;
  err(io, `error: ${safeText(io, message, 'stderr')}${where}`);
  if (error instanceof ConnectionError && error.maybeDelivered) {
    err(io, 'note: the connection broke after the request was sent; it may have reached the server.');
  }
  if (suggestion) err(io, `hint: ${suggestion}`);
  if (debug && error instanceof Error && !(error instanceof KctError) && error.stack) err(io, redact(error.stack));
  if (exitCode === EXIT.UNEXPECTED && !(error instanceof KctError)) {
    err(io, 'This looks like a bug in kct; run again with --debug and report the output (it never contains your key).');
  }
}

/** A stopped run's counts and tasks in --json's error (docs/guides/exit-codes.md): every answer accounted for. */
function stoppedRunFields(run: StoppedRun): Record<string, unknown> {
  const { accepted, unfinished, taskIds, notSent, journal } = run;
  return { accepted, unfinished, task_ids: taskIds, not_sent: notSent, ...(journal === undefined ? {} : { journal }) };
}

/**
 * A hint names kct commands as if run plainly: with --profile given, run plainly they would ask the
 * default profile's account (`kct models` lists another account's models), so the hint says to add it.
 */
function withGlobals(suggestion: string | undefined, globals: GlobalOptions | undefined): string | undefined {
  const profile = globals?.profile === undefined ? undefined : `--profile ${shellWord(globals.profile)}`;
  // a command kct rebuilt as it was typed carries it already
  if (!suggestion || profile === undefined || suggestion.includes(profile) || !/`kct [a-z]|: kct [a-z]/.test(suggestion)) return suggestion;
  return `${suggestion} (Give the kct commands named here ${profile}, as this one was.)`;
}

/**
 * `kct models | head` closes stdout early: stop quietly instead of crashing on EPIPE, with the code a
 * SIGPIPE gives (141), never 0: a run cut short there did not do all it was asked (pipefail sees it).
 */
function quietOnClosedPipe(exit: (code: number) => void, unwritable: (error: NodeJS.ErrnoException) => void): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') return exit(EXIT.CLOSED_PIPE);
      // stdout on a full disk (ENOSPC) or a broken device: one error line and 1, never a crash's stack
      if (stream === process.stdout) {
        unwritable(error);
        return exit(EXIT.UNEXPECTED);
      }
      throw error;
    });
  }
}

/** A second signal within this long of the first is the same one delivered twice, not a second Ctrl-C. */
const SAME_SIGNAL_MS = 500;

function installSignals(
  controller: AbortController,
  io: IO,
  signals: { received?: NodeJS.Signals },
  exit: (code: number) => void,
): () => void {
  let count = 0;
  let first = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    // one Ctrl-C delivered twice (`timeout -s INT` signals kct and its process group) is one
    if (count > 0 && Date.now() - first < SAME_SIGNAL_MS) return;
    count += 1;
    if (count === 1) first = Date.now();
    signals.received ??= signal;
    if (count > 1) {
      err(io, 'kct: interrupted again, exiting now');
      return exit(exitCodeForSignal(signal));
    }
    controller.abort(new Error(`received ${signal}`));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
}

/** kct's command tree, from a program of its own: the running one is parsing the command that asks. */
async function ownCommands(): Promise<TreeCommand> {
  const { commandTree } = await import('./core/command-tree.js');
  return commandTree(
    buildProgram(VERSION, () => {
      throw new Error('no command runs while the command tree is read');
    }),
  );
}

/** "kct models show": a command's name with its parents'. */
function commandPath(command: { name(): string; parent: unknown }): string {
  const names: string[] = [];
  for (let at: { name(): string; parent: unknown } | null = command; at; at = at.parent as typeof at) names.unshift(at.name());
  return names.join(' ');
}
