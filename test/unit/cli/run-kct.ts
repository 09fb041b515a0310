// Runs kct's main() in-process, as gh's tests run a command: a test IO (test-io.ts) instead of
// the terminal, and undici's MockAgent instead of the network, so no sandbox, no child process
// and no socket is involved. The API answers are written per test with `api.reply(...)`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockAgent } from 'undici';
import { afterAll } from 'vitest';
import { main } from '../../../src/cli/main.js';
import { type TestIOOptions, testIO } from './test-io.js';

export const ORIGIN = 'https://api.kct.test';
export const BASE_URL = `${ORIGIN}/v1`;
/** A key of the right shape: no message may ever show it. */
export const KEY = 'kct_live_0123456789abcdefSECRETvalue';

export interface MockApi {
  agent: MockAgent;
  /** The next `times` requests to `method path` (under /v1) get `status` and `body` as JSON, with a request id. */
  reply(method: string, path: string, status: number, body: unknown, options?: { times?: number; headers?: Record<string, string> }): void;
  /** Fails the test when an answer set up with reply() was never asked for. */
  assertAllCalled(): void;
}

export function mockApi(): MockApi {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const pool = agent.get(ORIGIN);
  return {
    agent,
    reply(method, path, status, body, { times = 1, headers = {} } = {}) {
      pool
        .intercept({ method, path: `/v1${path}` })
        .reply(status, JSON.stringify(body), { headers: { 'content-type': 'application/json', 'x-request-id': 'req_test1', ...headers } })
        .times(times);
    },
    assertAllCalled() {
      agent.assertNoPendingInterceptors();
    },
  };
}

export interface RunOptions extends TestIOOptions {
  api?: MockApi;
  /** Added to the test environment (a key, a base URL, a private config dir, no pager, no retry delays). */
  env?: NodeJS.ProcessEnv;
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

const madeDirs: string[] = [];
afterAll(() => {
  for (const dir of madeDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A private config dir, removed after the test file. */
export function tempConfigDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kct-unit-cli-'));
  madeDirs.push(dir);
  return dir;
}

const configDir = tempConfigDir();

export async function runKct(args: string[], options: RunOptions = {}): Promise<Run> {
  const { io, stdout, stderr } = testIO(options);
  const env: NodeJS.ProcessEnv = {
    KCT_CONFIG_DIR: configDir,
    KCT_BASE_URL: BASE_URL,
    KCT_API_KEY: KEY,
    KCT_PAGER: '',
    KCT_RETRY_BASE_DELAY: '1ms',
    ...options.env,
  };
  const code = await main(args, { io, env, handleSignals: false, dispatcher: options.api?.agent });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}
