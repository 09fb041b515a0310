// The newcomer's path (issue 11, item 16): the README's quick start says how to run `kct` itself
// after `npm install`, and this test does exactly that: `npm link` (into a private prefix, so the
// machine's global folder is untouched), then the linked `kct`; and `npx kct` inside the clone.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, kctEnv, tempDir, useSandbox } from './harness.js';

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const quickStart = /## Quick start\n([\s\S]*?)\n## /.exec(readme)?.[1] ?? '';
const shared = useSandbox();

function sh(command: string, args: string[], env: NodeJS.ProcessEnv) {
  return spawnSync(command, args, { cwd: ROOT, env, encoding: 'utf8', timeout: 60_000 });
}

describe('the quick start', () => {
  it('says how to run kct after installing: npm link, npx kct, or npm install -g .', () => {
    expect(quickStart).toMatch(/^npm link\s/m);
    expect(quickStart).toMatch(/^kct --version/m);
    expect(quickStart).toContain('npx kct');
    expect(quickStart).toContain('npm install -g .');
  });

  it('npm link puts a working kct on the PATH', () => {
    const prefix = tempDir('kct-prefix-');
    const env = { ...process.env, npm_config_prefix: prefix, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
    const link = sh('npm', ['link', '--ignore-scripts'], env);
    expect(link.status, link.stderr).toBe(0);
    const kctEnvWithPath = { ...kctEnv(tempDir()), PATH: `${join(prefix, 'bin')}:${process.env.PATH}`, KCT_BASE_URL: shared.sandbox.baseUrl, KCT_API_KEY: shared.sandbox.keys.user } as NodeJS.ProcessEnv;
    const version = sh('kct', ['--version'], kctEnvWithPath);
    expect(version.status, version.stderr).toBe(0);
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(join(ROOT, 'packages', 'kct', 'package.json'), 'utf8')).version);
    const credits = sh('kct', ['credits'], kctEnvWithPath);
    expect(credits.status, credits.stderr).toBe(0);
    expect(credits.stdout).toMatch(/credits/);
  });

  it('npx kct works inside the clone', () => {
    const run = sh('npx', ['--no-install', 'kct', '--help'], { ...process.env, npm_config_update_notifier: 'false' });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('Usage: kct');
  });
});
