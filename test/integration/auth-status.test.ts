// kct auth status asks the server (GET /credits) whether the key is accepted, and says which
// scope, account and organization it belongs to; the key itself is only ever shown masked.
import { describe, expect, it } from 'vitest';
import { asUser, fakeApi, kctEnv, parseJson, runKct, sendJson, tempDir, useSandbox } from './harness.js';

const shared = useSandbox();

interface StatusJson {
  key: string;
  key_source: string;
  server: {
    accepted: boolean;
    credits?: number;
    scope?: string;
    account?: string;
    organization?: string;
    status?: number;
    error?: string;
  } | null;
}

describe('kct auth status', () => {
  it('a user key: accepted, with its scope, account and credits', async () => {
    const run = await shared.kct(['auth', 'status']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Server:\s+key accepted; scope user, account user \(id 1\); \d+ credits/);
    const report = parseJson<StatusJson>((await shared.kct(['auth', 'status', '--json'])).stdout);
    expect(report.server).toMatchObject({ accepted: true, scope: 'user', account: 'user (id 1)' });
    expect(report.key).toMatch(/^kct_\*{4}/);
  });

  it('an organization key names the organization', async () => {
    const admin = asUser(shared.sandbox, 'org_admin');
    const report = parseJson<StatusJson>((await admin(['auth', 'status', '--json'])).stdout);
    expect(report.server).toMatchObject({
      accepted: true,
      scope: 'organization',
      organization: expect.stringMatching(/^Northfield Academy \(id \d+\)$/),
    });
  });

  it('a refused key: exit 4, "key refused", never the key itself', async () => {
    const key = 'kct_wrong_key_1234567890abcdef';
    const run = await shared.kct(['auth', 'status'], { env: { KCT_API_KEY: key } });
    expect(run.code).toBe(4);
    expect(run.stdout).toMatch(/Server:\s+key refused \(HTTP 401\)/);
    expect(run.stdout + run.stderr).not.toContain(key);
    const json = await shared.kct(['auth', 'status', '--json'], { env: { KCT_API_KEY: key } });
    expect(parseJson<StatusJson>(json.stdout).server).toMatchObject({ accepted: false, status: 401 });
  });

  it('a demoted organization admin: 403, exit 4', async () => {
    const run = await asUser(shared.sandbox, 'former_admin')(['auth', 'status']);
    expect(run.code).toBe(4);
    expect(run.stdout).toContain('key refused (HTTP 403)');
    expect(run.stderr).toContain('no longer an admin');
  });

  it('a server that is not reachable: exit 9; no base URL: exit 2', async () => {
    const run = await shared.kct(['auth', 'status', '--base-url', 'http://127.0.0.1:9/v1'], { env: { KCT_MAX_RETRIES: '0' } });
    expect(run.code).toBe(9);
    expect(run.stdout).toContain('Server:   not reachable');
    const none = await runKct(['auth', 'status'], { env: kctEnv(tempDir(), { KCT_API_KEY: shared.sandbox.keys.user }) });
    expect(none.code).toBe(2);
    expect(none.stdout).toContain('Base URL: none');
    expect(none.stderr).toContain('no API base URL');
  });

  it('a server that says nothing about the account says so', async () => {
    const api = await fakeApi((_req, res) => sendJson(res, 200, { credits: 7 }));
    try {
      const run = await shared.kct(['auth', 'status', '--base-url', api.baseUrl]);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('key accepted; the server does not say which account; 7 credits');
    } finally {
      await api.close();
    }
  });
});
