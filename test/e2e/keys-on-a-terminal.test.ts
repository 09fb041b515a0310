// kct keys on a real terminal (a pseudo-terminal, util-linux `script`): the password is asked for
// without being echoed, and a revocation is confirmed. Everything else about keys runs in-process
// in test/integration/keys.test.ts.
import { describe, expect, it } from 'vitest';
import { answering, kctEnv, parseJson, runKct, tempDir, useSandbox } from './harness.js';

const shared = useSandbox();

describe('kct keys on a terminal', () => {
  it('asks for the password without echoing it, and confirms a revocation', async () => {
    const { sandbox } = shared;
    const password = sandbox.passwords.user;
    const signIn = { env: kctEnv(tempDir(), { KCT_BASE_URL: sandbox.baseUrl }), input: password };
    const made = await runKct(
      ['keys', 'create', '--scope', 'user', '--name', 'asked', '--json', '--account', 'user', '--password-stdin'],
      signIn,
    );
    expect(made.code, made.stderr).toBe(0);
    const { key, id } = parseJson<{ key: string; id: number }>(made.stdout);
    const env = { ...kctEnv(tempDir(), { KCT_BASE_URL: sandbox.baseUrl }), CI: undefined };
    const run = await answering(['keys', 'revoke', String(id), '--account', 'user'], env, [
      ['Password of user', `${password}\r`],
      ['Revoke key', 'y\r'],
    ]);
    expect(run.code, run.output).toBe(0);
    expect(run.output).not.toContain(password);
    expect(run.output).not.toContain(key);
    for (const seeded of Object.values(sandbox.keys)) expect(run.output).not.toContain(seeded);
    expect(run.output).toContain(`Revoke key ${id} "asked" (kct_****${key.slice(-4)}, user scope), created`);
    expect(run.output).toContain(`Revoked key ${id}`);
    const after = await runKct(['credits'], { env: kctEnv(tempDir(), { KCT_BASE_URL: sandbox.baseUrl, KCT_API_KEY: key }) });
    expect(after.code).toBe(4);
    expect(sandbox.stderr()).not.toMatch(/kct_sbx_[0-9a-f]{8}|sess_sbx_[0-9a-f]{8}/);
  });
});
