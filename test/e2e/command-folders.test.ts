// One folder per command, a group's subcommands in folders inside its own: `kct --help` reads every
// command's declaration (command.ts) and loads no command's code (run.ts); a command loads its own
// run.ts only. Modules are listed with the start-up benchmark's --import hook (bench/module-list.js).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { kctEnv, ROOT, removeDir, runKct, tempDir } from './harness.js';

const dir = tempDir();
afterAll(() => removeDir(dir));

async function modulesOf(
  name: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; modules: string[]; all: string[] }> {
  const file = join(dir, `${name}.txt`);
  const result = await runKct(args, {
    env: kctEnv(dir, {
      ...env,
      KCT_NO_HELP_CACHE: '1',
      BENCH_MODULES_FILE: file,
      NODE_OPTIONS: `--import=${join(ROOT, 'bench', 'module-list.js')}`,
    }),
  });
  const all = readFileSync(file, 'utf8').split('\n');
  const modules = all.filter((line) => line.includes('/dist/commands/'));
  return { ...result, all, modules: modules.map((line) => line.replace(/^.*\/dist\/commands\//, '')) };
}

/** The flag checks a declaration imports (checked where the flag is declared): small, and nothing else of the command. */
const FLAG_CHECKS = ['grades/flags.js', 'assign/dates.js', 'sandbox/checks.js', 'callbacks/listen/checks.js'];
const declarationOnly = (module: string) => module.endsWith('/command.js') || FLAG_CHECKS.includes(module);

describe('command folders', () => {
  it('kct --help imports every command.ts, no run.ts and not zod (schemas are built when a command runs)', async () => {
    const { code, stdout, modules, all } = await modulesOf('help', ['--help']);
    expect(all.some((line) => line.includes('/dist/cli/core/program.js'))).toBe(true);
    expect(all.filter((line) => line.includes('/node_modules/zod/'))).toEqual([]);
    expect(code).toBe(0);
    expect(stdout).toContain('one-pass');
    expect(modules).toEqual(
      expect.arrayContaining(['credits/command.js', 'models/show/command.js', 'ingest/command.js', 'sandbox/command.js']),
    );
    expect(modules.filter((module) => !declarationOnly(module))).toEqual([]);
  });

  it('kct --json --version (answered by the CLI, not bin/) is kct version --json: it imports that run.ts and no other', async () => {
    const { code, stdout, modules } = await modulesOf('version-flag', ['--json', '--version']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    expect(modules.filter((module) => module.endsWith('/run.js'))).toEqual(['version/run.js']);
  });

  it('kct version imports its own run.ts and no other', async () => {
    const { code, modules } = await modulesOf('version', ['version']);
    expect(code).toBe(0);
    expect(modules.filter((module) => !declarationOnly(module))).toEqual(['version/run.js']);
  });

  it('kct ingest questions imports the shared ingest module, not its sibling ingest rubrics', async () => {
    const { code, modules } = await modulesOf('ingest', ['ingest', 'questions', 'missing.pdf']);
    expect(code).not.toBe(0);
    expect(modules).toContain('ingest/questions/run.js');
    expect(modules).not.toContain('ingest/rubrics/run.js');
  });

  it('kct one-pass loads zod without its locales, and the report only with --report', async () => {
    const answer = join(dir, 'answer.txt');
    writeFileSync(answer, 'An answer about photosynthesis.\n');
    // nothing listens on port 9: the run loads what a run loads, then fails to connect, at once
    const unreachable = { KCT_BASE_URL: 'http://127.0.0.1:9/v1', KCT_API_KEY: 'kct_test_key_not_sent', KCT_MAX_RETRIES: '0' };
    const plain = await modulesOf('one-pass', ['one-pass', answer, '--model', '12', '--no-wait'], unreachable);
    expect(plain.code).not.toBe(0);
    expect(plain.all.some((line) => line.includes('/node_modules/undici/'))).toBe(true);
    // src/api/zod.ts names the builders kct calls: zod's own namespace would bring its 64 locales
    expect(plain.all.filter((line) => line.includes('/zod/v4/locales/')).map((line) => line.replace(/^.*\/locales\//, ''))).toEqual([
      'en.js',
    ]);
    expect(plain.all.filter((line) => line.includes('/dist/cli/report/'))).toEqual([]);
    const reported = await modulesOf(
      'one-pass-report',
      ['one-pass', answer, '--model', '12', '--no-wait', '--report', join(dir, 'r.html')],
      unreachable,
    );
    expect(reported.code).not.toBe(0);
    expect(reported.all.some((line) => line.includes('/dist/cli/report/html.js'))).toBe(true);
  });

  it('a bad value checked by the options schema is exit 2, named, before anything is sent or written', async () => {
    const result = await runKct(
      ['ingest', 'rubrics', 'rubric.txt', '--total-score', 'lots', '--cum-method', 'sum', '-o', join(dir, 'r.yaml')],
      { env: kctEnv(dir, { KCT_BASE_URL: 'http://127.0.0.1:9/v1', KCT_API_KEY: 'kct_test_key_not_sent' }) },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--total-score must be a positive number, not "lots"');
    expect(result.stderr).not.toContain('kct_test_key_not_sent');
  });
});
