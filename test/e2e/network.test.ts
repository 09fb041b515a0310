// What kct does on the wire: debug traces without the key, proxies, and the terminal experience
// (spinner and hidden key prompt) under a real pseudo-terminal.
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, inTerminal, kctEnv, parseJson, runKct, startSandbox, tempDir, type Sandbox } from './harness.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ latencyMs: 60 });
});
afterAll(async () => {
  await sandbox?.stop();
});

describe('--debug', () => {
  it('traces requests and responses on stderr with the key redacted; stdout stays clean', async () => {
    const run = await asUser(sandbox)(['credits', '--json', '--debug']);
    expect(run.code).toBe(0);
    expect(parseJson<{ credits: number }>(run.stdout).credits).toBeGreaterThan(0);
    expect(run.stderr).toContain('[debug] > GET');
    expect(run.stderr).toContain('[debug] < 200');
    expect(run.stderr).toContain('x-api-key: [redacted]');
    expect(run.stderr).toMatch(/user-agent: kct\/\d+\.\d+\.\d+/);
    expect(run.stderr).not.toContain(sandbox.keys.user);
    expect(run.stdout).not.toContain(sandbox.keys.user);
  });

  it('redacts the key when the server echoes it back in an error', async () => {
    const echo: Server = createServer((req, res) => {
      res.writeHead(400, { 'content-type': 'application/json', 'x-echo': String(req.headers['x-api-key']) });
      res.end(JSON.stringify({ error: { message: `bad key ${String(req.headers['x-api-key'])}` } }));
    });
    await new Promise<void>((done) => echo.listen(0, '127.0.0.1', done));
    const key = 'kct_secret_value_0123456789';
    try {
      const run = await runKct(['models', '--debug'], { env: kctEnv(tempDir(), { KCT_BASE_URL: `http://127.0.0.1:${(echo.address() as AddressInfo).port}/v1`, KCT_API_KEY: key }) });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('bad key [redacted]');
      expect(run.stderr + run.stdout).not.toContain(key);
    } finally {
      echo.close();
    }
  });
});

describe('proxies', () => {
  it('goes through HTTP_PROXY (CONNECT), and around it for NO_PROXY hosts', async () => {
    let tunnels = 0;
    const proxy: Server = createServer((_, res) => res.writeHead(405).end());
    proxy.on('connect', (req, client: Socket, head: Buffer) => {
      tunnels += 1;
      const [host, port] = String(req.url).split(':');
      const upstream = connect(Number(port), host, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
    await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    try {
      const viaProxy = await asUser(sandbox)(['credits'], { env: { HTTP_PROXY: proxyUrl, HTTPS_PROXY: proxyUrl } });
      expect(viaProxy.code).toBe(0);
      expect(tunnels).toBeGreaterThanOrEqual(1);
      const before = tunnels;
      const bypass = await asUser(sandbox)(['credits'], { env: { HTTP_PROXY: proxyUrl, NO_PROXY: '127.0.0.1' } });
      expect(bypass.code).toBe(0);
      expect(tunnels).toBe(before);
    } finally {
      proxy.close();
    }
  });
});

describe('on a terminal', () => {
  it('asks for the key without echoing it, then stores it', async () => {
    const dir = tempDir();
    const env = { ...kctEnv(dir), CI: undefined };
    const run = await inTerminal(['auth', 'login', '--base-url', sandbox.baseUrl], env, `${sandbox.keys.user}\r`);
    expect(run.output).toContain('API key');
    expect(run.output).toContain('Logged in');
    expect(run.output).not.toContain(sandbox.keys.user);
    expect(run.code).toBe(0);
    const stored = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as { profiles: { default: { api_key: string } } };
    expect(stored.profiles.default.api_key).toBe(sandbox.keys.user);
  });

  it('shows a spinner with the stage while watching, and colours the table', async () => {
    const env = { ...kctEnv(tempDir(), { KCT_BASE_URL: sandbox.baseUrl, KCT_API_KEY: sandbox.keys.user }), NO_COLOR: undefined, CI: undefined };
    // slow on purpose (magic input): the spinner must have a stage to show before the end
    const run = await inTerminal(['one-pass', '--model', '12', '--text', 'A short answer about school uniforms, because they cost less. KCT-SANDBOX-SLOW'], env);
    expect(run.code).toBe(0);
    expect(run.output).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/); // ora's dots
    expect(run.output).toMatch(/processing|queued|uploading|submitted/);
    expect(run.output).toContain('\u001b['); // colour on a terminal
    expect(run.output).toContain('Total:');
  });
});
