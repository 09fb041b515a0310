// Secrets: the keys never leave the sandbox except where they are shown on purpose (the start
// line of `kct sandbox --json`, keys.json 0600). Requests that put a key where it does not
// belong, errors about keys, and the log are all scanned; so is the data dir, byte by byte.
// Every other file of this suite scans its own answers, logs and data dir the same way.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { SandboxProcess } from './lib.js';
import { Client, ESSAY, removeDir, secretsFound, startSandbox, Transcript, until } from './lib.js';

const transcript = new Transcript();
let sb: SandboxProcess;
let client: Client;
beforeAll(async () => {
  sb = await startSandbox(transcript);
  client = new Client(transcript, 30_000);
});
afterAll(async () => {
  await client?.close();
  await sb?.stop();
  removeDir(sb.dataDir);
});

describe('secrets', () => {
  test('keys put where they do not belong, mistyped or refused are never echoed, logged or stored in clear', async () => {
    const { user, org_admin, former_admin } = sb.keys;
    const typo = `${user.slice(0, -1)}${user.endsWith('0') ? '1' : '0'}`;
    const answers = await Promise.all([
      client.call(`${sb.baseUrl}/credits?api_key=${user}`, { key: user }),
      client.call(`${sb.baseUrl}/credits?api_key=${user}`),
      client.call(`${sb.baseUrl}/evaluations/${user}/status`, { key: user }),
      client.call(`${sb.origin}/files/${user}/x.txt`),
      // percent-encoded in a URL: once echoed by the 404 and logged in clear
      client.call(`${sb.baseUrl}/nope/${user.replace(/_/g, '%5F')}`, { key: user }),
      client.call(`${sb.baseUrl}/credits?api_key=${user.replace(/_/g, '%5f')}`, { key: user }),
      client.call(`${sb.origin}/api/open/evaluation/start?key=${org_admin}`, { method: 'POST' }),
      client.call(`${sb.baseUrl}/credits`, { key: typo }),
      client.call(`${sb.baseUrl}/credits`, { headers: { 'x-token-key': user } }),
      client.call(`${sb.baseUrl}/credits`, { headers: ['x-api-key', user, 'x-api-key', org_admin] }),
      client.call(`${sb.baseUrl}/credits`, { key: former_admin }),
      client.call(`${sb.baseUrl}/credits`, { key: `${user} ` }),
      client.call(`${sb.baseUrl}/models`, { key: user, headers: { authorization: `Bearer ${user}` } }),
      client.call(`${sb.baseUrl}/evaluations/one-pass`, { key: user, json: { model_id: 12, paper_content: ESSAY, api_key: user } }),
      client.call(`${sb.baseUrl}/evaluations/one-pass`, {
        key: user,
        json: { model_id: 12, paper_content: ESSAY },
        headers: { 'idempotency-key': 'secrets-1' },
      }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 401, 404, 404, 404, 200, 404, 401, 401, 400, 403, 200, 200, 400, 202]);
    // every request's line in the sandbox's log, the last one included, before the scan
    await until(
      `the log lines of ${answers.length} requests`,
      () => (transcript.text.match(/^(GET|POST) \S+ \d{3} \d+ms /gm) ?? []).length >= answers.length,
    );
    expect(secretsFound(sb.keys, transcript, sb.dataDir)).toEqual([]);
    // The log was on: it holds the requests, with the keys of their URLs redacted.
    expect(transcript.text).toContain('GET /v1/credits?api_key=kct_[redacted] 200');
  });
});
