// docs/ci.md's GitHub Actions and GitLab CI recipes, run as written: their shell steps in bash
// (-e -o pipefail, as the runners do) against a sandbox, then the files their artifact steps
// upload are checked. Only the install of vendor/kct-<version>.tgz is stood in for (the real
// tarball's install is test/e2e/install-docs.test.ts's): a stand-in `npm` on PATH links the kct
// being tested, once it finds the tarball the line names.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BIN, kctEnv, ROOT, tempDir, useSandbox } from './harness.js';

const shared = useSandbox();
const doc = readFileSync(join(ROOT, 'docs', 'ci.md'), 'utf8');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** The YAML block whose first line is `# <file>`. */
function recipe(file: string): Record<string, unknown> {
  const blocks = [...doc.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => match[1]);
  const block = blocks.find((text) => text.startsWith(`# ${file}\n`));
  if (!block) throw new Error(`docs/ci.md has no yaml block starting with "# ${file}"`);
  return parse(block) as Record<string, unknown>;
}

/** A checked-out repository: answers/ with two essays, and a PATH whose npm installs this kct. */
function workspace(): { dir: string; path: string } {
  const dir = tempDir('kct-ci-');
  mkdirSync(join(dir, 'answers'));
  writeFileSync(
    join(dir, 'answers', 's-001.txt'),
    'School uniforms save families money and time. They also reduce pressure to follow fashion, so students can focus on learning.',
  );
  writeFileSync(
    join(dir, 'answers', 's-002.txt'),
    'Uniforms limit how students express themselves. Schools should teach respect for difference instead of making everyone look the same.',
  );
  mkdirSync(join(dir, 'vendor'));
  writeFileSync(join(dir, 'vendor', `kct-${VERSION}.tgz`), '');
  const bin = join(dir, '.bin');
  mkdirSync(bin);
  writeFileSync(
    join(bin, 'npm'),
    `#!/bin/sh
# stand-in for the install of the committed tarball: links the kct under test
if [ "$1" = install ] && [ "$2" = --global ] && [ "$3" = ./vendor/kct-${VERSION}.tgz ] && [ -f "$3" ]; then
  ln -sf "${BIN}" "${bin}/kct" && echo "added 1 package (test stand-in)" && exit 0
fi
echo "npm stand-in: unexpected arguments: $*" >&2; exit 1
`,
  );
  chmodSync(join(bin, 'npm'), 0o755);
  return { dir, path: `${bin}:${process.env.PATH}` };
}

function bash(
  script: string,
  cwd: string,
  env: Record<string, string | undefined>,
): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {
    cwd,
    env: env as NodeJS.ProcessEnv,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function ciSettings(): Record<string, string> {
  return { KCT_API_KEY: shared.sandbox.keys.user, KCT_BASE_URL: shared.sandbox.baseUrl, KCT_MODEL: '12' };
}

function expectMarks(dir: string): void {
  const rows = readFileSync(join(dir, 'marks.csv'), 'utf8').trim().split('\n');
  expect(rows[0]).toMatch(/^file,student_id,task_id,status,score/);
  expect(rows).toHaveLength(3);
  for (const row of rows.slice(1)) expect(row).toContain(',SUCCESS,');
}

describe('docs/ci.md recipes', () => {
  it('GitHub Actions: every run step passes and the artifact holds the marks', () => {
    const workflow = recipe('.github/workflows/marking.yml') as {
      jobs: Record<string, { env: Record<string, string>; steps: Record<string, unknown>[] }>;
    };
    const job = Object.values(workflow.jobs)[0];
    const settings = ciSettings();
    // ${{ secrets.X }} and ${{ vars.X }} as GitHub fills them in
    const jobEnv = Object.fromEntries(
      Object.entries(job.env).map(([name, value]) => [
        name,
        value.replace(/\$\{\{\s*(?:secrets|vars)\.(\w+)\s*\}\}/g, (_, key: string) => settings[key] ?? ''),
      ]),
    );
    expect(jobEnv.KCT_API_KEY).toBe(shared.sandbox.keys.user);
    const { dir, path } = workspace();
    const env = { ...kctEnv(tempDir()), ...jobEnv, PATH: path, GITHUB_ACTIONS: 'true' };
    const ran: string[] = [];
    for (const step of job.steps) {
      if (typeof step.run === 'string') {
        const result = bash(step.run, dir, env);
        expect(result.status, `step "${String(step.name)}": ${step.run}\n${result.stderr}`).toBe(0);
        ran.push(step.run);
      } else if (String(step.uses).startsWith('actions/upload-artifact')) {
        const artifact = (step.with as { path: string }).path;
        expect(existsSync(join(dir, artifact)), `the artifact ${artifact} exists`).toBe(true);
      }
    }
    expect(ran).toEqual([
      `npm install --global ./vendor/kct-${VERSION}.tgz`,
      'kct doctor',
      'kct one-pass answers/ --output csv > marks.csv',
    ]);
    expectMarks(dir);
  });

  it('GitLab CI: before_script and script pass and the artifact holds the marks', () => {
    const pipeline = recipe('.gitlab-ci.yml') as Record<
      string,
      { before_script: string[]; script: string[]; variables?: Record<string, string>; artifacts: { paths: string[] } }
    >;
    const job = pipeline.mark;
    const { dir, path } = workspace();
    // CI/CD variables from the project settings, then the job's own
    const env = { ...kctEnv(tempDir()), ...ciSettings(), ...job.variables, PATH: path, GITLAB_CI: 'true' };
    // GitLab runs the lines of before_script and script in one shell that stops at the first failure
    const result = bash([...job.before_script, ...job.script].join('\n'), dir, env);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/ok\s+key accepted/);
    for (const artifact of job.artifacts.paths) expect(existsSync(join(dir, artifact)), `the artifact ${artifact} exists`).toBe(true);
    expectMarks(dir);
  });

  it('the recipes stop at kct doctor, with its exit code, when the key is refused', () => {
    const pipeline = recipe('.gitlab-ci.yml') as Record<string, { before_script: string[]; script: string[] }>;
    const { dir, path } = workspace();
    const env = { ...kctEnv(tempDir()), ...ciSettings(), KCT_API_KEY: 'kct_revoked_0000000000000000', PATH: path };
    const result = bash([...pipeline.mark.before_script, ...pipeline.mark.script].join('\n'), dir, env);
    expect(result.status).toBe(4);
    expect(result.stdout).toMatch(/fail\s+key accepted/);
    expect(existsSync(join(dir, 'marks.csv'))).toBe(false);
  });

  it("a job whose key secret is not set: the marking line still writes each answer's NOT_SENT row to marks.csv, exit 4", () => {
    const { dir, path } = workspace();
    // an unset GitHub secret expands to the empty string, which kct reads as no key
    const env = { ...kctEnv(tempDir()), ...ciSettings(), KCT_API_KEY: '', PATH: path };
    const result = bash(`npm install --global ./vendor/kct-${VERSION}.tgz\nkct one-pass answers/ --output csv > marks.csv`, dir, env);
    expect(result.status, result.stderr).toBe(4);
    expect(result.stderr).toContain('error: no API key');
    const rows = readFileSync(join(dir, 'marks.csv'), 'utf8').trim().split('\n');
    expect(rows[0]).toMatch(/^file,student_id,task_id,status,score/);
    expect(rows.slice(1).sort()).toEqual([
      'answers/s-001.txt,s-001,,NOT_SENT,,,not sent: no API key,',
      'answers/s-002.txt,s-002,,NOT_SENT,,,not sent: no API key,',
    ]);
  });
});
