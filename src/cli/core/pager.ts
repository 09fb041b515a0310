// Long output through a pager on a terminal, as gh does: KCT_PAGER, then PAGER, else `less -FRX`;
// never when stdout is not a terminal, when no one can answer it (kct may not prompt: CI, stdin or
// stderr not a terminal), with --no-pager, or when the pager is "" or "cat". On a dumb terminal
// only KCT_PAGER is run, as git runs only the editor you named there (editor.c, is_terminal_dumb).
import type { ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { Context } from './context.js';
import { rawEnv } from './environment.js';
import { notice } from './io.js';

/** Commands whose output is a finished document a person may scroll (never ones that prompt or spin). */
export const PAGED_COMMANDS: ReadonlySet<string> = new Set(['models', 'models show', 'result', 'rewrite', 'api']);

const DEFAULT_PAGER = 'less -FRX';

export interface PagerChoice {
  command: string;
  source: 'KCT_PAGER' | 'PAGER' | 'default';
}

/**
 * A terminal that cannot move its cursor (git's is_terminal_dumb: TERM unset or "dumb"; Emacs's
 * shell, some CI terminals), where less stops at "Press RETURN to continue". Windows terminals set no TERM.
 */
function isDumbTerminal(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): boolean {
  return env.TERM === 'dumb' || (env.TERM === undefined && platform !== 'win32');
}

/** The pager to use, or undefined for none ("" or "cat" turn it off, as in gh; a dumb terminal runs only KCT_PAGER). */
export function choosePager(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): PagerChoice | undefined {
  const configured = rawEnv(env, 'KCT_PAGER');
  if (configured === undefined && isDumbTerminal(env, platform)) return undefined;
  const choice: PagerChoice =
    configured !== undefined
      ? { command: configured, source: 'KCT_PAGER' }
      : env.PAGER !== undefined
        ? { command: env.PAGER, source: 'PAGER' }
        : { command: DEFAULT_PAGER, source: 'default' };
  const trimmed = choice.command.trim();
  return trimmed === '' || trimmed === 'cat' ? undefined : { ...choice, command: trimmed };
}

/**
 * Sends the rest of stdout through the pager when it should; returns a function that closes the
 * pager's input and waits for the person to leave it. A pager that cannot start is skipped.
 */
export async function startPager(context: Context): Promise<() => Promise<void>> {
  const { io, env } = context;
  // a pager waits for keys, so it runs only where kct could ask a question (never in CI or a pipeline's middle)
  if (!io.stdoutIsTTY || io.noPrompt || context.globals.pager === false) return async () => {};
  const choice = choosePager(env);
  if (!choice) return async () => {};
  const child = await spawnPager(choice, env);
  if (!child) {
    // the default pager missing is normal (a minimal container); a configured one missing is a typo
    if (choice.source !== 'default')
      notice(io, 'warning', `the pager "${choice.command}" (from ${choice.source}) could not be started; printing directly`);
    return async () => {};
  }
  const original = io.stdout;
  // The person may quit the pager before everything is written: what is left is dropped quietly.
  child.stdin!.on('error', () => {});
  io.stdout = child.stdin!;
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  return async () => {
    child.stdin!.end();
    await exited;
    io.stdout = original;
  };
}

async function spawnPager(choice: PagerChoice, env: NodeJS.ProcessEnv): Promise<ChildProcess | undefined> {
  const { spawn } = await import('node:child_process');
  // The shell reads the command (options, quotes, $VARIABLES, a pipe), as git runs its pager. A
  // pager that is not there would take the output with it: its program is looked for first.
  const program = programOf(choice.command);
  if (program !== undefined && !onPath(program, env)) return undefined;
  const pagerEnv = { ...env };
  // gh's defaults for less and lv when the person has not chosen options for them
  if (pagerEnv.LESS === undefined) pagerEnv.LESS = 'FRX';
  if (pagerEnv.LV === undefined) pagerEnv.LV = '-c';
  return new Promise((resolve) => {
    const child = spawn(choice.command, { shell: true, stdio: ['pipe', 'inherit', 'inherit'], env: pagerEnv });
    child.once('error', () => resolve(undefined));
    child.once('spawn', () => resolve(child));
  });
}

/** The program a pager command runs: its first word, unquoted; undefined when the shell must expand it. */
export function programOf(command: string): string | undefined {
  const match = /^\s*(?:"([^"$`\\]*)"|'([^']*)'|([^\s"'$`\\|;&<>()]+))(?=\s|$)/.exec(command);
  return match ? (match[1] ?? match[2] ?? match[3]) : undefined;
}

function onPath(program: string, env: NodeJS.ProcessEnv): boolean {
  const candidates = program.includes('/')
    ? [program]
    : (env.PATH ?? '')
        .split(delimiter)
        .filter(Boolean)
        .map((dir) => join(dir, program));
  return candidates.some((candidate) => {
    try {
      accessSync(candidate, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}
