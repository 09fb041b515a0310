// Logging in on a real terminal (a pseudo-terminal, util-linux `script`): the key is asked for
// without being echoed, then stored. The rest of kct on the wire is test/integration/network.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inTerminal, kctEnv, tempDir, useSandbox } from './harness.js';

const shared = useSandbox();

describe('on a terminal', () => {
  it('asks for the key without echoing it, then stores it', async () => {
    const dir = tempDir();
    const env = { ...kctEnv(dir), CI: undefined };
    const run = await inTerminal(['auth', 'login', '--base-url', shared.sandbox.baseUrl], env, `${shared.sandbox.keys.user}\r`);
    expect(run.output).toContain('API key');
    expect(run.output).toContain('Logged in');
    expect(run.output).not.toContain(shared.sandbox.keys.user);
    expect(run.code).toBe(0);
    const stored = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as { profiles: { default: { api_key: string } } };
    expect(stored.profiles.default.api_key).toBe(shared.sandbox.keys.user);
  });

  it('a base URL that does not lead to the API (the /v1 left out) is said before the key is asked for', async () => {
    const dir = tempDir();
    const env = { ...kctEnv(dir), CI: undefined };
    const withoutV1 = shared.sandbox.baseUrl.replace(/\/v1$/, '');
    const run = await inTerminal(['auth', 'login', '--base-url', withoutV1], env, '');
    expect(run.code).not.toBe(0);
    expect(run.output).not.toContain('API key (kct_');
    expect(run.output).toContain(`${withoutV1}/v1`);
  });
});
