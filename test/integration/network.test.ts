// What kct does on the wire: debug traces without the key, and on a terminal (the test IO's) a
// spinner and colour. In-process; proxies (undici reads them from the process's environment) are
// test/integration/proxies.test.ts, the hidden key prompt under a pseudo-terminal test/e2e/login-on-a-terminal.test.ts.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, kctEnv, parseJson, runKct, type Sandbox, startSandbox, tempDir } from './harness.js';

let sandbox: Sandbox;
beforeAll(async () => {
  // --time-scale 3: KCT-SANDBOX-SLOW's stages last 500 ms, long enough for a spinner to show one
  sandbox = await startSandbox({ latencyMs: 60, args: ['--time-scale', '3'] });
});
afterAll(async () => {
  await sandbox?.stop();
});

describe('--debug', () => {
  it('traces requests and responses on stderr with the key redacted; stdout stays clean', async () => {
    const run = await asUser(sandbox)(['credits', '--debug']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^\d[\d,]* credits/);
    expect(run.stderr).toContain('[debug] > GET');
    expect(run.stderr).toContain('[debug] < 200');
    expect(run.stderr).toContain('x-api-key: [redacted]');
    expect(run.stderr).toMatch(/user-agent: kct\/\d+\.\d+\.\d+/);
    expect(run.stderr).not.toContain(sandbox.keys.user);
    expect(run.stdout).not.toContain(sandbox.keys.user);
    // under --json the trace is JSON lines too, like everything on stderr
    const json = await asUser(sandbox)(['credits', '--json', '--debug']);
    expect(parseJson<{ credits: number }>(json.stdout).credits).toBeGreaterThan(0);
    const trace = json.stderr
      .trimEnd()
      .split('\n')
      .map((line) => parseJson<{ notice: { code: string; message: string } }>(line).notice);
    expect(trace.every((entry) => entry.code === 'debug')).toBe(true);
    expect(trace.map((entry) => entry.message)).toContain('> x-api-key: [redacted]');
    expect(json.stderr).not.toContain(sandbox.keys.user);
  });

  it('redacts the key when the server echoes it back in an error', async () => {
    const echo: Server = createServer((req, res) => {
      res.writeHead(400, { 'content-type': 'application/json', 'x-echo': String(req.headers['x-api-key']) });
      res.end(JSON.stringify({ error: { message: `bad key ${String(req.headers['x-api-key'])}` } }));
    });
    await new Promise<void>((done) => echo.listen(0, '127.0.0.1', done));
    const key = 'kct_secret_value_0123456789';
    try {
      const run = await runKct(['models', '--debug'], {
        env: kctEnv(tempDir(), { KCT_BASE_URL: `http://127.0.0.1:${(echo.address() as AddressInfo).port}/v1`, KCT_API_KEY: key }),
      });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('bad key [redacted]');
      expect(run.stderr + run.stdout).not.toContain(key);
    } finally {
      echo.close();
    }
  });
});

describe('on a terminal', () => {
  it('shows a spinner with the stage while watching, and colours the table', async () => {
    const env = {
      ...kctEnv(tempDir(), { KCT_BASE_URL: sandbox.baseUrl, KCT_API_KEY: sandbox.keys.user }),
      NO_COLOR: undefined,
      CI: undefined,
    };
    // slow on purpose (magic input): the spinner must have a stage to show before the end
    const term = await runKct(
      ['one-pass', '--model', '12', '--text', 'A short answer about school uniforms, because they cost less. KCT-SANDBOX-SLOW'],
      { env, tty: true, columns: 100 },
    );
    const run = { code: term.code, output: term.stdout + term.stderr };
    expect(run.code).toBe(0);
    expect(run.output).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/); // ora's dots
    expect(run.output).toMatch(/processing|queued|uploading|submitted/);
    expect(run.output).toContain('\u001b['); // colour on a terminal
    expect(run.output).toContain('Total:');
  });
});
