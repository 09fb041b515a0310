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

describe('kct sandbox --host 0.0.0.0', () => {
  it('warns that the URLs it gives out name an address other machines cannot use, unless --public-url names one', async () => {
    for (const publicUrl of [[], ['--public-url', 'http://teacher-laptop.local:4790']]) {
      const stop = new AbortController();
      const run = await runKct(['sandbox', '--host', '0.0.0.0', '--port', '0', '--data', tempDir(), ...publicUrl], {
        env: kctEnv(tempDir()),
        signal: stop.signal,
        timeoutMs: 30_000,
        onStdout: (_, all) => {
          if (all.includes('Stop with Ctrl-C.')) stop.abort();
        },
      });
      expect(run.stdout).toContain('kct sandbox listening at http://0.0.0.0:');
      if (publicUrl.length === 0)
        expect(run.stderr).toMatch(/warning: listening on every interface \(0\.0\.0\.0\).*pass --public-url http:\/\//);
      else expect(run.stderr).not.toContain('every interface');
    }
  });
});
