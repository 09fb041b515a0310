// Slow clients and CPU stalls: the sandbox closes bodies that trickle or stop within its
// timeouts, leaves no upload folder or open file behind, and keeps answering another account's
// GET /credits quickly while it does, and while worker threads parse huge rubrics. The latency
// and closing-time bounds are checked by `npm run test:reliability` only.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import net from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { FormData } from 'undici';
import { describe, expect, test } from 'vitest';
import { Client, ESSAY, FULL, INTERNALS, openFds, percentile, ROOT, sandboxForFile, sleep, Transcript } from './lib.js';

const REQUEST_TIMEOUT_S = 4;
const IDLE_TIMEOUT_S = 2;
/** Node checks the request and headers timeouts once a second: a close may come that much later, plus scheduling. */
const SLACK_MS = 1_500;
const P99_BOUND_MS = 50;

/**
 * The bound on p99 of GET /credits under load. On a machine busy with other work (1-minute
 * load average above its cores, as on a shared CI runner), the same probe's p99 with the
 * sandbox idle is measured first and the bound is that plus 50 ms: what the sandbox adds. Both
 * figures are printed.
 */
let baselineP99 = 0;
function p99Bound(): { ms: number; why: string } {
  const load = loadavg()[0];
  if (load <= availableParallelism()) return { ms: P99_BOUND_MS, why: `load average ${load.toFixed(1)}` };
  return {
    ms: baselineP99 + P99_BOUND_MS,
    why: `busy machine (load average ${load.toFixed(1)} on ${availableParallelism()} cores): idle p99 ${baselineP99.toFixed(1)} ms + ${P99_BOUND_MS} ms`,
  };
}

const transcript = new Transcript();
const env = sandboxForFile(
  transcript,
  {
    args: [
      '--request-timeout',
      `${REQUEST_TIMEOUT_S}s`,
      '--idle-timeout',
      `${IDLE_TIMEOUT_S}s`,
      '--headers-timeout',
      `${IDLE_TIMEOUT_S}s`,
      '--max-connections',
      '300',
      // the 100 slow clients share one key: each is to be held and closed by the timeouts
      '--max-key-connections',
      '300',
    ],
  },
  30_000,
);

/**
 * GET /credits of another account, one after another, until `until` settles: each answer's
 * time, measured by bench/probe.js in a process of its own, so this file's own uploads cannot
 * delay the probe.
 */
async function probe(until: Promise<unknown>): Promise<{ ms: number[]; statuses: number[] }> {
  const child = spawn(process.execPath, [join(ROOT, 'bench', 'probe.js'), env.sb.baseUrl, env.sb.keys.org_admin, '10'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await until.catch(() => undefined);
  child.stdin!.end();
  await exited;
  const result = JSON.parse(out) as { ms: number[]; statuses: number[] };
  transcript.record(`probe statuses ${[...new Set(result.statuses)].join(',')}`);
  return result;
}

type Slow = 'headers-only' | 'json-drip' | 'multipart-stall' | 'multipart-drip';

/** One slow env.client; resolves with how long the server let it live, and the status it was given. */
function slowClient(kind: Slow, key: string): Promise<{ kind: Slow; ms: number; status: string }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const json = `POST /v1/evaluations/one-pass HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`;
    const multipart =
      `POST /v1/evaluations/one-pass HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nContent-Type: multipart/form-data; boundary=BB\r\nContent-Length: 100000\r\n\r\n` +
      '--BB\r\nContent-Disposition: form-data; name="model_id"\r\n\r\n12\r\n--BB\r\nContent-Disposition: form-data; name="answer_file"; filename="essay.txt"\r\nContent-Type: text/plain\r\n\r\n' +
      ESSAY;
    const socket = net.connect(env.sb.port, '127.0.0.1', () => {
      socket.write(kind.startsWith('json') || kind === 'headers-only' ? json : multipart);
      if (kind.endsWith('drip')) {
        const timer = setInterval(() => (socket.writable ? socket.write('a') : clearInterval(timer)), 1_000);
        socket.once('close', () => clearInterval(timer));
      }
    });
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    socket.on('error', () => undefined);
    socket.once('close', () => resolve({ kind, ms: performance.now() - started, status: text.slice(9, 12) || 'closed' }));
  });
}

describe('baseline', () => {
  test.runIf(FULL)('GET /credits of another account with the sandbox idle', async () => {
    const probes = await probe(sleep(3_000));
    expect(probes.statuses.every((s) => s === 200)).toBe(true);
    baselineP99 = percentile(probes.ms, 99);
    console.log(
      `[reliability] idle: GET /credits p50 ${percentile(probes.ms, 50).toFixed(1)} ms, p99 ${baselineP99.toFixed(1)} ms over ${probes.ms.length} requests; load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  });
});

describe('slow clients', () => {
  const SLOW = FULL ? 100 : 40;
  test(`${SLOW} slow bodies are all closed within the timeouts, others are served meanwhile, and nothing is left behind`, async () => {
    const fdsBefore = openFds(env.sb.child.pid!);
    const kinds: Slow[] = ['headers-only', 'json-drip', 'multipart-stall', 'multipart-drip'];
    const slow = Promise.all(Array.from({ length: SLOW }, (_, i) => slowClient(kinds[i % 4], env.sb.keys.user)));
    const [results, probes] = await Promise.all([slow, probe(slow)]);
    expect(probes.statuses.every((s) => s === 200)).toBe(true);
    for (const r of results) expect([r.kind, r.status]).toEqual([r.kind, '408']);
    await expect.poll(() => readdirSync(join(env.sb.dataDir, 'files', 'incoming')), { timeout: 10_000 }).toEqual([]);
    await expect.poll(() => openFds(env.sb.child.pid!), { timeout: 10_000 }).toBeLessThanOrEqual(fdsBefore + 2);
    const longest = (kind: Slow) => Math.max(...results.filter((r) => r.kind === kind).map((r) => r.ms));
    console.log(
      `[reliability] slow clients: ${SLOW} held open; closed after at most ${kinds.map((k) => `${k} ${Math.round(longest(k))} ms`).join(', ')}; GET /credits meanwhile p50 ${percentile(probes.ms, 50).toFixed(1)} ms, p99 ${percentile(probes.ms, 99).toFixed(1)} ms over ${probes.ms.length} requests; fds back to ${openFds(env.sb.child.pid!)} (${fdsBefore} before)`,
    );
    if (FULL) {
      expect(longest('headers-only')).toBeLessThan(IDLE_TIMEOUT_S * 1000 + SLACK_MS);
      expect(longest('multipart-stall')).toBeLessThan(IDLE_TIMEOUT_S * 1000 + SLACK_MS);
      expect(longest('json-drip')).toBeLessThan(REQUEST_TIMEOUT_S * 1000 + SLACK_MS);
      expect(longest('multipart-drip')).toBeLessThan(REQUEST_TIMEOUT_S * 1000 + SLACK_MS);
      const bound = p99Bound();
      expect(percentile(probes.ms, 99), bound.why).toBeLessThan(bound.ms);
    }
  });
});

describe('CPU stalls', () => {
  const MEGABYTES = FULL ? 10 : 2;
  const CRITERIA = Math.ceil((MEGABYTES * 1024 * 1024) / 28);
  test(`while 4 tasks parse a ${MEGABYTES} MB rubric each in worker threads, another account is answered quickly`, async () => {
    const rubric = Buffer.from('Criterion x (5 marks): text\n'.repeat(CRITERIA));
    const submitter = new Client(transcript, 60_000);
    const taskIds = await Promise.all(
      [1, 2, 3, 4].map(async () => {
        const form = new FormData();
        form.append('model_id', '12');
        form.append('paper_content', ESSAY);
        form.append('rubric_file', new Blob([rubric], { type: 'text/plain' }), 'rubric.txt');
        return (await submitter.call(`${env.sb.baseUrl}/evaluations/one-pass`, { key: env.sb.keys.user, form })).body.data
          .task_id as string;
      }),
    );
    // The request of the issue, a 10 MB rubric_text in JSON: refused before it is parsed.
    const issueRubric = 'Criterion x (5 marks): text\n'.repeat(Math.ceil((10 * 1024 * 1024) / 28));
    const refused = Promise.all(
      [1, 2, 3, 4].map(() =>
        submitter.call(`${env.sb.baseUrl}/evaluations/one-pass`, {
          key: env.sb.keys.user,
          json: { model_id: 12, paper_content: ESSAY, rubric_text: issueRubric },
        }),
      ),
    );
    const finals = (async () => {
      const out: any[] = [];
      for (const taskId of taskIds) {
        for (;;) {
          const res = await submitter.call(`${env.sb.baseUrl}/evaluations/${taskId}`, { key: env.sb.keys.user });
          if (['SUCCESS', 'FAILURE', 'CANCEL'].includes(res.body.data.status)) {
            out.push(res.body.data);
            break;
          }
          await sleep(100);
        }
      }
      return out;
    })();
    const work = Promise.all([finals, refused]);
    const [[results, refusals], probes] = await Promise.all([work, probe(work)]);
    await submitter.close();
    for (const r of refusals) expect([r.status, r.body.error.code]).toEqual([413, 'body_too_large']);
    for (const r of results) {
      expect(r.status).toBe('FAILURE');
      expect(r.message).toMatch(new RegExp(`has ${CRITERIA.toLocaleString('en-US')} criteria; at most 50 can be marked`));
      expect(r.message).not.toMatch(INTERNALS);
    }
    expect(probes.statuses.every((s) => s === 200)).toBe(true);
    const bound = p99Bound();
    console.log(
      `[reliability] CPU stall: 4 tasks with a ${MEGABYTES} MB rubric file (${CRITERIA.toLocaleString('en-US')} criteria) and 4 JSON requests with a 10 MB rubric_text; GET /credits of another account meanwhile p50 ${percentile(probes.ms, 50).toFixed(1)} ms, p99 ${percentile(probes.ms, 99).toFixed(1)} ms, max ${Math.max(...probes.ms).toFixed(1)} ms over ${probes.ms.length} requests; bound ${bound.ms.toFixed(1)} ms (${bound.why})`,
    );
    if (FULL) expect(percentile(probes.ms, 99), bound.why).toBeLessThan(bound.ms);
  });
});
