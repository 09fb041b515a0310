// The perimeter flags of `kct sandbox` (issue 12), malformed: a usage error (exit 2) naming the
// flag, before anything starts. In-process; the flags in effect are test/e2e/sandbox-flags.test.ts.
import { describe, expect, it } from 'vitest';
import { kctEnv, runKct, tempDir } from './harness.js';

describe('kct sandbox perimeter flags', () => {
  it.each([
    [['--public-url', 'ftp://sandbox.example'], '--public-url must be an http(s) origin'],
    [['--public-url', 'https://sandbox.example/v1'], '--public-url must be an http(s) origin'],
    [['--request-timeout', '0s'], '--request-timeout must be greater than zero'],
    [['--idle-timeout', 'soon'], '--idle-timeout: "soon" is not a duration'],
    [['--threads', '0'], '--threads'],
    [['--max-connections', '-3'], '--max-connections'],
    [['--max-key-connections', '0'], '--max-key-connections'],
    [['--rate-limit', '0'], '--rate-limit must be a number of requests a second, at least 0.001, not "0"'],
    [['--rate-limit', 'fast'], '--rate-limit must be a number of requests a second'],
  ])('%j is a usage error (exit 2) naming the flag', async (args, words) => {
    const run = await runKct(['sandbox', '--port', '0', '--data', tempDir(), ...args], { env: kctEnv(tempDir()), timeoutMs: 20_000 });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(words);
  });
});
