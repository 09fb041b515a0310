// A real interactive bash, zsh or fish under a pseudo-terminal (util-linux `script`), typed into
// byte by byte as a keyboard would, for completion tests. Key bindings of its own read the line
// editor: Ctrl-X Ctrl-F writes the command line as it stands to a file (nothing on the screen is
// parsed), Ctrl-X Ctrl-E runs it (the shell's eval: a line left incomplete, with a quote still
// open, is reported instead of waiting for more) and Ctrl-X Ctrl-K empties it. `kct` is a shell
// function here that writes the arguments it receives, one per line (bash: unless realKct, the kct on PATH).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type ShellName = 'bash' | 'zsh' | 'fish';

/** A command with no completion of its own: what it gets is the shell's own file completion. */
export const PLAIN = 'plaincmd';
/**
 * The shell's own completion of --rubric-file=<file>: bash and fish complete files after the "="
 * for any command; zsh does it for options declared to _arguments, as zsh's own completions do.
 */
export const PLAIN_OPTION = 'plainopt';

/** Why a shell cannot be tested here, or undefined when it can. */
export function unavailable(shell: ShellName): string | undefined {
  if (spawnSync(shell, ['-c', 'exit 0']).status !== 0) return `${shell} is not installed (Debian: apt-get install ${shell})`;
  if (spawnSync('script', ['--version']).status !== 0) return 'util-linux script is not installed';
  return undefined;
}

// no key the terminal itself acts on (Ctrl-D, -C, -U, -W...): keys may arrive before the line editor
const CTRL_X_F = '\x18\x06';
const CTRL_X_K = '\x18\x0b';
const CTRL_X_E = '\x18\x05';
/** What the run key writes when the line did not call kct (a syntax error: an open quote). */
export const NOT_RUN = '<the line did not run>';
/** Hang guard for one step (a Tab, a run): generous, only there so that a stuck shell fails the test. */
const STEP_LIMIT_MS = 30_000;

function rcFile(shell: ShellName, dir: string, script: string, realKct = false): string {
  const line = join(dir, 'line');
  // kct writes its arguments to args; the run key then renames that to ran (NOT_RUN if kct was not called)
  const args = join(dir, 'args');
  const ran = join(dir, 'ran');
  switch (shell) {
    case 'bash':
      return `PS1='kct-test$ '
set +o history +H
bind 'set bell-style none'
source '${script}'
__kct_test_dump() { printf '%s' "$READLINE_LINE" > '${line}.tmp' && command mv '${line}.tmp' '${line}'; }
__kct_test_clear() { READLINE_LINE=''; READLINE_POINT=0; }
__kct_test_run() { command rm -f '${args}'; eval "$READLINE_LINE"; [ -e '${args}' ] || printf '%s\\n' '${NOT_RUN}' > '${args}'; command mv '${args}' '${ran}'; __kct_test_clear; }
bind -x '"\\C-x\\C-f": __kct_test_dump'
bind -x '"\\C-x\\C-k": __kct_test_clear'
bind -x '"\\C-x\\C-e": __kct_test_run'
${realKct ? '' : `kct() { printf '%s\\n' "$@" > '${args}'; }`}
${PLAIN}() { :; }
${PLAIN_OPTION}() { :; }
`;
    case 'zsh':
      return `PS1='kct-test%% '
bindkey -e
unsetopt banghist beep
autoload -U compinit && compinit -u -D
source '${script}'
__kct_test_dump() { print -rn -- "$BUFFER" > '${line}.tmp' && command mv '${line}.tmp' '${line}'; }
__kct_test_clear() { BUFFER=''; CURSOR=0; }
__kct_test_run() { command rm -f '${args}'; eval "$BUFFER"; [[ -e '${args}' ]] || print -r -- '${NOT_RUN}' > '${args}'; command mv '${args}' '${ran}'; __kct_test_clear; }
zle -N __kct_test_dump
zle -N __kct_test_clear
zle -N __kct_test_run
bindkey '^X^F' __kct_test_dump
bindkey '^X^K' __kct_test_clear
bindkey '^X^E' __kct_test_run
kct() { print -rl -- "$@" > '${args}'; }
${PLAIN}() { :; }
${PLAIN_OPTION}() { :; }
_${PLAIN_OPTION}() { _arguments '--rubric-file=[rubric]:file:_files' '*:file:_files'; }
compdef _${PLAIN_OPTION} ${PLAIN_OPTION}
`;
    case 'fish':
      return `set -g fish_greeting ''
function fish_prompt; printf 'kct-test> '; end
function fish_right_prompt; end
set -g fish_autosuggestion_enabled 0
source '${script}'
function __kct_test_dump; commandline > '${line}.tmp'; and command mv '${line}.tmp' '${line}'; end
function __kct_test_run
    command rm -f '${args}'
    eval (commandline | string collect)
    test -e '${args}'; or printf '%s\\n' '${NOT_RUN}' > '${args}'
    command mv '${args}' '${ran}'
    commandline -r ''
end
bind \\cx\\cf __kct_test_dump
bind \\cx\\ck "commandline -r ''"
bind \\cx\\ce __kct_test_run
function kct; printf '%s\\n' $argv > '${args}'; end
function ${PLAIN}; end
function ${PLAIN_OPTION}; end
`;
  }
}

export class ShellSession {
  private output = '';
  private exited = false;

  private constructor(
    readonly shell: ShellName,
    private readonly dir: string,
    private readonly child: ChildProcess,
  ) {
    child.stdout!.on('data', (chunk: Buffer) => {
      this.output = (this.output + chunk.toString('utf8')).slice(-20_000);
    });
    child.on('exit', () => {
      this.exited = true;
    });
  }

  /**
   * Starts `shell` interactively in `cwd` with the completion script `script` loaded, and waits
   * until its line editor answers.
   */
  static async start(
    shell: ShellName,
    options: { dir: string; cwd: string; script: string; env: Record<string, string | undefined>; realKct?: boolean },
  ): Promise<ShellSession> {
    const { dir, cwd, script } = options;
    mkdirSync(join(dir, 'home'), { recursive: true });
    const rc = join(dir, shell === 'zsh' ? '.zshrc' : `rc.${shell}`);
    writeFileSync(rc, rcFile(shell, dir, script, options.realKct));
    writeFileSync(join(dir, 'inputrc'), '');
    const command =
      shell === 'bash' ? `bash --noprofile --rcfile '${rc}' -i` : shell === 'zsh' ? 'zsh -d -i' : `fish --no-config -i -C 'source ${rc}'`;
    const env = {
      ...Object.fromEntries(Object.entries(options.env).filter(([, value]) => value !== undefined)),
      HOME: join(dir, 'home'),
      XDG_CONFIG_HOME: join(dir, 'home', '.config'),
      XDG_DATA_HOME: join(dir, 'home', '.local', 'share'),
      ZDOTDIR: dir,
      INPUTRC: join(dir, 'inputrc'),
      HISTFILE: '',
      fish_history: '',
      LANG: 'C.UTF-8',
      LC_ALL: 'C.UTF-8',
      TERM: 'xterm',
    };
    const child = spawn('script', ['-qfec', `stty cols 200 rows 50; exec ${command}`, '/dev/null'], {
      cwd,
      env: env as NodeJS.ProcessEnv,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const session = new ShellSession(shell, dir, child);
    await session.until(() => session.output.includes('kct-test'), 'the first prompt');
    // the line editor is reading keys once an empty line can be written out
    session.child.stdin!.write(CTRL_X_F);
    await session.read('line', 'the line editor');
    return session;
  }

  /** Types `text`, presses Tab once and returns the command line as the shell then holds it; the line is emptied. */
  async complete(text: string): Promise<string> {
    const line = await this.tab(text);
    this.child.stdin!.write(CTRL_X_K);
    return line;
  }

  /**
   * Types `text`, presses Tab once and runs the line: the command line after Tab and the
   * arguments the `kct` function received ([NOT_RUN] when the line is not complete).
   */
  async completeAndRun(text: string): Promise<{ line: string; args: string[] }> {
    const line = await this.tab(text);
    this.child.stdin!.write(CTRL_X_E);
    const args = await this.read('ran', `the run of ${JSON.stringify(line)}`);
    return { line, args: args.split('\n').slice(0, -1) };
  }

  async close(): Promise<void> {
    if (this.exited) return;
    const gone = new Promise<void>((done) => this.child.once('exit', () => done()));
    this.child.stdin!.write(CTRL_X_K);
    this.child.stdin!.write('exit\r');
    this.child.stdin!.end();
    const guard = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
    await gone;
    clearTimeout(guard);
  }

  private async tab(text: string): Promise<string> {
    rmSync(join(this.dir, 'line'), { force: true });
    this.child.stdin!.write(`${text}\t${CTRL_X_F}`);
    const line = await this.read('line', `Tab after ${JSON.stringify(text)}`);
    // fish's `commandline` ends the line with a newline
    return this.shell === 'fish' ? line.replace(/\n$/, '') : line;
  }

  private async read(name: 'line' | 'ran', what: string): Promise<string> {
    const file = join(this.dir, name);
    await this.until(() => existsSync(file), what);
    const text = readFileSync(file, 'utf8');
    rmSync(file);
    return text;
  }

  private async until(ready: () => boolean, what: string): Promise<void> {
    const started = Date.now();
    while (!ready()) {
      if (this.exited) throw new Error(`${this.shell} exited while waiting for ${what}; the screen:\n${this.screen()}`);
      if (Date.now() - started > STEP_LIMIT_MS)
        throw new Error(`${this.shell}: no answer for ${what} after ${STEP_LIMIT_MS / 1000} s (hang guard); the screen:\n${this.screen()}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /** The end of what the shell wrote, control sequences removed, for error messages. */
  private screen(): string {
    // eslint-disable-next-line no-control-regex
    return this.output.replace(/\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\x1b[=>]|\x1b\][^\x07]*\x07/g, '').slice(-2_000);
  }
}
