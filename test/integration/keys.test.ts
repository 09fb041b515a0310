// kct keys create|list|revoke against a real sandbox, in-process (the password prompt on a real
// terminal is test/e2e/keys-on-a-terminal.test.ts): user and
// organization keys (organization refused for a member: exit 4), masked listings, a revoked key
// refused on its next request (exit 4), --save-as into a profile usable at once, bad sign-ins
// (exit 4), no terminal to ask for the password on (exit 2), and no key or password in any output
// but the one create that shows the key.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { kctEnv, parseJson, type RunResult, removeDir, runKct, type SandboxKeys, tempDir, useSandbox } from './harness.js';

const shared = useSandbox();

/** Every output of every kct run here, scanned at the end for keys and passwords. */
const outputs: { args: string[]; text: string; showsKey?: string }[] = [];
/** Keys made here: each may appear only in the output of the create that made it. */
const madeKeys: string[] = [];

type Account = keyof SandboxKeys;

/** kct against the sandbox, signed in as `account` with its password piped to --password-stdin. */
async function kct(
  args: string[],
  options: { account?: Account; password?: string; env?: Record<string, string | undefined>; configDir?: string } = {},
): Promise<RunResult> {
  const { sandbox } = shared;
  const account = options.account ?? 'user';
  const env = { ...kctEnv(options.configDir ?? tempDir(), { KCT_BASE_URL: sandbox.baseUrl }), ...options.env };
  const signIn = args[0] === 'keys' ? ['--account', account, '--password-stdin'] : [];
  const result = await runKct([...args, ...signIn], {
    env,
    ...(signIn.length > 0 ? { input: options.password ?? sandbox.passwords[account] } : {}),
  });
  outputs.push({ args, text: result.stdout + result.stderr });
  return result;
}

async function create(
  account: Account,
  scope: 'user' | 'organization',
  extra: string[] = [],
): Promise<{ key: string; id: number; run: RunResult }> {
  const run = await kct(['keys', 'create', '--scope', scope, '--json', ...extra], { account });
  expect(run.code, run.stderr).toBe(0);
  const record = parseJson<{ key: string; id: number }>(run.stdout);
  madeKeys.push(record.key);
  outputs[outputs.length - 1].showsKey = record.key;
  return { ...record, run };
}

function withKey(key: string, args: string[]): Promise<RunResult> {
  return runKct(args, { env: kctEnv(tempDir(), { KCT_BASE_URL: shared.sandbox.baseUrl, KCT_API_KEY: key }) }).then((result) => {
    outputs.push({ args, text: result.stdout + result.stderr });
    return result;
  });
}

describe('kct keys create', () => {
  it('a user key: the key alone on stdout, shown once, usable at once', async () => {
    const run = await kct(['keys', 'create', '--scope', 'user', '--name', 'laptop']);
    expect(run.code, run.stderr).toBe(0);
    const key = run.stdout.trim();
    madeKeys.push(key);
    outputs[outputs.length - 1].showsKey = key;
    expect(key).toMatch(/^kct_sbx_[0-9a-f]{32}$/);
    expect(run.stdout).toBe(`${key}\n`);
    expect(run.stderr).toContain('"laptop" (kct_****');
    expect(run.stderr).toContain('This is the only time the key is shown');
    expect(run.stderr).not.toContain(key);
    const credits = await withKey(key, ['credits', '--json']);
    expect(credits.code).toBe(0);
    expect(parseJson<{ account: { name: string } }>(credits.stdout).account.name).toBe('user');
  });

  it("an organization key for an admin sees the organization's models", async () => {
    const { key, run } = await create('org_admin', 'organization', ['--name', 'ci']);
    expect(parseJson(run.stdout)).toMatchObject({
      scope: 'organization',
      organization: { name: 'Northfield Academy' },
      name: 'ci',
      masked_key: `kct_****${key.slice(-4)}`,
    });
    const models = await withKey(key, ['models', '--json']);
    expect(parseJson<{ model_id: number }[]>(models.stdout).map((m) => m.model_id)).toEqual([21]);
  });

  it('an organization key is refused for a member: 403, exit 4, naming why; nothing is created', async () => {
    const before = parseJson<unknown[]>((await kct(['keys', 'list', '--json'], { account: 'org_member' })).stdout).length;
    const run = await kct(['keys', 'create', '--scope', 'organization'], { account: 'org_member' });
    expect(run.code).toBe(4);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(
      'Only an organization admin may create an organization key: the account org_member is a member, not an admin, of Northfield Academy',
    );
    expect(run.stderr).toContain('HTTP 403');
    expect(parseJson<unknown[]>((await kct(['keys', 'list', '--json'], { account: 'org_member' })).stdout)).toHaveLength(before);
    const user = await kct(['keys', 'create', '--scope', 'organization', '--json'], { account: 'user' });
    expect(user.code).toBe(4);
    expect(parseJson<{ error: { status: number; message: string } }>(user.stderr).error).toMatchObject({
      status: 403,
      message: expect.stringContaining('belongs to no organization'),
    });
  });

  it('a bad --scope is exit 2 before anything is sent', async () => {
    const run = await kct(['keys', 'create', '--scope', 'team']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--scope');
  });
});

describe('kct keys list', () => {
  it('masks every key, with scope, date and state, in a table, JSON and CSV', async () => {
    await create('user', 'user', ['--name', 'listed']);
    const table = await kct(['keys', 'list']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/ID +│ Name +│ Key +│ Scope +│ Organization +│ Created +│ State/);
    expect(table.stdout).toContain(`kct_****${shared.sandbox.keys.user.slice(-4)}`);
    expect(table.stdout).toMatch(/listed +│ kct_\*{4}[0-9a-f]{4} +│ user +│ +│ \d{4}-\d\d-\d\d \d\d:\d\d UTC +│ active/);
    const json = parseJson<Record<string, unknown>[]>((await kct(['keys', 'list', '--json'])).stdout);
    expect(json.length).toBeGreaterThanOrEqual(3);
    for (const record of json) {
      expect(Object.keys(record).sort()).toEqual(['created_at', 'id', 'masked_key', 'name', 'organization', 'revoked_at', 'scope']);
      expect(record.masked_key).toMatch(/^kct_\*{4}[0-9a-f]{4}$/);
    }
    const csv = await kct(['keys', 'list', '--output', 'csv']);
    // CSV is headed by the columns' names, a JSON key's where the column holds that field as it is
    expect(csv.stdout.split('\n')[0]).toBe('id,name,masked_key,scope,organization_name,created_at,revoked_at');
  });
});

describe('kct keys revoke', () => {
  it('asks first: off a terminal without --yes it is exit 2 and the key still works', async () => {
    const { key, id } = await create('user', 'user', ['--name', 'doomed']);
    const refused = await kct(['keys', 'revoke', String(id)]);
    expect(refused.code).toBe(2);
    // the hint is the command as given, sign-in flags kept, with --yes: pasted as it is, it revokes
    expect(refused.stderr).toContain(`hint: Run it again with --yes: kct keys revoke ${id} --account user --password-stdin --yes`);
    // global flags given are kept too, where they were typed: the profile and the server decide whom the line signs in as
    const withGlobals = await kct(['--base-url', shared.sandbox.baseUrl, 'keys', 'revoke', String(id), '--account', 'user']);
    expect(withGlobals.stderr).toContain(
      `hint: Run it again with --yes: kct --base-url ${shared.sandbox.baseUrl} keys revoke ${id} --account user --yes`,
    );
    expect((await withKey(key, ['credits'])).code).toBe(0);
  });

  it('then the key is refused on its next request (401, exit 4); revoking again changes nothing and exits 0', async () => {
    const { key, id } = await create('user', 'user', ['--name', 'revoked']);
    expect((await withKey(key, ['credits'])).code).toBe(0);
    const revoke = await kct(['keys', 'revoke', String(id), '--yes']);
    expect(revoke.code, revoke.stderr).toBe(0);
    expect(revoke.stdout).toContain(`Revoked key ${id} "revoked" (kct_****${key.slice(-4)}, user scope)`);
    const after = await withKey(key, ['credits']);
    expect(after.code).toBe(4);
    expect(after.stderr).toContain('was revoked on');
    const again = await kct(['keys', 'revoke', `kct_****${key.slice(-4)}`, '--yes', '--json']);
    expect(again.code).toBe(0);
    expect(parseJson(again.stdout)).toMatchObject({ id, already_revoked: true });
    const listed = parseJson<{ id: number; revoked_at: string | null }[]>((await kct(['keys', 'list', '--json'])).stdout).find(
      (k) => k.id === id,
    );
    expect(listed?.revoked_at).toMatch(/^\d{4}-/);
    expect((await kct(['keys', 'list'])).stdout).toMatch(new RegExp(`revoked +│ kct_\\*{4}${key.slice(-4)} .*│ revoked \\d{4}-`));
  });

  it("a key that is not the account's is exit 6; a whole key as the argument is exit 2, masked in the message", async () => {
    expect((await kct(['keys', 'revoke', '999999', '--yes'])).code).toBe(6);
    const others = await kct(['keys', 'revoke', 'kct_****0000', '--yes'], { account: 'broke' });
    expect(others.code).toBe(6);
    expect(others.stderr).toContain('has no key ending in 0000');
    const whole = await kct(['keys', 'revoke', shared.sandbox.keys.broke, '--yes'], { account: 'broke' });
    expect(whole.code).toBe(2);
    expect(whole.stderr).toContain('looks like a whole key');
    expect(whole.stderr).not.toContain(shared.sandbox.keys.broke);
    expect((await withKey(shared.sandbox.keys.broke, ['credits'])).code).toBe(0);
  });
});

describe('kct keys create --save-as', () => {
  it('stores the key in a profile, prints only its masked form, and the profile works at once', async () => {
    const configDir = tempDir();
    const run = await kct(['keys', 'create', '--scope', 'organization', '--save-as', 'school', '--name', 'saved'], {
      account: 'org_admin',
      configDir,
    });
    expect(run.code, run.stderr).toBe(0);
    const config = JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8')) as {
      current_profile: string;
      profiles: Record<string, { api_key: string; base_url: string }>;
    };
    const key = config.profiles.school.api_key;
    madeKeys.push(key);
    expect(key).toMatch(/^kct_sbx_/);
    expect(config.profiles.school.base_url).toBe(shared.sandbox.baseUrl);
    expect(statSync(join(configDir, 'config.json')).mode & 0o777).toBe(0o600);
    expect(run.stdout).toBe(
      `Saved key ${(/key (\d+)/.exec(run.stdout) ?? [])[1]} "saved" (kct_****${key.slice(-4)}, organization scope, Northfield Academy) to profile "school" (${shared.sandbox.baseUrl}).\n`,
    );
    const credits = await runKct(['--profile', 'school', 'credits', '--json'], { env: kctEnv(configDir) });
    expect(credits.code, credits.stderr).toBe(0);
    expect(parseJson(credits.stdout)).toMatchObject({ scope: 'organization', account: { name: 'org_admin' } });
    outputs.push({ args: ['credits'], text: credits.stdout + credits.stderr });

    // a profile that holds a key is never overwritten, and nothing is created
    const count = parseJson<unknown[]>((await kct(['keys', 'list', '--json'], { account: 'org_admin' })).stdout).length;
    const again = await kct(['keys', 'create', '--scope', 'user', '--save-as', 'school'], { account: 'org_admin', configDir });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('the profile "school" already holds a key');
    expect(parseJson<unknown[]>((await kct(['keys', 'list', '--json'], { account: 'org_admin' })).stdout)).toHaveLength(count);
    expect(JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8')).profiles.school.api_key).toBe(key);
  });
});

describe('signing in', () => {
  it('a wrong password is exit 4, with no session and nothing changed', async () => {
    const run = await kct(['keys', 'list'], { password: 'not-the-password' });
    expect(run.code).toBe(4);
    expect(run.stderr).toContain('The account name or password is wrong');
    // the hint is about the account, not an API key (it said "Check the key kct uses")
    expect(run.stderr).toContain('hint: Check the account name and its password');
    expect(run.stderr).not.toContain('Check the key kct uses');
  });

  it('no account, no way to get the password, or an empty one: said, with what to do', async () => {
    const env = kctEnv(tempDir(), { KCT_BASE_URL: shared.sandbox.baseUrl });
    const noAccount = await runKct(['keys', 'list'], { env });
    expect(noAccount.code).toBe(4);
    expect(noAccount.stderr).toContain('no account to sign in with');
    const noPassword = await runKct(['keys', 'list', '--account', 'user'], { env });
    // no terminal to ask on is bad usage, as for kct auth login's key (it was 4, auth's code)
    expect(noPassword.code).toBe(2);
    expect(noPassword.stderr).toContain('cannot ask for the password of user: CI is set');
    // the command to pipe it into is this one, with the account it asked for (dropping it failed: "no account")
    expect(noPassword.stderr).toContain('printf %s "$PASSWORD" | kct keys list --account user --password-stdin');
    const revoking = await runKct(['keys', 'revoke', '7', '--yes'], { env: { ...env, KCT_ACCOUNT: 'user' } });
    expect(revoking.stderr).toContain('printf %s "$PASSWORD" | kct keys revoke 7 --yes --account user --password-stdin');
    // every flag as typed: without --save-as the new key would be printed on stdout, not stored
    const creating = await runKct(['keys', 'create', '--scope', 'user', '--save-as', 'ci', '--json', '--account', 'user'], { env });
    expect(creating.stderr).toContain(
      'printf %s \\"$PASSWORD\\" | kct keys create --scope user --save-as ci --json --account user --password-stdin',
    );
    const empty = await runKct(['keys', 'list', '--account', 'user', '--password-stdin'], { env, input: '' });
    expect(empty.code).toBe(2);
    const fromEnv = await runKct(['keys', 'list', '--json'], {
      env: { ...env, KCT_ACCOUNT: 'user', KCT_PASSWORD: shared.sandbox.passwords.user },
    });
    expect(fromEnv.code, fromEnv.stderr).toBe(0);
    outputs.push({ args: ['keys', 'list'], text: fromEnv.stdout + fromEnv.stderr });
  });

  it('the product URL: derived from the base URL, given with --product-url, or said to be missing or wrong', async () => {
    const { sandbox } = shared;
    const explicit = await kct(['keys', 'list', '--json', '--product-url', sandbox.productUrl], { env: { KCT_BASE_URL: undefined } });
    expect(explicit.code, explicit.stderr).toBe(0);
    const noV1 = await kct(['keys', 'list'], { env: { KCT_BASE_URL: `${sandbox.productUrl}/api` } });
    expect(noV1.code).toBe(2);
    expect(noV1.stderr).toContain('does not end in /v1');
    const wrong = await kct(['keys', 'list'], { env: { KCT_PRODUCT_URL: `${sandbox.productUrl}/nope` } });
    expect(wrong.code).toBe(6);
    expect(wrong.stderr).toContain('--product-url');
  });

  it('a product URL or base URL with a query or fragment is refused as such, before a password is asked for', async () => {
    const { sandbox } = shared;
    // no password anywhere: a refusal for want of one would be exit 4, not the URL's exit 2
    const noPassword = { KCT_PASSWORD: undefined, KCT_ACCOUNT: 'user' };
    const query = await kct(['keys', 'list', '--product-url', `${sandbox.productUrl}?x=1`], { env: noPassword });
    expect(query.code, query.stderr).toBe(2);
    expect(query.stderr).toContain('the product URL (from --product-url)');
    expect(query.stderr).toContain('has a query (?x=1)');
    const fragment = await kct(['keys', 'list'], { env: { ...noPassword, KCT_PRODUCT_URL: `${sandbox.productUrl}/#top` } });
    expect(fragment.code, fragment.stderr).toBe(2);
    expect(fragment.stderr).toContain('has a fragment (#top)');
    const fromBase = await kct(['keys', 'list'], { env: { ...noPassword, KCT_BASE_URL: `${sandbox.baseUrl}?x=1` } });
    expect(fromBase.code, fromBase.stderr).toBe(2);
    expect(fromBase.stderr).toContain('has a query (?x=1)');
  });

  it('--debug traces the requests with the password, the session and the key redacted', async () => {
    const run = await kct(['keys', 'create', '--scope', 'user', '--debug']);
    expect(run.code, run.stderr).toBe(0);
    const key = run.stdout.trim();
    madeKeys.push(key);
    outputs[outputs.length - 1].showsKey = key;
    expect(run.stderr).toContain('"password":"[redacted]"');
    expect(run.stderr).toContain('"session_token":"[redacted]"');
    expect(run.stderr).toContain('authorization: [redacted]');
    expect(run.stderr).not.toContain('sess_sbx_');
    expect(run.stderr).not.toContain(key);
  });
});

describe('kct sandbox', () => {
  it("prints each account's password and the product base at start, and marks a revoked seeded key", async () => {
    const dataDir = tempDir('kct-sbx-');
    const first = await startHuman(dataDir);
    expect(first.text).toMatch(/Accounts, to manage keys with kct keys \(product base http:\/\/127\.0\.0\.1:\d+\):/);
    const password = /org_member +password ([0-9a-f]{32})/.exec(first.text)?.[1];
    expect(password).toBeDefined();
    const productUrl = /product base (http:\/\/[^)]+)\)/.exec(first.text)![1];
    const env = kctEnv(tempDir(), { KCT_BASE_URL: `${productUrl}/v1`, KCT_ACCOUNT: 'org_member', KCT_PASSWORD: password });
    const list = parseJson<{ id: number }[]>((await runKct(['keys', 'list', '--json'], { env })).stdout);
    expect((await runKct(['keys', 'revoke', String(list[0].id), '--yes'], { env })).code).toBe(0);
    await first.stop();
    const second = await startHuman(dataDir);
    expect(second.text).toMatch(/org_member +kct_sbx_[0-9a-f]{32} +\(revoked\)/);
    expect(second.text).toContain(`org_member    password ${password}`);
    await second.stop();
    removeDir(dataDir);
  });
});

/** `kct sandbox` printing for people (in-process), read up to its last start-up line. */
async function startHuman(dataDir: string): Promise<{ text: string; stop: () => Promise<void> }> {
  const controller = new AbortController();
  let text = '';
  let started: () => void = () => {};
  const ready = new Promise<void>((resolve) => (started = resolve));
  const exited = runKct(['sandbox', '--port', '0', '--data', dataDir, '--latency', '0'], {
    env: { ...process.env, NO_COLOR: '1' },
    signal: controller.signal,
    timeoutMs: 600_000,
    onStdout: (_, all) => {
      text = all;
      if (all.includes('Stop with Ctrl-C.')) started();
    },
  });
  const early = await Promise.race([ready.then(() => undefined), exited]);
  if (early) throw new Error(`kct sandbox exited with ${early.code}: ${early.stdout}${early.stderr}`);
  return {
    text,
    stop: async () => {
      controller.abort();
      await exited;
    },
  };
}

afterAll(() => {
  // the check of this file's whole run: no made key outside its own create, no password anywhere
  const passwords = [...Object.values(shared.sandbox?.passwords ?? {}), ...Object.values(shared.sandbox?.keys ?? {})];
  expect(madeKeys.length).toBeGreaterThanOrEqual(7); // and one more in test/e2e/keys-on-a-terminal.test.ts
  for (const { args, text, showsKey } of outputs) {
    for (const key of madeKeys) if (key !== showsKey) expect(text.includes(key), `kct ${args.join(' ')} printed a key`).toBe(false);
    for (const password of passwords)
      expect(text.includes(password), `kct ${args.join(' ')} printed a password or a seeded key`).toBe(false);
  }
  expect(shared.sandbox.stderr()).not.toMatch(/kct_sbx_[0-9a-f]{8}|sess_sbx_[0-9a-f]{8}/);
});
