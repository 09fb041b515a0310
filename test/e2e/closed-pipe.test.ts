// A reader that closes kct's stdout early (`kct ... | head -1`): only a real process shows EPIPE
// and how it ends. The rest of the exit-code table is test/integration/exit-codes.test.ts.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { essay } from './class-fixture.js';
import { asUser, runKct, startSandbox, tempDir } from './harness.js';

describe('stdout closed by its reader', () => {
  it('a reader that closes the pipe early (kct help ... | head -1) ends kct quietly: 0 when all was written, else 141', async () => {
    const run = await runKct(['help', 'one-pass'], {
      onSpawn(child) {
        child.stdout!.once('data', () => child.stdout!.destroy());
      },
    });
    expect(run.stderr).not.toContain('EPIPE');
    // whether help was written in one piece or more is the runtime's: cut or not, never a crash
    expect([0, 141]).toContain(run.code);
  });

  it('a class run whose reader stops early (kct one-pass answers/ | head -1): quiet, and 141 as a SIGPIPE gives, never 0', async () => {
    const sandbox = await startSandbox();
    try {
      const dir = tempDir('kct-closed-pipe-');
      mkdirSync(join(dir, 'answers'));
      for (let i = 1; i <= 20; i++) writeFileSync(join(dir, 'answers', `s${i}.txt`), `${essay}\n(${dir} ${i})`);
      const run = await asUser(sandbox)(['one-pass', join(dir, 'answers'), '--model', '12', '--output', 'ndjson'], {
        onSpawn(child) {
          child.stdout!.once('data', () => child.stdout!.destroy());
        },
      });
      expect(run.stderr).not.toContain('EPIPE');
      expect(run.code).toBe(141);
    } finally {
      await sandbox.stop();
    }
  });
});
