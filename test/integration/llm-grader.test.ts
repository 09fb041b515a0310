// `kct sandbox --grader openai` end to end: the built kct starts a sandbox process that marks
// through a fake OpenAI-compatible server on loopback (test/unit/fake-llm.ts); the key travels only
// to that server. The kct commands run against it, and the refused settings, run in-process.

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { BIN, removeDir, type Sandbox, startSandbox } from '../e2e/harness.js';
import { closedPort } from '../unit/closed-port.js';
import { fakeLlmForFile } from './fake-llm.js';
import { asUser, FIXTURES, parseJson, runKct, tempDir } from './harness.js';

const KEY = 'sk-e2e-grader-key-0123456789';
const llm = fakeLlmForFile();

/** A sandbox marking with `model` on the fake server, with everything it prints collected. */
async function sandboxWith(model: string, extra: string[] = []): Promise<{ sb: Sandbox; output: () => string }> {
  process.env.KCT_GRADER_API_KEY = KEY;
  const sb = await startSandbox({ args: ['--grader', 'openai', '--grader-url', llm.fake.url, '--grader-model', model, ...extra] });
  delete process.env.KCT_GRADER_API_KEY;
  llm.closeLater(sb, (s) => s.stop());
  let printed = '';
  sb.process.stdout!.on('data', (c: Buffer) => {
    printed += c.toString();
  });
  sb.process.stderr!.on('data', (c: Buffer) => {
    printed += c.toString();
  });
  return { sb, output: () => printed };
}

const essay = join(FIXTURES, 'essay.txt');

describe('kct sandbox --grader openai', () => {
  it('refuses incomplete or unsafe settings with exit 2, before starting', async () => {
    const cases: [string[], RegExp][] = [
      [['--grader', 'openai', '--grader-model', 'm'], /--grader openai needs --grader-url/],
      [['--grader', 'openai', '--grader-url', llm.fake.url], /--grader openai needs --grader-model/],
      [['--grader', 'openai', '--grader-url', 'ftp://x/v1', '--grader-model', 'm'], /must be an http or https URL/],
      [
        ['--grader', 'openai', '--grader-url', 'http://user:secret@127.0.0.1/v1', '--grader-model', 'm'],
        /must not carry credentials.*KCT_GRADER_API_KEY/s,
      ],
      [['--grader', 'gpt'], /--grader must be "sandbox" or "openai"/],
      [['--grader-url', llm.fake.url], /--grader-url only applies with --grader openai/],
      [['--grader', 'openai', '--grader-url', llm.fake.url, '--grader-model', 'm', '--grader-timeout', 'soon'], /--grader-timeout/],
    ];
    for (const [args, message] of cases) {
      const run = await runKct(['sandbox', '--port', '0', ...args]);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stderr).not.toContain('secret');
    }
  });

  it('says at start where marking happens, and whether a key was given, never the key', async () => {
    const dataDir = tempDir();
    const child = spawn(
      process.execPath,
      [
        BIN,
        'sandbox',
        '--json',
        '--port',
        '0',
        '--latency',
        '0',
        '--data',
        dataDir,
        '--grader',
        'openai',
        '--grader-url',
        llm.fake.url,
        '--grader-model',
        'good',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', KCT_GRADER_API_KEY: KEY } },
    );
    const exited = new Promise((done) => child.once('exit', done));
    const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve));
    child.kill('SIGTERM');
    await exited;
    removeDir(dataDir);
    expect(JSON.parse(line).grader).toEqual({ engine: 'openai', url: llm.fake.url, model: 'good', api_key_set: true });
    expect(line).not.toContain(KEY);
  });

  it('marks every task through the model, rewrites with it, and never prints or stores the key', async () => {
    const { sb, output } = await sandboxWith('good');
    const kct = asUser(sb);
    const run = await kct(['one-pass', essay, '--model', '12', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const result = parseJson<{ status: string; score: number; evaluation: { feedback: string }[] }>(run.stdout);
    expect(result.status).toBe('SUCCESS');
    expect(result.score).toBe(10);
    expect(result.evaluation[0].feedback).toMatch(/^- Reaches the middle level/);
    const calls = llm.fake.requests.filter((r) => r.model === 'good');
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    // The rewrite goes through the model too.
    const rewrite = await kct(['rewrite', parseJson<{ task_id: string }>(run.stdout).task_id, '--style', 'paragraph', '--json']);
    expect(rewrite.code, rewrite.stderr).toBe(0);
    expect(parseJson<{ sections: { comment: string }[] }>(rewrite.stdout).sections[0].comment).toMatch(/^Rewritten: /);
    await sb.stop();
    expect(output()).not.toContain(KEY);
    const { readdirSync, readFileSync, statSync } = await import('node:fs');
    const everything = (dir: string): string[] =>
      readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? everything(join(dir, n)) : [join(dir, n)]));
    for (const file of everything(sb.dataDir)) expect(readFileSync(file).includes(KEY), file).toBe(false);
  });

  it('a grader that cannot be reached is the service failing, not the answer: the hint says to run again later, not to fix it', async () => {
    const sb = await startSandbox({
      args: ['--grader', 'openai', '--grader-url', `http://127.0.0.1:${await closedPort()}/v1`, '--grader-model', 'm', '--latency', '0'],
    });
    llm.closeLater(sb, (s) => s.stop());
    const run = await asUser(sb)(['one-pass', essay, '--model', '12']);
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toContain('could not be reached');
    expect(run.stderr).toContain('The service says it failed on its side, not for the answer: run the same command again later');
    expect(run.stderr).not.toContain('Fix that answer');
  });

  it('reports a reply that stays invalid as a FAILURE (exit 3) with the reason, and charges nothing', async () => {
    const { sb } = await sandboxWith('missing');
    const kct = asUser(sb);
    const before = parseJson<{ credits: number }>((await kct(['credits', '--json'])).stdout).credits;
    const run = await kct(['one-pass', essay, '--model', '12']);
    expect(run.code).toBe(3);
    expect(`${run.stdout}${run.stderr}`).toMatch(/criterion "Language & conventions" is missing/);
    expect(parseJson<{ credits: number }>((await kct(['credits', '--json'])).stdout).credits).toBe(before);
  });
});
