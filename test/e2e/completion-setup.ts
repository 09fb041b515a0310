// The completion scripts of the built kct, written to a private folder with `kct` on PATH and a
// real sandbox's base URL and key in the environment, for the completion tests in real shells.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { BIN, kctEnv, removeDir, runKct, type Sandbox, tempDir } from './harness.js';

export const has = (shell: string) => spawnSync(shell, ['-c', 'exit 0']).status === 0;

export interface CompletionSetup {
  dir: string;
  env: Record<string, string | undefined>;
  /** The script file of each shell. */
  scripts: Record<string, string>;
}

/** Written before the file's tests (the sandbox started first), removed after them. */
export function useCompletionScripts(shared: { sandbox: Sandbox }): CompletionSetup {
  const setup: CompletionSetup = { dir: '', env: {}, scripts: {} };
  beforeAll(async () => {
    const dir = tempDir('kct-completion-');
    setup.dir = dir;
    // `kct` on PATH, as a user has it after installing
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'kct'), `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`);
    chmodSync(join(bin, 'kct'), 0o755);
    setup.env = {
      ...kctEnv(join(dir, 'config'), { KCT_BASE_URL: shared.sandbox.baseUrl, KCT_API_KEY: shared.sandbox.keys.user }),
      PATH: `${bin}:${process.env.PATH}`,
      XDG_CACHE_HOME: join(dir, 'cache'),
    };
    for (const shell of ['bash', 'zsh', 'fish']) {
      const run = await runKct(['completion', shell], { env: setup.env });
      expect(run.code, run.stderr).toBe(0);
      setup.scripts[shell] = join(dir, `kct.${shell}`);
      writeFileSync(setup.scripts[shell], run.stdout);
    }
  });
  afterAll(() => {
    if (setup.dir) removeDir(setup.dir);
  });
  return setup;
}
