// kct callbacks listen and local batch callbacks: the recipes of docs/guides/batch-and-callbacks.md run as written (its
// `kct callbacks listen` lines, and its Node receiver), then the receiver's rules one by one
// with deliveries signed here by the standardwebhooks package.
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { closedPort } from '../unit/closed-port.js';
import { BIN, GENERATED, kctEnv, parseJson, ROOT, runKct, type Sandbox, startSandbox, tempDir, useSandbox } from './harness.js';

const readme = readFileSync(join(ROOT, 'docs', 'guides', 'batch-and-callbacks.md'), 'utf8');
/** A sandbox started without --allow-private-callbacks. */
const strict = useSandbox();
const started: ChildProcess[] = [];
let local: Sandbox | undefined;

afterAll(async () => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await local?.stop();
});

interface Background {
  child: ChildProcess;
  url: Promise<string>;
  lines: string[];
  /** Resolves with the first stdout line that matches. */
  line(pattern: RegExp): Promise<string>;
  exited: Promise<number | null>;
  /** What it printed on stderr so far. */
  stderr(): string;
}

/** A long-running process whose stdout lines are collected; `url` is the http URL it reports on stderr. */
function background(command: string, args: string[], env: Record<string, string | undefined>, cwd: string): Background {
  const child = spawn(command, args, { cwd, env: env as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  const lines: string[] = [];
  const waiting: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    lines.push(line);
    for (const wait of waiting.filter((w) => w.pattern.test(line))) {
      waiting.splice(waiting.indexOf(wait), 1);
      wait.resolve(line);
    }
  });
  let stderr = '';
  const url = new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const found = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(stderr);
      if (found) resolve(found[1]);
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}: ${stderr}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    url,
    lines,
    exited,
    line: (pattern) => {
      const found = lines.find((line) => pattern.test(line));
      return found !== undefined ? Promise.resolve(found) : new Promise((resolve) => waiting.push({ pattern, resolve }));
    },
    stderr: () => stderr,
  };
}

/** The ```sh block under "## Trying callbacks locally", as lines without comments. */
function recipeLines(): string[] {
  const section = readme.slice(readme.indexOf('## Trying callbacks locally'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)![1];
  return block
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter(Boolean);
}

function answersFile(dir: string): string {
  const file = join(dir, 'answers.jsonl');
  writeFileSync(
    file,
    ['School uniforms save time in the morning.', 'Uniforms hide the differences between rich and poor students.']
      .map((text, i) => JSON.stringify({ student_id: `s-${i + 1}`, paper_content: text }))
      .join('\n'),
  );
  return file;
}

const kctCommand = (line: string) => ['node', BIN, ...line.replace(/^kct /, '').split(/\s+/)];

describe('the README recipes for local callbacks', () => {
  it('kct sandbox --allow-private-callbacks, kct callbacks listen, kct batch --callback-url http://127.0.0.1', async () => {
    const lines = recipeLines();
    expect(lines).toHaveLength(4);
    const [sandboxLine, exportLine, listenLine, batchLine] = lines;
    // 1. the sandbox, on a free port instead of 4010
    expect(sandboxLine).toMatch(/^kct sandbox .*--allow-private-callbacks/);
    const sandboxArgs = sandboxLine
      .replace(/^kct sandbox /, '')
      .replace(/--port \d+/, '')
      .split(/\s+/)
      .filter(Boolean);
    local = await startSandbox({ args: sandboxArgs });
    const port = new URL(local.baseUrl).port;
    // 2. the settings, with the placeholders filled in
    const exported = Object.fromEntries(
      [...exportLine.matchAll(/(\w+)=(\S+)/g)].map(([, name, value]) => [
        name,
        value.replace('4010', port).replace('<user-key>', local!.keys.user).replace('<webhook-secret>', local!.webhookSecret),
      ]),
    );
    expect(exportLine).toMatch(/^export /);
    expect(Object.keys(exported)).toEqual(['KCT_BASE_URL', 'KCT_API_KEY', 'KCT_WEBHOOK_SECRET']);
    const dir = tempDir('kct-recipe-');
    const env = kctEnv(join(dir, 'config'), exported);
    // 3. the receiver, in the background, on a free port instead of 8080
    expect(listenLine).toMatch(/^kct callbacks listen --port 8080 &$/);
    const [node, ...listenArgs] = kctCommand(listenLine.replace(/ &$/, '').replace('--port 8080', '--port 0'));
    const listener = background(process.execPath, listenArgs, env, dir);
    expect(node).toBe('node');
    const receiverUrl = await listener.url;
    // 4. the batch, calling back to the receiver
    answersFile(dir);
    const [, ...batchArgs] = kctCommand(batchLine.replace('http://127.0.0.1:8080/', receiverUrl));
    const batch = await runKct(batchArgs.slice(1), { env, cwd: dir });
    expect(batch.stderr).toContain('accepted as');
    expect(batch.code).toBe(0);
    const event = await listener.line(/batch\.finished/);
    expect(event).toMatch(/msg_\w+\s+batch\.finished\s+tsk_\w+\s+SUCCESS\s+2 items \(2 succeeded\)/);
    listener.child.kill('SIGINT');
    expect(await listener.exited).toBe(130); // Ctrl-C is exit 130 for every command
  });

  it('the Node receiver from the README gets the callback of kct batch', async () => {
    local ??= await startSandbox({ args: ['--allow-private-callbacks', '--time-scale', '1000'] });
    const code = /## Callbacks[\s\S]*?```js\n([\s\S]*?)```/.exec(readme)![1];
    expect(code).toContain('.listen(8080)');
    // under the project, so that its import of standardwebhooks resolves
    mkdirSync(GENERATED, { recursive: true });
    const file = join(GENERATED, 'readme-receiver.mjs');
    writeFileSync(
      file,
      `${code.replace('.listen(8080)', '.listen(0, "127.0.0.1", function () { console.error(`receiver on http://127.0.0.1:${this.address().port}/`); })')}`,
    );
    const env = kctEnv(tempDir(), { KCT_BASE_URL: local.baseUrl, KCT_API_KEY: local.keys.user, KCT_WEBHOOK_SECRET: local.webhookSecret });
    const receiver = background(process.execPath, [file], env, ROOT);
    const url = await receiver.url;
    const dir = tempDir('kct-recipe-');
    const batch = await runKct(['batch', answersFile(dir), '--model', '12', '--callback-url', url], { env, cwd: dir });
    expect(batch.code).toBe(0);
    expect(await receiver.line(/^batch\.finished tsk_\w+ SUCCESS$/)).toBeTruthy();
    receiver.child.kill('SIGTERM');
  });
});

describe('kct callbacks listen', () => {
  const secret = `whsec_${Buffer.from('a test secret of 24 bytes').toString('base64')}`;
  const signer = new Webhook(secret);
  const deliver = async (url: string, body: string, id = `msg_${Math.random().toString(16).slice(2)}`, sign = true): Promise<number> => {
    const timestamp = new Date();
    const signature = sign ? signer.sign(id, timestamp, body) : 'v1,Zm9yZ2Vk';
    const response = await fetch(url, {
      method: 'POST',
      body,
      headers: {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
        'webhook-signature': signature,
      },
    });
    return response.status;
  };
  const event = (taskId: string) =>
    JSON.stringify({
      type: 'batch.finished',
      timestamp: new Date().toISOString(),
      data: { task_id: taskId, status: 'SUCCESS', count: 3, succeeded: 2, failed: 1 },
    });

  it('verifies each delivery: 204 and one JSON line per event; forged ones 400 and not counted; repeats marked and not counted', async () => {
    const env = kctEnv(tempDir(), { KCT_WEBHOOK_SECRET: secret });
    const listener = background(process.execPath, [BIN, 'callbacks', 'listen', '--port', '0', '--count', '2', '--json'], env, ROOT);
    const url = await listener.url;
    expect(await deliver(url, event('tsk_forged'), 'msg_forged', false)).toBe(400);
    expect((await fetch(url)).status).toBe(405);
    expect(await deliver(url, event('tsk_a'), 'msg_same')).toBe(204);
    expect(await deliver(url, event('tsk_a'), 'msg_same')).toBe(204);
    expect(await deliver(url, event('tsk_b'), 'msg_other')).toBe(204);
    expect(await listener.exited).toBe(0);
    const printed = listener.lines.map((line) =>
      parseJson<{ webhook_id: string; duplicate: boolean; event: { data: { task_id: string } } }>(line),
    );
    expect(printed.map((p) => [p.webhook_id, p.duplicate, p.event.data.task_id])).toEqual([
      ['msg_same', false, 'tsk_a'],
      ['msg_same', true, 'tsk_a'],
      ['msg_other', false, 'tsk_b'],
    ]);
  });

  it('--forward-to passes the delivery on unchanged and answers with its status', async () => {
    const received: { headers: Record<string, unknown>; body: string }[] = [];
    let status = 200;
    const target = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(status).end();
      });
    });
    await new Promise<void>((done) => target.listen(0, '127.0.0.1', done));
    try {
      const targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/hooks/kct`;
      const env = kctEnv(tempDir(), { KCT_WEBHOOK_SECRET: secret });
      const listener = background(
        process.execPath,
        [BIN, 'callbacks', 'listen', '--port', '0', '--forward-to', targetUrl, '--count', '2'],
        env,
        ROOT,
      );
      const url = await listener.url;
      const body = event('tsk_forwarded');
      expect(await deliver(url, body, 'msg_fw1')).toBe(200);
      status = 500;
      expect(await deliver(url, body, 'msg_fw2')).toBe(500);
      // not taken, so not counted: the sender's redelivery is
      status = 200;
      expect(await deliver(url, body, 'msg_fw2')).toBe(200);
      expect(await listener.exited).toBe(0);
      expect(received).toHaveLength(3);
      expect(received[0].body).toBe(body);
      expect(received[0].headers['webhook-id']).toBe('msg_fw1');
      // the forwarded delivery still verifies with the same secret
      expect(() => signer.verify(received[0].body, received[0].headers as Record<string, string>)).not.toThrow();
      expect(listener.lines[0]).toMatch(
        /msg_fw1\s+batch\.finished\s+tsk_forwarded\s+SUCCESS\s+3 items \(2 succeeded, 1 failed\)\s+-> HTTP 200/,
      );
    } finally {
      target.close();
    }
  });

  it('--forward-to an address where nothing listens: 502 to the sender, stderr says so (the event is still printed), and stopped it names it', async () => {
    const deadUrl = `http://127.0.0.1:${await closedPort()}/hooks/kct`;
    const env = kctEnv(tempDir(), { KCT_WEBHOOK_SECRET: secret });
    const listener = background(
      process.execPath,
      [BIN, 'callbacks', 'listen', '--port', '0', '--forward-to', deadUrl, '--count', '1', '--json'],
      env,
      ROOT,
    );
    expect(await deliver(await listener.url, event('tsk_dead'), 'msg_dead')).toBe(502);
    // --count counts events taken: the listener waits for the redelivery; stopped before it, it says what it left
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(listener.child.exitCode).toBeNull();
    listener.child.kill('SIGTERM');
    expect(await listener.exited).toBe(143);
    expect(listener.stderr()).toContain('"webhook_ids":["msg_dead"]');
    expect(parseJson<{ forwarded_status: number; forward_error: string }>(listener.lines[0])).toMatchObject({
      forwarded_status: 502,
      forward_error: expect.stringContaining('ECONNREFUSED'),
    });
    expect(listener.stderr()).toContain(`delivery msg_dead was not taken by ${deadUrl}`);
    expect(listener.stderr()).toContain('is your receiver running there?');
  });

  it('prints a delivery before it answers: with stdout closed by its reader, the next is not acknowledged (exit 141)', async () => {
    const env = kctEnv(tempDir(), { KCT_WEBHOOK_SECRET: secret });
    const listener = background(process.execPath, [BIN, 'callbacks', 'listen', '--port', '0'], env, ROOT);
    const url = await listener.url;
    expect(await deliver(url, event('tsk_p1'), 'msg_p1')).toBe(204);
    await listener.line(/msg_p1/);
    // as `| head -1` does once it has its line
    listener.child.stdout!.destroy();
    const second = await deliver(url, event('tsk_p2'), 'msg_p2').catch(() => 0);
    expect(second >= 200 && second < 300).toBe(false);
    expect(await listener.exited).toBe(141);
  });

  it.skipIf(!existsSync('/dev/full'))('on a full disk a delivery is answered 503, and kct ends with one error line (exit 1)', async () => {
    const full = openSync('/dev/full', 'w');
    const child = spawn(process.execPath, [BIN, 'callbacks', 'listen', '--port', '0'], {
      env: kctEnv(tempDir(), { KCT_WEBHOOK_SECRET: secret }) as NodeJS.ProcessEnv,
      stdio: ['ignore', full, 'pipe'],
    });
    started.push(child);
    closeSync(full);
    let stderr = '';
    const url = new Promise<string>((resolve) =>
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const found = /http:\/\/127\.0\.0\.1:\d+\//.exec(stderr);
        if (found) resolve(found[0]);
      }),
    );
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(await deliver(await url, event('tsk_full'), 'msg_full')).toBe(503);
    expect(await exited).toBe(1);
    expect(stderr).toContain('error: cannot write to standard output (ENOSPC)');
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses to start without a secret, or on a port in use (exit 2)', async () => {
    const none = await runKct(['callbacks', 'listen', '--port', '0']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no webhook secret');
    const taken = new URL(strict.sandbox.baseUrl).port;
    const busy = await runKct(['callbacks', 'listen', '--port', taken], { env: kctEnv(tempDir(), { KCT_WEBHOOK_SECRET: secret }) });
    expect(busy.code).toBe(2);
    expect(busy.stderr).toContain('already in use');
  });
});

describe('kct batch --callback-url over plain http', () => {
  it('is refused before sending when the API is not on this machine', async () => {
    const run = await runKct(['batch', answersFile(tempDir()), '--model', '12', '--callback-url', 'http://127.0.0.1:8080/'], {
      env: kctEnv(tempDir(), { KCT_BASE_URL: 'https://api.example/v1', KCT_API_KEY: 'kct_live_0000000000000000' }),
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('must be an https URL');
    expect(run.stderr).toContain('--allow-private-callbacks');
  });

  it('a local sandbox without --allow-private-callbacks refuses it, and kct says how to start it', async () => {
    const run = await strict.kct(['batch', answersFile(tempDir()), '--model', '12', '--callback-url', 'http://127.0.0.1:8080/']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('HTTP 400');
    expect(run.stderr).toContain('hint: Start the sandbox with --allow-private-callbacks');
  });
});
