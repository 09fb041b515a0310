// Where a command's output goes, and how it may look. Tests build one over buffers to check the
// TTY and the piped rendering of the same data.
import type { Readable, Writable } from 'node:stream';
import { redact } from '../../client/redact.js';
import { stripControls, terminalSafe } from './sanitize.js';

export interface IO {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable;
  stderr: Writable;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** Colour allowed in results on stdout (off with NO_COLOR, --no-color, or when stdout is not a TTY). */
  color: boolean;
  columns: number;
  /** A spinner may be drawn on stderr: a terminal that reports its width (some report 0). */
  canAnimate?: boolean;
  /** True when nothing may prompt: CI, or stdin/stderr not a terminal. */
  noPrompt: boolean;
  /** Why nothing may prompt, in words (CI set is not "no terminal"). */
  noPromptReason?: string;
  /** --json: everything kct writes to stderr is one JSON object a line (notices, errors), so a script can read it. */
  stderrJson?: boolean;
}

export interface IOSettings {
  env: NodeJS.ProcessEnv;
  noColor?: boolean;
}

/** The three streams an IO is decided from: the process's, or a test's (test/unit/cli/test-io.ts). */
export interface Streams {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable & { isTTY?: boolean; columns?: number };
  stderr: Writable & { isTTY?: boolean; columns?: number };
}

/** The IO of these streams: colour, width and prompting decided from the terminal and the environment. */
export function processIO({ env, noColor }: IOSettings, streams: Streams = process): IO {
  const { stdin, stdout, stderr } = streams;
  const stdoutIsTTY = Boolean(stdout.isTTY);
  const stderrIsTTY = Boolean(stderr.isTTY);
  const stdinIsTTY = Boolean(stdin.isTTY);
  return {
    stdin,
    stdout,
    stderr,
    stdinIsTTY,
    stdoutIsTTY,
    stderrIsTTY,
    color: colorAllowed(env, noColor, stdoutIsTTY),
    columns: stdout.columns || stderr.columns || 100,
    canAnimate: stderrIsTTY && (stderr.columns ?? 0) > 0,
    noPrompt: isCI(env) || !stdinIsTTY || !stderrIsTTY,
    noPromptReason: promptBlocker(env, stdinIsTTY, stderrIsTTY),
  };
}

/** Why kct may not ask a question here, or undefined when it may. */
function promptBlocker(env: NodeJS.ProcessEnv, stdinIsTTY: boolean, stderrIsTTY: boolean): string | undefined {
  if (isCI(env)) return `CI is set (CI=${env.CI}), and kct never prompts in CI`;
  if (!stdinIsTTY) return 'standard input is not a terminal';
  if (!stderrIsTTY) return 'standard error is not a terminal';
  return undefined;
}

/** The reason of an IO that may not prompt, for messages. */
export function whyNoPrompt(io: IO): string {
  return io.noPromptReason ?? 'no terminal to ask on';
}

export function colorAllowed(env: NodeJS.ProcessEnv, noColor: boolean | undefined, tty: boolean): boolean {
  if (noColor) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  return tty && env.TERM !== 'dumb';
}

function isCI(env: NodeJS.ProcessEnv): boolean {
  return env.CI !== undefined && env.CI !== '' && env.CI !== 'false' && env.CI !== '0';
}

/** Writes a line of results to stdout (terminal-safe on a TTY: server text may be in it). */
export function out(io: IO, text: string): void {
  const line = io.stdoutIsTTY ? terminalSafe(text) : text;
  io.stdout.write(line.endsWith('\n') ? line : `${line}\n`);
}

/** Writes text to stdout as it is (CSV blocks), terminal-safe on a TTY. */
export function outRaw(io: IO, text: string): void {
  io.stdout.write(io.stdoutIsTTY ? terminalSafe(text) : text);
}

/**
 * Writes a line of progress, warnings or errors to stderr (terminal-safe on a TTY). The one
 * masking point of everything kct writes there, the argument parser's messages included: a value
 * shaped like a key (kct_...) never reaches the terminal or a CI log.
 */
export function err(io: IO, text: string): void {
  const masked = redact(text);
  const line = io.stderrIsTTY ? terminalSafe(masked) : masked;
  io.stderr.write(line.endsWith('\n') ? line : `${line}\n`);
}

/**
 * What a notice is about: its `code` under --json, and its prefix for people. progress and retry:
 * where a command is (`kct: ...`); cost: what marking costs (`kct: cost: ...`); warning: something
 * may be wrong and the command goes on (`warning: ...`); note: worth knowing (`note: ...`); next:
 * the command to run next, and info: what happened, each a sentence of its own.
 */
export type NoticeCode = 'progress' | 'retry' | 'cost' | 'warning' | 'note' | 'next' | 'info';

const NOTICE_PREFIX: Record<NoticeCode, string> = {
  progress: 'kct: ',
  retry: 'kct: ',
  cost: 'kct: cost: ',
  warning: 'warning: ',
  note: 'note: ',
  next: '',
  info: '',
};

/**
 * The one way a command tells its user something on stderr (docs/guides/exit-codes.md, "How errors
 * are printed"): for people a line with the code's prefix; under --json one line
 * `{"notice": {"code", "message", ...fields}}`, the shape of an error's `{"error": {...}}`.
 */
export function notice(io: IO, code: NoticeCode, message: string, fields: Record<string, unknown> = {}): void {
  if (io.stderrJson) err(io, JSON.stringify({ notice: { code, message, ...fields } }));
  else err(io, `${NOTICE_PREFIX[code]}${message}`);
}

/** Server-provided text made safe for the stream it goes to. */
export function safeText(io: IO, text: string, stream: 'stdout' | 'stderr' = 'stdout'): string {
  const tty = stream === 'stdout' ? io.stdoutIsTTY : io.stderrIsTTY;
  return tty ? stripControls(text) : text;
}
