// Shell completion in zsh and fish, where installed (Debian: apt-get install zsh fish): each
// script loaded in the shell and asked for completions, model ids from a real sandbox
// (bash, and Tab in real interactive shells: completion.test.ts).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { has, useCompletionScripts } from './completion-setup.js';
import { useSandbox } from './harness.js';

const setup = useCompletionScripts(useSandbox());

describe.skipIf(!has('zsh'))('kct completion zsh', () => {
  /** The script's _kct with zsh's completion builtins stood in for: compadd filters by the typed prefix, as zsh does. */
  function zsh(words: string[]): string[] {
    const script = `compdef() { :; }
compset() { [[ "$1" == -P ]] && PREFIX="\${PREFIX#*=}"; return 0; }
compadd() { while [[ $# -gt 0 && "$1" != "--" ]]; do shift; done; shift; local w; for w in "$@"; do [[ "$w" == "$PREFIX"* ]] && print -r -- "$w"; done; }
_files() { print -r -- '<files>'; }
_describe() { local -a items; items=("\${(@P)4}"); local w; for w in "\${items[@]}"; do [[ "$w" == "$PREFIX"* ]] && print -r -- "\${w%%:*}"; done; }
source '${setup.scripts.zsh}'
words=(${words.map((word) => `'${word}'`).join(' ')})
CURRENT=\${#words}
PREFIX="\${words[CURRENT]}"
_kct`;
    const result = spawnSync('zsh', ['-f', '-c', script], { env: setup.env as NodeJS.ProcessEnv, cwd: setup.dir, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    return result.stdout.split('\n').filter(Boolean);
  }

  it('completes commands, flags, values and model ids', () => {
    expect(spawnSync('zsh', ['-n', setup.scripts.zsh]).status).toBe(0);
    expect(zsh(['kct', 'one-p'])).toEqual(['one-pass']);
    expect(zsh(['kct', 'one-pass', '--out'])).toEqual(['--output']);
    expect(zsh(['kct', 'one-pass', '--output', ''])).toEqual(['table', 'json', 'ndjson', 'csv']);
    expect(zsh(['kct', 'one-pass', '--output=nd'])).toEqual(['ndjson']);
    expect(zsh(['kct', 'one-pass', ''])).toEqual(['<files>']);
    expect(zsh(['kct', 'models', 'show', '1'])).toContain('12');
    expect(zsh(['kct', 'config', 'set', 'model', '1'])).toContain('12');
    expect(zsh(['kct', 'config', 'set', 'output', 'nd'])).toEqual(['ndjson']);
    expect(zsh(['kct', 'hel'])).toEqual(['help']);
    expect(zsh(['kct', 'help', 'exit'])).toEqual(['exit-codes']);
    expect(zsh(['kct', 'help', 'grades', ''])).toEqual(['moodle', 'canvas']);
  });
});

describe.skipIf(!has('fish'))('kct completion fish', () => {
  function fish(line: string): string[] {
    const result = spawnSync('fish', ['--no-config', '-c', `source '${setup.scripts.fish}'; complete -C '${line}'`], {
      env: setup.env as NodeJS.ProcessEnv,
      cwd: setup.dir,
      encoding: 'utf8',
    });
    expect(result.stderr).toBe('');
    return result.stdout
      .split('\n')
      .filter(Boolean)
      .map((entry) => entry.split('\t')[0]);
  }

  it('completes commands, flags, values and model ids', () => {
    expect(existsSync(setup.scripts.fish)).toBe(true);
    expect(fish('kct one-p')).toEqual(['one-pass']);
    expect(fish('kct one-pass --out')).toEqual(['--output']);
    expect(fish('kct one-pass --output ').sort()).toEqual(['csv', 'json', 'ndjson', 'table']);
    expect(fish('kct one-pass --output=nd')).toEqual(['--output=ndjson']);
    expect(fish('kct models show 1')).toContain('12');
    expect(fish('kct config set model 1')).toContain('12');
    expect(fish('kct config set output nd')).toEqual(['ndjson']);
    expect(fish('kct hel')).toEqual(['help']);
    expect(fish('kct help exit')).toEqual(['exit-codes']);
    expect(fish('kct help grades ').sort()).toEqual(['canvas', 'moodle']);
  });
});
