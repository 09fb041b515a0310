// A reader that closes kct's stdout early (`kct ... | head -1`): only a real process shows EPIPE
// and how it ends. The rest of the exit-code table is test/integration/exit-codes.test.ts.
import { describe, expect, it } from 'vitest';
import { runKct } from './harness.js';

describe('stdout closed by its reader', () => {
  it('a reader that closes the pipe early (kct ... | head -1) ends kct quietly', async () => {
    const run = await runKct(['help', 'one-pass'], {
      onSpawn(child) {
        child.stdout!.once('data', () => child.stdout!.destroy());
      },
    });
    expect(run.stderr).not.toContain('EPIPE');
    expect(run.code).toBe(0);
  });
});
