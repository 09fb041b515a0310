// A student folder kct may not read (its permissions) is one answer that cannot be sent, like an
// unreadable file: refused with the others before anything is sent, or a SKIPPED row under
// --skip-unsupported while the rest are marked. It stopped the whole run. Permissions bind only a
// user who is not root: as root, kct runs as `nobody` (runuser), and the test is skipped when that cannot be.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { essay } from './class-fixture.js';
import { BIN, kctEnv, parseJson, runKct, type Sandbox, startSandbox, tempDir } from './harness.js';

const root = process.getuid?.() === 0;
/** As root: whether `nobody` can run the built kct from where it is (a clone under /root cannot). */
const asNobody = root && spawnSync('runuser', ['-u', 'nobody', '--', 'test', '-r', BIN]).status === 0;
const possible = process.platform !== 'win32' && (!root || asNobody);

let sandbox: Sandbox;
beforeAll(async () => {
  if (possible) sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox?.stop();
});

function run(args: string[], cwd: string, home: string) {
  const env = kctEnv(home, { KCT_BASE_URL: sandbox.baseUrl, KCT_API_KEY: sandbox.keys.user, KCT_STATE_DIR: join(home, 'state') });
  if (!root) return runKct(args, { env, cwd });
  const pairs = Object.entries(env).flatMap(([name, value]) => (value === undefined ? [] : [`${name}=${value}`]));
  return runKct(['-u', 'nobody', '--', 'env', '-i', ...pairs, process.execPath, BIN, ...args], { executable: 'runuser', cwd });
}

describe.runIf(possible)('a student folder kct may not read', () => {
  it('is refused with the others before anything is sent, naming --exclude; under --skip-unsupported a SKIPPED row, the others marked', async () => {
    const dir = tempDir('kct-unreadable-');
    const home = join(dir, 'home');
    mkdirSync(home);
    for (const student of ['Ann', 'Bob', 'Cat']) {
      mkdirSync(join(dir, 'class', student), { recursive: true });
      writeFileSync(join(dir, 'class', student, 'essay.txt'), `${essay}\n(${dir} ${student})`);
    }
    spawnSync('chmod', ['-R', 'a+rwX', dir]);
    chmodSync(join(dir, 'class', 'Cat'), 0o000);

    const refused = await run(['one-pass', 'class', '--model', '12', '--group-by', 'folder', '--output', 'ndjson'], dir, home);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain('error: cannot read the folder class/Cat/ (EACCES)');
    expect(refused.stderr).toContain('leave it out with --exclude "Cat"');
    expect(refused.stderr).toContain('Nothing was sent.');

    const skipped = await run(
      ['one-pass', 'class', '--model', '12', '--group-by', 'folder', '--skip-unsupported', '--output', 'ndjson'],
      dir,
      home,
    );
    expect(skipped.code, skipped.stderr).toBe(0);
    const rows = skipped.stdout
      .trim()
      .split('\n')
      .map((line) => parseJson<{ file: string; status: string; message?: string }>(line));
    expect(rows.map((row) => [row.file, row.status]).sort()).toEqual([
      ['class/Ann/', 'SUCCESS'],
      ['class/Bob/', 'SUCCESS'],
      ['class/Cat/', 'SKIPPED'],
    ]);
    expect(rows.find((row) => row.status === 'SKIPPED')?.message).toContain('cannot read the folder class/Cat/ (EACCES)');
    expect(skipped.stderr).toContain('skipping 1 folder (class/Cat/) that cannot be sent (--skip-unsupported)');
  });

  it('an unreadable file beside an unreadable folder: each named with its own --exclude, which then marks the rest', async () => {
    const dir = tempDir('kct-unreadable-file-');
    const home = join(dir, 'home');
    mkdirSync(home);
    mkdirSync(join(dir, 'class', 'locked'), { recursive: true });
    for (const name of ['ann.txt', 'bob.txt', join('locked', 'cat.txt')])
      writeFileSync(join(dir, 'class', name), `${essay}\n(${dir} ${name})`);
    spawnSync('chmod', ['-R', 'a+rwX', dir]);
    chmodSync(join(dir, 'class', 'bob.txt'), 0o000);
    chmodSync(join(dir, 'class', 'locked'), 0o000);

    const refused = await run(['one-pass', 'class', '--model', '12', '--recursive', '--output', 'ndjson'], dir, home);
    expect(refused.code, refused.stderr).toBe(2);
    // each hint names what it is about, not a kind ("unreadable files") that reads oddly beside a folder
    expect(refused.stderr).toContain('class/bob.txt: Check its permissions, or leave it out with --exclude "bob.txt".');
    expect(refused.stderr).toContain('class/locked/: Check its permissions, or leave it out with --exclude "locked".');
    expect(refused.stderr).not.toContain('unreadable files');

    const excluded = await run(
      ['one-pass', 'class', '--model', '12', '--recursive', '--exclude', 'bob.txt', '--exclude', 'locked', '--output', 'ndjson'],
      dir,
      home,
    );
    expect(excluded.code, excluded.stderr).toBe(0);
    expect(
      excluded.stdout
        .trim()
        .split('\n')
        .map((line) => parseJson<{ file: string; status: string }>(line)),
    ).toEqual([expect.objectContaining({ file: 'class/ann.txt', status: 'SUCCESS' })]);
  });
});
