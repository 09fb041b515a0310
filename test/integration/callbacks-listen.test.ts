// kct callbacks listen and verify in-process, against deliveries signed here by the Standard
// Webhooks library and a receiver of the test's own for --forward-to: every delivery is printed
// once, as handled or not; --count counts events handled; the exit code says what was not handled;
// nothing is acknowledged before it is printed; a signed body that is not JSON is no forgery.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable, Writable } from 'node:stream';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { checkCallbackUrl } from '../../src/commands/batch/refusals.js';
import { CaptureStream } from '../unit/cli/test-io.js';
import { propertyRuns, propertySeed } from '../unit/property-runs.js';
import { kctEnv, parseJson, type RunResult, runKct, tempDir } from './harness.js';

const secret = `whsec_${Buffer.from('a test secret of 24 bytes').toString('base64')}`;
const signer = new Webhook(secret);
const env = () => kctEnv(tempDir(), { KCT_WEBHOOK_SECRET: secret });

/** Posts a delivery signed with the secret; its status, or 0 when nothing answered. */
async function deliver(url: string, id: string, body = event(id)): Promise<number> {
  const now = new Date();
  try {
    const response = await fetch(url, {
      method: 'POST',
      body,
      headers: {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
        'webhook-signature': signer.sign(id, now, body),
      },
    });
    return response.status;
  } catch {
    return 0;
  }
}

const event = (id: string) => JSON.stringify({ type: 'batch.finished', data: { task_id: `tsk_${id}`, status: 'SUCCESS', count: 1 } });

interface Listener {
  url: Promise<string>;
  /** The URL the 'next' notice suggests for --callback-url. */
  callbackUrl: Promise<string | undefined>;
  run: Promise<RunResult>;
  stop(): void;
}

/** `kct callbacks listen --json ...` in-process; its URLs read from its notices. */
function listen(args: string[]): Listener {
  const stop = new AbortController();
  let found: (url: string) => void = () => {};
  let suggested: (url: string | undefined) => void = () => {};
  const url = new Promise<string>((resolve) => (found = resolve));
  const callbackUrl = new Promise<string | undefined>((resolve) => (suggested = resolve));
  const run = runKct(['callbacks', 'listen', '--port', '0', '--json', ...args], {
    env: env(),
    signal: stop.signal,
    timeoutMs: 20_000,
    onStderr: (chunk) => {
      for (const line of chunk.split('\n').filter(Boolean)) {
        const notice = parseJson<{ notice?: { code: string; url?: string; callback_url?: string } }>(line).notice;
        if (notice?.url) found(notice.url);
        if (notice?.code === 'next') suggested(notice.callback_url);
        if (notice?.code === 'note') suggested(undefined);
      }
    },
  });
  void run.then((result) => {
    found('');
    suggested(undefined);
    return result;
  });
  return { url, callbackUrl, run, stop: () => stop.abort() };
}

interface Printed {
  webhook_id: string;
  duplicate: boolean;
  forwarded_status?: number;
  event: unknown;
  event_error?: string;
}

const printed = (result: RunResult) =>
  result.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => parseJson<Printed>(line));

const errorOf = (result: RunResult) =>
  result.stderr
    .split('\n')
    .filter(Boolean)
    .map((line) => parseJson<{ error?: { code: string; message: string; webhook_ids?: string[] } }>(line).error)
    .find(Boolean);

/** What the receiver behind --forward-to does with a delivery: takes it, refuses it, or drops the connection. */
type Answer = 200 | 500 | 'drop';

describe('kct callbacks listen --forward-to, over any sequence of deliveries', () => {
  let target: Server;
  let targetUrl: string;
  /** What the receiver does with the next delivery it gets. */
  const plan: Answer[] = [];

  beforeAll(async () => {
    target = createServer((request, response) => {
      const answer = plan.shift() ?? 500;
      if (answer === 'drop') {
        request.socket.destroy();
        return;
      }
      request.resume();
      request.on('end', () => response.writeHead(answer).end());
    });
    await new Promise<void>((done) => target.listen(0, '127.0.0.1', done));
    targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/hook`;
  });
  afterAll(() => target.close());
  beforeEach(() => {
    plan.length = 0;
  });

  it('prints each delivery once; counts an event only when taken; names what was never taken, and exits 0 only when all was', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ id: fc.constantFrom('msg_a', 'msg_b', 'msg_c'), answer: fc.constantFrom<Answer>(200, 500, 'drop') }), {
          minLength: 1,
          maxLength: 8,
        }),
        fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
        async (deliveries, count) => {
          const listener = listen(['--forward-to', targetUrl, ...(count === undefined ? [] : ['--count', String(count)])]);
          const url = await listener.url;
          // the model: ids taken, and ids delivered and not (yet) taken
          const taken = new Set<string>();
          const missed = new Set<string>();
          const expected: [string, boolean, number][] = [];
          for (const { id, answer } of deliveries) {
            if (count !== undefined && taken.size >= count) break;
            plan.push(answer);
            const status = await deliver(url, id);
            const forwarded = answer === 'drop' ? 502 : answer;
            expect(status).toBe(forwarded);
            expected.push([id, taken.has(id), forwarded]);
            if (forwarded === 200) {
              taken.add(id);
              missed.delete(id);
            } else if (!taken.has(id)) missed.add(id);
          }
          const reached = count !== undefined && taken.size >= count;
          if (!reached) listener.stop();
          const result = await listener.run;
          plan.length = 0;
          const sorted = (rows: [string, boolean, number][]) => rows.map((row) => JSON.stringify(row)).sort();
          expect(sorted(printed(result).map((p) => [p.webhook_id, p.duplicate, p.forwarded_status!]))).toEqual(sorted(expected));
          expect(result.code).toBe(reached ? (missed.size === 0 ? 0 : 1) : 130);
          if (missed.size === 0) expect(errorOf(result)).toBeUndefined();
          else expect(new Set(errorOf(result)?.webhook_ids)).toEqual(missed);
          expect(result.stderr).toContain(`"events":${taken.size}`);
        },
      ),
      { numRuns: propertyRuns(40), seed: propertySeed(4711) },
    );
  }, 60_000);

  it('a redelivery the receiver takes after failed attempts is no repeat; one after that is', async () => {
    const listener = listen(['--forward-to', targetUrl]);
    const url = await listener.url;
    plan.push('drop', 500, 200, 200);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push(await deliver(url, 'msg_late'));
    expect(statuses).toEqual([502, 500, 200, 200]);
    listener.stop();
    const result = await listener.run;
    expect(result.code).toBe(130);
    expect(errorOf(result)).toBeUndefined();
    expect(printed(result).map((p) => [p.duplicate, p.forwarded_status])).toEqual([
      [false, 502],
      [false, 500],
      [false, 200],
      [true, 200],
    ]);
  });

  it('stopping at --count with a delivery never taken exits 1, naming it', async () => {
    const listener = listen(['--forward-to', targetUrl, '--count', '1']);
    const url = await listener.url;
    plan.push('drop', 200);
    expect(await deliver(url, 'msg_lost')).toBe(502);
    expect(await deliver(url, 'msg_kept')).toBe(200);
    const result = await listener.run;
    expect(result.code).toBe(1);
    expect(errorOf(result)).toMatchObject({ code: 'unhandled_deliveries', webhook_ids: ['msg_lost'] });
    expect(errorOf(result)?.message).toContain('stopped after 1 event; 1 delivery was never handled: msg_lost (forward failed');
  });
});

describe('kct callbacks listen prints a delivery before it answers', () => {
  it('answers 503 to a delivery it cannot print (a full disk), names it, and stops (exit 1)', async () => {
    const full = new Writable({
      write: (_chunk, _encoding, done) => done(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' })),
    });
    // the process's own handler of a stream's error (src/cli/main.ts) stands here
    full.on('error', () => {});
    const stderr = new CaptureStream(false);
    let announced: (url: string) => void = () => {};
    const url = new Promise<string>((resolve) => (announced = resolve));
    const watcher = setInterval(() => {
      const found = /http:\/\/127\.0\.0\.1:\d+\//.exec(stderr.text());
      if (found) announced(found[0]);
    }, 5);
    const stop = new AbortController();
    const exited = main(['callbacks', 'listen', '--port', '0'], {
      io: { stdin: Readable.from([]), stdout: full, stderr },
      env: env() as NodeJS.ProcessEnv,
      handleSignals: false,
      signal: stop.signal,
    });
    try {
      expect(await deliver(await url, 'msg_full')).toBe(503);
      const timer = setTimeout(() => stop.abort(), 5_000);
      expect(await exited).toBe(1);
      clearTimeout(timer);
      expect(stderr.text()).toContain('cannot print to standard output (ENOSPC)');
      expect(stderr.text()).toContain('msg_full (not printed: ENOSPC)');
    } finally {
      clearInterval(watcher);
      stop.abort();
    }
  });
});

describe('a signed body that is not JSON', () => {
  it('listen takes it (204), prints it without an event, and says why', async () => {
    const listener = listen(['--count', '1']);
    expect(await deliver(await listener.url, 'msg_text', 'hello')).toBe(204);
    const result = await listener.run;
    expect(result.code).toBe(0);
    expect(printed(result)).toEqual([
      expect.objectContaining({ webhook_id: 'msg_text', event_error: expect.stringContaining('not JSON') }),
    ]);
    expect(result.stderr).toContain('delivery msg_text is signed correctly, but its body is not JSON');
  });

  it('verify says it is signed but not JSON (exit 1), apart from a forgery (exit 4)', async () => {
    const now = new Date();
    const args = (body: string, signed = body) => [
      'callbacks',
      'verify',
      '--id',
      'msg_text',
      '--timestamp',
      String(Math.floor(now.getTime() / 1000)),
      '--signature',
      signer.sign('msg_text', now, signed),
    ];
    const text = await runKct(args('hello'), { env: env(), input: 'hello' });
    expect(text.stderr).toContain('callback msg_text is signed with this secret, but its body is not JSON');
    expect(text.stdout).toContain('valid: callback msg_text is signed with this secret');
    expect(text.code).toBe(1);
    const forged = await runKct(args('hello', 'other'), { env: env(), input: 'hello' });
    expect(forged.stderr).toContain('does not verify');
    expect(forged.code).toBe(4);
  });

  it('a secret that is not usable is bad input (exit 2) for listen and verify alike', async () => {
    const unusable = kctEnv(tempDir(), { KCT_WEBHOOK_SECRET: 'whsec_' });
    const listened = await runKct(['callbacks', 'listen', '--port', '0'], { env: unusable });
    const verified = await runKct(['callbacks', 'verify', '--id', 'msg_1', '--timestamp', '1', '--signature', 'v1,eA=='], {
      env: unusable,
      input: '{}',
    });
    for (const run of [listened, verified]) {
      expect(run.stderr).toContain('the webhook secret is not usable');
      expect(run.code).toBe(2);
    }
  });
});

describe('kct callbacks listen --host', () => {
  it.each([
    ['0.0.0.0', 'http://127.0.0.1:'],
    ['::', 'http://[::1]:'],
  ])('%s suggests a --callback-url kct batch takes, and deliveries to it arrive', async (host, start) => {
    const listener = listen(['--host', host, '--count', '1']);
    const suggested = await listener.callbackUrl;
    expect(suggested?.startsWith(start)).toBe(true);
    expect(() => checkCallbackUrl(suggested!, 'http://127.0.0.1:4010/v1')).not.toThrow();
    expect(await deliver(suggested!, 'msg_host')).toBe(204);
    expect((await listener.run).code).toBe(0);
  });
});
