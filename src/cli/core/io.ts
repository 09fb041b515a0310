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
  /** Colour allowed in what is drawn on stderr, the spinner (off with NO_COLOR, --no-color, or when stderr is not a TTY). */
  stderrColor?: boolean;
  /** The width tables fit: COLUMNS when set, else the terminal's (100 when there is none). */
  columns: number;
  /** COLUMNS set the width: a table fits it even when piped (else a piped table is whole). */
  widthAsked?: boolean;
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
  const asked = widthOf(env.COLUMNS);
  return {
    stdin,
    stdout,
    stderr,
    stdinIsTTY,
    stdoutIsTTY,
    stderrIsTTY,
    color: colorAllowed(env, noColor, stdoutIsTTY),
    stderrColor: colorAllowed(env, noColor, stderrIsTTY),
    columns: asked ?? (stdout.columns || stderr.columns || 100),
    widthAsked: asked !== undefined,
    canAnimate: stderrIsTTY && (stderr.columns ?? 0) > 0,
    noPrompt: isCI(env) || !stdinIsTTY || !stderrIsTTY,
    noPromptReason: promptBlocker(env, stdinIsTTY, stderrIsTTY),
  };
}

/**
 * COLUMNS, as a shell or a user sets it (`COLUMNS=120 kct … > marks.txt`): a whole number of 20 or
 * more, else not a width (shells and tools ignore a value they cannot read, as kct does).
 */
function widthOf(value: string | undefined): number | undefined {
  if (value === undefined || !/^\s*\d+\s*$/.test(value)) return undefined;
  const width = Number(value);
  return width >= 20 ? width : undefined;
}

/** Why kct may not ask a question here, or undefined when it may. */
function promptBlocker(env: NodeJS.ProcessEnv, stdinIsTTY: boolean, stderrIsTTY: boolean): string | undefined {
  if (isCI(env)) return `CI is set (CI=${env.CI}), and kct never prompts in CI`;
  if (!stdinIsTTY) return 'standard input is not a terminal';
  if (!stderrIsTTY) return 'standard error is not a terminal';
  return undefined;
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

/** What is told when a write to stdout is done: handed to the system, or failed (a reader gone, a full disk). */
export type Written = (error?: Error | null) => void;

/** Writes a line of results to stdout (terminal-safe on a TTY: server text may be in it). */
export function out(io: IO, text: string, written?: Written): void {
  const line = io.stdoutIsTTY ? terminalSafe(text) : text;
  io.stdout.write(line.endsWith('\n') ? line : `${line}\n`, written);
}

/** Writes text to stdout as it is (CSV blocks), terminal-safe on a TTY. */
export function outRaw(io: IO, text: string, written?: Written): void {
  io.stdout.write(io.stdoutIsTTY ? terminalSafe(text) : text, written);
}

/**
 * Writes a line of progress, warnings or errors to stderr (terminal-safe on a TTY). The one
 * masking point of everything kct writes there, the argument parser's messages included: a value
 * shaped like a key (kct_...) never reaches the terminal or a CI log. Under --json it is also the
 * one point where every line becomes a JSON object: a line written as text is a notice, its code
 * read from its prefix, so no line written by hand escapes the rule.
 */
export function err(io: IO, text: string): void {
  const masked = redact(text).replace(/\n$/, '');
  const line = io.stderrJson ? jsonLine(masked) : masked;
  io.stderr.write(`${io.stderrIsTTY ? terminalSafe(line) : line}\n`);
}

/**
 * What a notice is about: its `code` under --json, and its prefix for people. progress and retry:
 * where a command is (`kct: ...`); cost: what marking costs (`kct: cost: ...`); warning: something
 * may be wrong and the command goes on (`warning: ...`); note: worth knowing (`note: ...`); next:
 * the command to run next, and info: what happened, each a sentence of its own; debug: --debug's
 * trace (`[debug] ...`).
 */
export type NoticeCode = 'progress' | 'retry' | 'cost' | 'warning' | 'note' | 'next' | 'info' | 'debug';

const NOTICE_PREFIX: Record<NoticeCode, string> = {
  progress: 'kct: ',
  retry: 'kct: ',
  cost: 'kct: cost: ',
  warning: 'warning: ',
  note: 'note: ',
  next: '',
  info: '',
  debug: '[debug] ',
};

/** A line's prefix, the longest first ("kct: cost: " before "kct: "), and the code it stands for. */
const PREFIXED = /^(kct: cost: |kct: |warning: |note: |\[debug\] )?([\s\S]*)$/;
const CODE_OF_PREFIX: Record<string, NoticeCode> = {
  'kct: cost: ': 'cost',
  'kct: ': 'progress',
  'warning: ': 'warning',
  'note: ': 'note',
  '[debug] ': 'debug',
};

/** A line for --json's stderr: a JSON object as it is (an error, a notice), any other text as a notice. */
function jsonLine(text: string): string {
  if (text.startsWith('{')) {
    try {
      const value: unknown = JSON.parse(text);
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) return text;
    } catch {
      // text that looks like JSON and is not: a notice like any other
    }
  }
  const [, prefix = '', message = text] = PREFIXED.exec(text) ?? [];
  return JSON.stringify({ notice: { code: CODE_OF_PREFIX[prefix] ?? 'info', message } });
}

/**
 * The one way a command tells its user something on stderr (docs/guides/exit-codes.md, "How errors
 * are printed"): for people a line with the code's prefix; under --json one line
 * `{"notice": {"code", "message", ...fields}}`, the shape of an error's `{"error": {...}}`.
 */
export function notice(io: IO, code: NoticeCode, message: string, fields: Record<string, unknown> = {}): void {
  err(io, io.stderrJson ? JSON.stringify({ notice: { code, message, ...fields } }) : `${NOTICE_PREFIX[code]}${message}`);
}

/** Server-provided text made safe for the stream it goes to. */
export function safeText(io: IO, text: string, stream: 'stdout' | 'stderr' = 'stdout'): string {
  const tty = stream === 'stdout' ? io.stdoutIsTTY : io.stderrIsTTY;
  return tty ? stripControls(text) : text;
}
