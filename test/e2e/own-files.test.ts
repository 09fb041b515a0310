// A class marked from inside its own folder, as a teacher types it in a shell: the journal, the report
// and the marks file kct writes land among the answers. The same command again (the way on after
// Ctrl-C) once stopped with "unsupported file type for run.journal"; now they are left out and said.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, creditsOf, FIXTURES, kctEnv, tempDir, useSandbox } from './harness.js';

const shared = useSandbox();

describe("kct's own files among the answers", () => {
  it('the journal, the report and the redirected output are left out, said, and the same command runs again free', async () => {
    const { sandbox } = shared;
    const dir = join(tempDir('kct-own-'), 'class');
    mkdirSync(dir);
    const essay = readFileSync(join(FIXTURES, 'essay.txt'), 'utf8');
    for (let i = 1; i <= 3; i++) writeFileSync(join(dir, `pupil-${i}.txt`), `${essay}\n(own files ${i})`);
    const env = kctEnv(tempDir(), { KCT_BASE_URL: sandbox.baseUrl, KCT_API_KEY: sandbox.keys.user });
    // the shell makes marks.csv before kct starts: empty, among the answers on the first run too
    const run = () =>
      spawnSync(
        'bash',
        ['-c', `'${process.execPath}' '${BIN}' one-pass . --model 12 --resume run.journal --report class.html --output csv > marks.csv`],
        { cwd: dir, env: env as NodeJS.ProcessEnv, encoding: 'utf8' },
      );
    const before = await creditsOf(shared.kct);
    const first = run();
    expect(first.status, first.stderr).toBe(0);
    expect(first.stderr).toContain('kct: not answers: marks.csv (its output): this command writes it');
    expect(before - (await creditsOf(shared.kct))).toBe(3);
    const again = run();
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).toContain(
      'kct: not answers: class.html (the --report), marks.csv (its output), run.journal (the --resume journal): this command writes them',
    );
    expect(before - (await creditsOf(shared.kct))).toBe(3);
    const rows = readFileSync(join(dir, 'marks.csv'), 'utf8').trim().split('\n');
    expect(rows).toHaveLength(4); // the header and the three pupils: no row for kct's own files
    expect(rows.slice(1).every((row) => row.includes('pupil-'))).toBe(true);
  });

  it('kct batch of a folder, its output redirected into it: the output is no answer, and nothing is charged for it', async () => {
    const { sandbox } = shared;
    const dir = join(tempDir('kct-own-batch-'), 'class');
    mkdirSync(dir);
    const essay = readFileSync(join(FIXTURES, 'essay.txt'), 'utf8');
    for (let i = 1; i <= 2; i++) writeFileSync(join(dir, `pupil-${i}.txt`), `${essay}\n(own files, batch ${i})`);
    writeFileSync(join(dir, 'marks.csv'), 'an earlier run\n');
    const env = kctEnv(tempDir(), { KCT_BASE_URL: sandbox.baseUrl, KCT_API_KEY: sandbox.keys.user });
    const before = await creditsOf(shared.kct);
    const run = spawnSync('bash', ['-c', `'${process.execPath}' '${BIN}' batch . --model 12 --output csv >> marks.csv`], {
      cwd: dir,
      env: env as NodeJS.ProcessEnv,
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toContain('not answers: marks.csv (its output): this command writes it');
    expect(before - (await creditsOf(shared.kct))).toBe(2);
  });
});
