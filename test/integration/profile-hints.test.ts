// A hint names kct commands as if run plainly; run with --profile, they must carry it, or they ask the
// default profile's account (a new user's walkthrough: `kct models`, as the hint said, listed another
// account's models, in which the model was "ready").
import { describe, expect, it } from 'vitest';
import { kctEnv, runKct, tempDir, useSandbox } from './harness.js';

const shared = useSandbox();

/** `kct --profile <name> auth login` with the sandbox's user key, piped in. */
const loginAs = (profile: string, env: NodeJS.ProcessEnv) =>
  runKct(['--profile', profile, 'auth', 'login', '--with-key', '--base-url', shared.sandbox.baseUrl], {
    env,
    input: shared.sandbox.keys.user,
  });

describe('hints under --profile', () => {
  it('say to give the kct commands they name the same --profile', async () => {
    const env = kctEnv(tempDir(), {});
    const login = await loginAs('school', env);
    expect(login.code, login.stderr).toBe(0);
    const run = await runKct(['--profile', 'school', 'models', 'show', '99999'], { env });
    expect(run.code).toBe(6);
    expect(run.stderr).toMatch(/hint: .*`kct models`.*\(Give the kct commands named here --profile school, as this one was\.\)/);
    // without --profile, nothing is added
    const plain = await runKct(['models', 'show', '99999'], {
      env: { ...env, KCT_BASE_URL: shared.sandbox.baseUrl, KCT_API_KEY: shared.sandbox.keys.user },
    });
    expect(plain.stderr).not.toContain('Give the kct commands named here');
  });

  it('a profile logged in beside another (ci next to default) does not become the current one; the first profile saved does', async () => {
    const env = kctEnv(tempDir(), {});
    const setModel = await runKct(['config', 'set', 'model', '12'], { env });
    expect(setModel.code, setModel.stderr).toBe(0);
    const login = await loginAs('ci', env);
    expect(login.code, login.stderr).toBe(0);
    // the default profile, and its model, still apply
    const model = await runKct(['config', 'get', 'model'], { env });
    expect(model.stdout.trim()).toBe('12');
    // a first profile saved, with none before it, becomes the current one
    const fresh = kctEnv(tempDir(), {});
    const first = await loginAs('school', fresh);
    expect(first.code, first.stderr).toBe(0);
    const credits = await runKct(['credits', '--json'], { env: fresh });
    expect(credits.code, credits.stderr).toBe(0);
    // a key saved beside a profile never in use (no default, none current) is the one in use: never unreachable
    const other = kctEnv(tempDir(), {});
    expect((await runKct(['--profile', 'a', 'config', 'set', 'model', '12'], { env: other })).code).toBe(0);
    const b = await loginAs('b', other);
    expect(b.code, b.stderr).toBe(0);
    const usable = await runKct(['credits', '--json'], { env: other });
    expect(usable.code, usable.stderr).toBe(0);
  });
});
