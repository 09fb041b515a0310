// Bash completion of model ids with a typed --base-url: bash splits http://host:port/v1 at each ":"
// (COMP_WORDBREAKS), and the script must join the words back so the model lookup gets the whole URL,
// which overrides KCT_BASE_URL (here a dead one). Pressed Tab in a real interactive bash, and
// through the script's function with the words as bash splits them.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, kctEnv, removeDir, runKct, tempDir, useSandbox } from './harness.js';
import { ShellSession, unavailable } from './shell-session.js';

const shared = useSandbox();
const why = unavailable('bash');
let dir: string;
let env: Record<string, string | undefined>;
let script: string;

beforeAll(async () => {
  dir = tempDir('kct-completion-url-');
  // `kct` on PATH, as a user has it after installing
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'kct'), `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`);
  chmodSync(join(bin, 'kct'), 0o755);
  env = {
    ...kctEnv(join(dir, 'config'), { KCT_BASE_URL: 'http://127.0.0.1:9/v1', KCT_API_KEY: shared.sandbox.keys.user, KCT_MAX_RETRIES: '0' }),
    PATH: `${bin}:${process.env.PATH}`,
    XDG_CACHE_HOME: join(dir, 'cache'),
  };
  const run = await runKct(['completion', 'bash'], { env });
  expect(run.code, run.stderr).toBe(0);
  script = join(dir, 'kct.bash');
  writeFileSync(script, run.stdout);
});

afterAll(() => {
  if (dir) removeDir(dir);
});

/** The words of a line as bash's completion splits them: an unquoted ":" or "=" is a word of its own. */
function split(line: string): string[] {
  return line.split(' ').flatMap((word) => word.split(/([:=])/).filter((part) => part !== ''));
}

function offered(line: string): string[] {
  const words = [...split(line), ''];
  const program = `source '${script}'
COMP_WORDS=(${words.map((word) => `'${word}'`).join(' ')})
COMP_CWORD=$((\${#COMP_WORDS[@]} - 1))
_kct
printf '%s\\n' "\${COMPREPLY[@]}"`;
  const result = spawnSync('bash', ['--noprofile', '--norc', '-c', program], { env: env as NodeJS.ProcessEnv, cwd: dir, encoding: 'utf8' });
  expect(result.stderr).toBe('');
  return result.stdout.split('\n').filter(Boolean);
}

describe('bash completion with a typed --base-url', () => {
  it('passes the whole URL to the model lookup, before or after the command, also as --base-url=', () => {
    const url = shared.sandbox.baseUrl;
    expect(offered(`kct --base-url ${url} one-pass --model`)).toEqual(['12', '13', '14']);
    expect(offered(`kct one-pass --base-url ${url} --model`)).toEqual(['12', '13', '14']);
    expect(offered(`kct one-pass --base-url=${url} -m`)).toEqual(['12', '13', '14']);
    expect(offered(`kct --base-url ${url} models show`)).toEqual(['12', '13', '14']);
    // the URL's words are one argument: the command after it is still found
    expect(offered(`kct --base-url ${url} one-pass --output`)).toEqual(['table', 'json', 'ndjson', 'csv']);
    // the typed URL is the one asked (KCT_BASE_URL, dead here, is not)
    expect(offered('kct --base-url http://127.0.0.1:9/v1 one-pass --model')).toEqual([]);
  });

  it.skipIf(why)('offers the model ids on Tab in a real bash', async () => {
    const session = await ShellSession.start('bash', { dir: join(dir, 'session'), cwd: dir, script, env, realKct: true });
    try {
      const url = shared.sandbox.baseUrl;
      expect(await session.complete(`kct --base-url ${url} one-pass --model 13`)).toBe(`kct --base-url ${url} one-pass --model 13 `);
      expect(await session.complete(`kct one-pass --base-url ${url} -m 14`)).toBe(`kct one-pass --base-url ${url} -m 14 `);
    } finally {
      await session.close();
    }
  });
});
