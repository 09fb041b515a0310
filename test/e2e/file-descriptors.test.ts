// The machine's own limits, which only a real process has: a class of 600 files marked by a kct
// allowed 256 file descriptors (ulimit -n). The other failure paths are
// test/integration/failure-paths.test.ts.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, kctEnv, tempDir, useSandbox } from './harness.js';

const shared = useSandbox();

describe('machine limits', () => {
  it('a class of 600 files works with only 256 file descriptors', async () => {
    const dir = tempDir('kct-fds-');
    for (let i = 0; i < 600; i++) writeFileSync(join(dir, `a${i}.txt`), `Answer ${i}: uniforms help because they cost less.`);
    const env = kctEnv(tempDir(), { KCT_BASE_URL: shared.sandbox.baseUrl, KCT_API_KEY: shared.sandbox.keys.user });
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(
        'bash',
        ['-c', `ulimit -n 256 && exec "${process.execPath}" "${BIN}" one-pass "${dir}" --model 12 --no-wait --jobs 16 --output ndjson`],
        {
          env: env as NodeJS.ProcessEnv,
        },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    expect(result.stderr).not.toContain('EMFILE');
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(600);
  }, 180_000);
});
