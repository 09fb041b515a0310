// Base URL forms against a real (plain HTTP) sandbox: https:// gets a hint to try http://, and a
// base URL with a query or a fragment is refused wherever it is set (flag, environment, config).
import { describe, expect, it } from 'vitest';
import { useSandbox } from './harness.js';

const shared = useSandbox();

describe('base URL forms', () => {
  it('https:// against a server that speaks plain HTTP: the hint says to try http://', async () => {
    const https = shared.sandbox.baseUrl.replace(/^http:/, 'https:');
    const doctor = await shared.kct(['doctor', '--base-url', https]);
    expect(doctor.code).toBe(9);
    expect(doctor.stdout).toMatch(/fail\s+base URL\s+cannot reach https:.*ERR_SSL_WRONG_VERSION_NUMBER/);
    expect(doctor.stderr).toContain(`The server answers in plain HTTP, not TLS: try the base URL ${shared.sandbox.baseUrl} (--base-url`);
    const credits = await shared.kct(['credits'], { env: { KCT_BASE_URL: https } });
    expect(credits.code).toBe(9);
    expect(credits.stderr).toContain(`try the base URL ${shared.sandbox.baseUrl}`);
  });

  it('a query or fragment in the base URL is refused (exit 2) from the flag, the environment and config set', async () => {
    const base = shared.sandbox.baseUrl;
    const doctor = await shared.kct(['doctor', '--base-url', `${base}?x=1`]);
    expect(doctor.code).toBe(2);
    expect(doctor.stdout).toContain(`fail  base URL        the base URL ${base}?x=1 has a query (?x=1)`);
    const fromEnv = await shared.kct(['api', '/credits'], { env: { KCT_BASE_URL: `${base}/#top` } });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toContain(`has a fragment (#top)`);
    expect(fromEnv.stderr).toContain(`hint: Use ${base}.`);
    const set = await shared.kct(['config', 'set', 'base_url', `${base}?x=1`]);
    expect(set.code).toBe(2);
    expect(set.stderr).toContain(`base_url ${base}?x=1 has a query (?x=1)`);
    expect((await shared.kct(['config', 'get', 'base_url'])).stdout).not.toContain('?x=1');
  });
});
