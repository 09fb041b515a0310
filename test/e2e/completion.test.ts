// Shell completion: each script loaded in a real shell and asked for completions, including model
// ids from a real sandbox through the 60-second cache. bash is required; zsh and fish are tested
// where installed (Debian: apt-get install zsh fish).
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, kctEnv, runKct, tempDir, useSandbox } from './harness.js';

const shared = useSandbox();
const has = (shell: string) => spawnSync(shell, ['-c', 'exit 0']).status === 0;

let dir: string;
let env: Record<string, string | undefined>;
const scripts: Record<string, string> = {};

beforeAll(async () => {
  dir = tempDir('kct-completion-');
  // `kct` on PATH, as a user has it after installing
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'kct'), `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`);
  chmodSync(join(bin, 'kct'), 0o755);
  env = {
    ...kctEnv(join(dir, 'config'), { KCT_BASE_URL: shared.sandbox.baseUrl, KCT_API_KEY: shared.sandbox.keys.user }),
    PATH: `${bin}:${process.env.PATH}`,
    XDG_CACHE_HOME: join(dir, 'cache'),
  };
  for (const shell of ['bash', 'zsh', 'fish']) {
    const run = await runKct(['completion', shell], { env });
    expect(run.code, run.stderr).toBe(0);
    scripts[shell] = join(dir, `kct.${shell}`);
    writeFileSync(scripts[shell], run.stdout);
  }
});

/** What bash's programmable completion offers for the words typed so far ("" is the word being typed). */
function bash(words: string[]): string[] {
  const script = `source '${scripts.bash}'
COMP_WORDS=(${words.map((word) => `'${word}'`).join(' ')})
COMP_CWORD=$((\${#COMP_WORDS[@]} - 1))
_kct
printf '%s\\n' "\${COMPREPLY[@]}"`;
  const result = spawnSync('bash', ['--noprofile', '--norc', '-c', script], { env: env as NodeJS.ProcessEnv, cwd: dir, encoding: 'utf8' });
  expect(result.stderr).toBe('');
  return result.stdout.split('\n').filter(Boolean);
}

describe('kct completion bash', () => {
  it('completes commands, subcommands and flags from the command tree', () => {
    expect(bash(['kct', 'one-p'])).toEqual(['one-pass']);
    expect(bash(['kct', 'one-pass', '--out'])).toEqual(['--output']);
    expect(bash(['kct', 'mo'])).toEqual(['models']);
    expect(bash(['kct', 'models', ''])).toEqual(['show', 'create', 'new']);
    expect(bash(['kct', 'callbacks', 'l'])).toEqual(['listen']);
    expect(bash(['kct', '--profile', 'school', 'auth', 's'])).toEqual(['status']);
    expect(bash(['kct', 'one-pass', '--no-'])).toEqual(['--no-wait', '--no-color', '--no-pager']);
    expect(bash(['kct', 'sandbox', '--allow'])).toEqual(['--allow-private-callbacks']);
    expect(bash(['kct', 'keys', ''])).toEqual(['create', 'list', 'revoke']);
    expect(bash(['kct', 'keys', 'list', '--pa'])).toEqual(['--password-stdin']);
  });

  it('completes enum values: --output, --style, --cum-method, also after --flag=', () => {
    expect(bash(['kct', 'one-pass', '--output', ''])).toEqual(['table', 'json', 'ndjson', 'csv']);
    expect(bash(['kct', 'one-pass', '--style', ''])).toEqual(['Bullet', 'Short', 'Long']);
    expect(bash(['kct', 'one-pass', '--cum-method', 'a'])).toEqual(['average']);
    expect(bash(['kct', 'rewrite', 'tsk_1', '--style', 'p'])).toEqual(['paragraph']);
    expect(bash(['kct', 'one-pass', '--output', '=', 'nd'])).toEqual(['ndjson']);
    expect(bash(['kct', 'completion', ''])).toEqual(['bash', 'zsh', 'fish']);
    expect(bash(['kct', 'config', 'set', ''])).toEqual(['base_url', 'model', 'output', 'product_url', 'account']);
    expect(bash(['kct', 'keys', 'create', '--scope', ''])).toEqual(['user', 'organization']);
    expect(bash(['kct', 'config', 'set', 'model', ''])).toEqual([]);
  });

  it('completes files where a command takes them, and nothing after a flag that takes free text', () => {
    mkdirSync(join(dir, 'answers'), { recursive: true });
    writeFileSync(join(dir, 'answers', 'essay-1.txt'), 'x');
    expect(bash(['kct', 'one-pass', 'answers/ess'])).toEqual(['answers/essay-1.txt']);
    expect(bash(['kct', 'one-pass', '--rubric-file', 'answers/e'])).toEqual(['answers/essay-1.txt']);
    expect(bash(['kct', 'one-pass', '--question-text', ''])).toEqual([]);
  });

  it('completes model ids from the API, cached for 60 seconds in a private file', () => {
    expect(bash(['kct', 'one-pass', '--model', ''])).toEqual(['12', '13', '14']);
    const cacheDir = join(dir, 'cache', 'kct');
    const [file] = readdirSync(cacheDir);
    expect(file).toMatch(/^completion-models-[0-9a-f]{16}\.json$/);
    expect(statSync(join(cacheDir, file)).mode & 0o777).toBe(0o600);
    expect(statSync(cacheDir).mode & 0o777).toBe(0o700);
    const text = readFileSync(join(cacheDir, file), 'utf8');
    expect(text).not.toContain(shared.sandbox.keys.user);

    // a fresh cache answers without asking the API: change it and see the change
    const cached = JSON.parse(text) as { fetched_at: number; models: { id: string }[] };
    writeFileSync(join(cacheDir, file), JSON.stringify({ ...cached, models: [{ id: '999', name: 'cached', status: 'ready' }] }));
    expect(bash(['kct', 'models', 'show', ''])).toEqual(['999']);
    expect(bash(['kct', 'doctor', '--mark', '9'])).toEqual(['999']);
    // a stale one is fetched again
    writeFileSync(join(cacheDir, file), JSON.stringify({ fetched_at: cached.fetched_at - 61_000, models: [{ id: '999', name: 'old', status: 'ready' }] }));
    expect(bash(['kct', 'one-pass', '-m', '1'])).toEqual(['12', '13', '14']);
  });

  it('passes --profile and --base-url on to the model lookup; prints nothing when the API cannot answer', async () => {
    const ids = bash(['kct', '--base-url', 'http://127.0.0.1:9/v1', 'one-pass', '--model', '']);
    expect(ids).toEqual([]);
    const direct = await runKct(['__complete', 'model-ids'], { env: { ...env, KCT_BASE_URL: 'http://127.0.0.1:9/v1', KCT_MAX_RETRIES: '0' } });
    expect(direct.code).toBe(0);
    expect(direct.stdout + direct.stderr).toBe('');
  });

  it('rejects a shell it does not know', async () => {
    const run = await runKct(['completion', 'tcsh'], { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('bash, zsh, fish');
  });
});

describe.skipIf(!has('zsh'))('kct completion zsh', () => {
  /** The script's _kct with zsh's completion builtins stood in for: compadd filters by the typed prefix, as zsh does. */
  function zsh(words: string[]): string[] {
    const script = `compdef() { :; }
compset() { [[ "$1" == -P ]] && PREFIX="\${PREFIX#*=}"; return 0; }
compadd() { while [[ $# -gt 0 && "$1" != "--" ]]; do shift; done; shift; local w; for w in "$@"; do [[ "$w" == "$PREFIX"* ]] && print -r -- "$w"; done; }
_files() { print -r -- '<files>'; }
_describe() { local -a items; items=("\${(@P)4}"); local w; for w in "\${items[@]}"; do [[ "$w" == "$PREFIX"* ]] && print -r -- "\${w%%:*}"; done; }
source '${scripts.zsh}'
words=(${words.map((word) => `'${word}'`).join(' ')})
CURRENT=\${#words}
PREFIX="\${words[CURRENT]}"
_kct`;
    const result = spawnSync('zsh', ['-f', '-c', script], { env: env as NodeJS.ProcessEnv, cwd: dir, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    return result.stdout.split('\n').filter(Boolean);
  }

  it('completes commands, flags, values and model ids', () => {
    expect(spawnSync('zsh', ['-n', scripts.zsh]).status).toBe(0);
    expect(zsh(['kct', 'one-p'])).toEqual(['one-pass']);
    expect(zsh(['kct', 'one-pass', '--out'])).toEqual(['--output']);
    expect(zsh(['kct', 'one-pass', '--output', ''])).toEqual(['table', 'json', 'ndjson', 'csv']);
    expect(zsh(['kct', 'one-pass', '--output=nd'])).toEqual(['ndjson']);
    expect(zsh(['kct', 'one-pass', ''])).toEqual(['<files>']);
    expect(zsh(['kct', 'models', 'show', '1'])).toContain('12');
  });
});

describe.skipIf(!has('fish'))('kct completion fish', () => {
  function fish(line: string): string[] {
    const result = spawnSync('fish', ['--no-config', '-c', `source '${scripts.fish}'; complete -C '${line}'`], { env: env as NodeJS.ProcessEnv, cwd: dir, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    return result.stdout.split('\n').filter(Boolean).map((entry) => entry.split('\t')[0]);
  }

  it('completes commands, flags, values and model ids', () => {
    expect(existsSync(scripts.fish)).toBe(true);
    expect(fish('kct one-p')).toEqual(['one-pass']);
    expect(fish('kct one-pass --out')).toEqual(['--output']);
    expect(fish('kct one-pass --output ').sort()).toEqual(['csv', 'json', 'ndjson', 'table']);
    expect(fish('kct one-pass --output=nd')).toEqual(['--output=ndjson']);
    expect(fish('kct models show 1')).toContain('12');
  });
});
