// 5. Scale: a whole district in one run (issue 13). For 1,000, 10,000 and 100,000 small text
// answers (seeded; BENCH_QUICK=1: 1,000 and 10,000; the smoke pass: 10), each against a fresh sandbox
// (--latency 0 --workers 4; BENCH_SCALE_RATE_LIMIT=n adds --rate-limit n) behind a counting proxy,
// kct with no --max-rps (the pace it finds; BENCH_SCALE_MAX_RPS=n sets one):
//   - kct one-pass DIR --no-wait --via one-pass --jobs 16: time, peak RSS, requests per answer,
//     the pace reached (peak requests/s), the share answered 429, and the drain-time floor (from
//     the first submission until the sandbox has finished every task, with no client polling)
//     and the sandbox's queue rate; then, side by side, undici alone sending the same requests
//     (bench/floor-submit.js against a fresh sandbox): its time and its peak RSS;
//   - the same run waiting (the default): peak RSS, requests per answer, wall time against the
//     floor, and how long after the sandbox finished its last task kct noticed (target: 15 s);
//   - waiting with --via batch (the default for plain text from 500 answers);
//   - the waiting one-pass run again with its --resume journal: requests sent (target 0), time.
// Plus, at 1,000 answers, a sandbox that keeps a queue (--latency 100, 4 workers) with kct's
// default pace. Figures, method and load: docs/benchmarks.md.

import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, Agent as HttpAgent, request as httpRequest } from 'node:http';
import { join } from 'node:path';
import {
  BENCH,
  BIN,
  cpuSeconds,
  essay,
  fixed,
  kctEnv,
  loadLine,
  log,
  removeDir,
  sandboxDb,
  setCredits,
  sized,
  startSandbox,
  table,
  tempDir,
  timeProcess,
} from './lib.js';

const SIZES = (process.env.BENCH_SCALE_SIZES ?? sized('1000,10000,100000', '1000,10000', '10')).split(',').map(Number);
/** Answers of the run against a sandbox that keeps a queue, at kct's default budget. */
const QUEUED_ANSWERS = sized(1000, 1000, 8);
/** BENCH_SCALE_PARTS=queue (or kct, service, comma-separated): only those parts; default all three. */
const PARTS = new Set((process.env.BENCH_SCALE_PARTS ?? 'kct,queue,service').split(',').map((p) => p.trim()));
for (const part of PARTS)
  if (!['kct', 'queue', 'service'].includes(part))
    throw new Error(`BENCH_SCALE_PARTS: unknown part "${part}"; choose from kct, queue, service`);
/** No ceiling unless asked for: the runs measure the pace kct finds. */
const MAX_RPS = process.env.BENCH_SCALE_MAX_RPS ? ['--max-rps', process.env.BENCH_SCALE_MAX_RPS] : [];
/** The sandbox's per-key rate limit (requests a second), when asked for. */
const RATE_LIMIT = process.env.BENCH_SCALE_RATE_LIMIT ? ['--rate-limit', process.env.BENCH_SCALE_RATE_LIMIT] : [];
/** BENCH_SCALE_RUNS=waiting (or no-wait, batch, comma-separated): only those runs of the kct part; the 100,000 runs take hours together. */
const RUNS = new Set((process.env.BENCH_SCALE_RUNS ?? 'no-wait,waiting,batch').split(',').map((r) => r.trim()));
for (const run of RUNS)
  if (!['no-wait', 'waiting', 'batch'].includes(run))
    throw new Error(`BENCH_SCALE_RUNS: unknown run "${run}"; choose from no-wait, waiting, batch`);

/** The answers: short essays of 300 to 700 characters, the same on every run. */
export function writeClass(count) {
  const dir = tempDir('kct-bench-scale-');
  for (let i = 1; i <= count; i++) writeFileSync(join(dir, `s${String(i).padStart(6, '0')}.txt`), essay(i, 300 + ((i * 37) % 400)));
  return dir;
}

/** A sandbox whose user can pay for 100,000 tasks and more (the seeded 1,000 credits would not). */
export async function richSandbox(options = {}) {
  const dataDir = tempDir('kct-bench-scale-sbx-');
  const sandbox = await startSandbox({ workers: 4, latencyMs: 0, dataDir, extraArgs: RATE_LIMIT, ...options });
  try {
    setCredits(dataDir, 'user', 1_000_000_000);
  } catch (error) {
    // a benchmark that cannot run leaves no sandbox behind
    await sandbox.stop();
    throw error;
  }
  return {
    ...sandbox,
    dataDir,
    /** When the sandbox accepted its first task and finished its last (ms since the epoch), and how many. */
    tasks() {
      const view = sandboxDb(dataDir, { readonly: true });
      try {
        const row = view
          .prepare(
            "SELECT COUNT(*) AS n, MIN(created_at) AS first, MAX(finished_at) AS last, SUM(status = 'SUCCESS') AS ok FROM tasks WHERE kind != 'batch'",
          )
          .get();
        return { count: row.n, succeeded: row.ok ?? 0, first: Date.parse(row.first), last: Date.parse(row.last) };
      } finally {
        view.close();
      }
    },
    async stop() {
      await sandbox.stop();
      removeDir(dataDir);
    },
  };
}

/** Counts every request by kind and by second, and the answers that were 429; forwards it on keep-alive connections. */
export async function countingProxy(targetBaseUrl) {
  const target = new URL(targetBaseUrl);
  const agent = new HttpAgent({ keepAlive: true, maxSockets: 64 });
  const counts = { submit: 0, batch: 0, status: 0, result: 0, other: 0 };
  let refused = 0;
  const perSecond = new Map();
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    const kind = /\/status$/.test(path)
      ? 'status'
      : req.method === 'POST' && path.endsWith('/one-pass')
        ? 'submit'
        : req.method === 'POST' && path.endsWith('/batch')
          ? 'batch'
          : req.method === 'GET' && /\/evaluations\/[^/]+$/.test(path)
            ? 'result'
            : 'other';
    counts[kind] += 1;
    const second = Math.floor(Date.now() / 1000);
    perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path, headers: req.headers, agent },
      (answer) => {
        if (answer.statusCode === 429) refused += 1;
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  return {
    baseUrl: `http://127.0.0.1:${server.address().port}${target.pathname}`,
    /** Requests counted so far, the most in one clock second, and how many were answered 429; then starts counting afresh. */
    take() {
      const total = Object.values(counts).reduce((a, b) => a + b, 0);
      const taken = { ...counts, total, peak: Math.max(0, ...perSecond.values()), refused };
      for (const key of Object.keys(counts)) counts[key] = 0;
      perSecond.clear();
      refused = 0;
      return taken;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
      agent.destroy();
    },
  };
}

/** Runs kct through /bin/sh (so its peak RSS is its own, see memory.js), stdout to a file. */
export function kct(args, env) {
  return nodeScript(BIN, args, env);
}

/** Runs a Node script as kct is run: its time, its output lines and its own peak RSS. */
async function nodeScript(script, args, env) {
  const dir = tempDir('kct-bench-scale-run-');
  const rssFile = join(dir, 'maxrss');
  try {
    const started = Date.now();
    const run = await timeProcess(
      '/bin/sh',
      ['-c', '"$0" "$@"; exit $?', process.execPath, '--import', join(BENCH, 'maxrss.js'), script, ...args],
      {
        env: { ...env, BENCH_MAXRSS_FILE: rssFile },
        toFiles: true,
        timeoutMs: 4 * 3600_000,
      },
    );
    const lines = run.stdout.split('\n').filter(Boolean);
    // ended: when the process exited (timeProcess reads its output files only after)
    return {
      ...run,
      started,
      ended: started + run.ms,
      lines,
      rssMB: Number(readFileSync(rssFile, 'utf8').trim().split('\n').pop()) / 1024,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function check(label, run, count, status) {
  if (run.code !== 0) throw new Error(`${label} exited with ${run.code ?? run.signal}: ${run.stderr.slice(-1500)}`);
  const rows = run.lines.map((line) => JSON.parse(line));
  const good = rows.filter((row) => row.status === status).length;
  if (rows.length !== count || good !== count) throw new Error(`${label}: ${rows.length} rows, ${good} ${status}, expected ${count}`);
}

/** Until the sandbox has finished every task (GET /credits: nothing reserved), polled every 100 ms. */
async function drained(sandbox, count) {
  for (;;) {
    const tasks = sandbox.tasks();
    if (tasks.count >= count && Number.isFinite(tasks.last)) {
      const res = await fetch(`${sandbox.baseUrl}/credits`, { headers: { 'x-api-key': sandbox.keys.user } });
      const body = await res.json();
      if ((body.data ?? body).reserved === 0) return sandbox.tasks();
    }
    await new Promise((done) => setTimeout(done, 100));
  }
}

async function measureSize(count, configDir) {
  const dir = writeClass(count);
  const journalDir = tempDir('kct-bench-scale-journal-');
  const result = { count };
  try {
    // --no-wait, one request per answer: memory, requests, the floor and the queue rate
    if (RUNS.has('no-wait')) {
      const sandbox = await richSandbox();
      const proxy = await countingProxy(sandbox.baseUrl);
      try {
        const env = kctEnv(configDir, { baseUrl: proxy.baseUrl, keys: sandbox.keys });
        const run = await kct(
          ['one-pass', dir, '--model', '12', '--no-wait', '--via', 'one-pass', '--jobs', '16', ...MAX_RPS, '--output', 'ndjson'],
          env,
        );
        check('--no-wait', run, count, 'QUEUED');
        const requests = proxy.take();
        const tasks = await drained(sandbox, count);
        result.noWait = {
          rssMB: run.rssMB,
          seconds: run.ms / 1000,
          requests,
          floorSeconds: (tasks.last - run.started) / 1000,
          queueRate: count / ((tasks.last - tasks.first) / 1000),
        };
      } finally {
        await proxy.close();
        await sandbox.stop();
      }
      // the floor's peak RSS: undici alone sending the same requests (bench/floor-submit.js), a fresh
      // sandbox with no rate limit (undici alone does not handle 429: it is the memory floor, not a pace)
      const floorSandbox = await richSandbox({ extraArgs: [] });
      try {
        const floor = await nodeScript(join(BENCH, 'floor-submit.js'), [dir, '--jobs', '16', '--hash'], kctEnv(configDir, floorSandbox));
        if (floor.code !== 0 || floor.lines.length !== count)
          throw new Error(`floor: exit ${floor.code}, ${floor.lines.length} of ${count} accepted: ${floor.stderr.slice(-1500)}`);
        result.noWait.floorRssMB = floor.rssMB;
        result.noWait.floorRunSeconds = floor.ms / 1000;
      } finally {
        await floorSandbox.stop();
      }
      log(`  --no-wait at ${count}: ${JSON.stringify(result.noWait)}`);
    }
    // waiting, one request per answer, with a journal
    const journal = join(journalDir, 'marks.journal');
    if (RUNS.has('waiting')) {
      const sandbox = await richSandbox();
      const proxy = await countingProxy(sandbox.baseUrl);
      try {
        const env = kctEnv(configDir, { baseUrl: proxy.baseUrl, keys: sandbox.keys });
        const run = await kct(
          [
            'one-pass',
            dir,
            '--model',
            '12',
            '--via',
            'one-pass',
            '--jobs',
            '16',
            ...MAX_RPS,
            '--timeout',
            '6h',
            '--resume',
            journal,
            '--output',
            'ndjson',
          ],
          env,
        );
        check('waiting', run, count, 'SUCCESS');
        const tasks = sandbox.tasks();
        result.waiting = { rssMB: run.rssMB, seconds: run.ms / 1000, requests: proxy.take(), lateSeconds: (run.ended - tasks.last) / 1000 };
        log(`  waiting at ${count}: ${JSON.stringify(result.waiting)}`);
        // the same command again: everything is in the journal
        const again = await kct(
          ['one-pass', dir, '--model', '12', '--via', 'one-pass', '--jobs', '16', ...MAX_RPS, '--resume', journal, '--output', 'ndjson'],
          env,
        );
        check('resumed', again, count, 'SUCCESS');
        result.resumed = {
          rssMB: again.rssMB,
          seconds: again.ms / 1000,
          requests: proxy.take(),
          journalMB: statSync(journal).size / 2 ** 20,
        };
        log(`  --resume at ${count}: ${JSON.stringify(result.resumed)}`);
      } finally {
        await proxy.close();
        await sandbox.stop();
      }
    }
    // waiting, --via batch (what --via auto does from 500 plain-text answers)
    if (RUNS.has('batch')) {
      const sandbox = await richSandbox();
      const proxy = await countingProxy(sandbox.baseUrl);
      try {
        const env = kctEnv(configDir, { baseUrl: proxy.baseUrl, keys: sandbox.keys });
        const run = await kct(
          ['one-pass', dir, '--model', '12', '--via', 'batch', '--jobs', '16', ...MAX_RPS, '--timeout', '6h', '--output', 'ndjson'],
          env,
        );
        check('--via batch', run, count, 'SUCCESS');
        const tasks = sandbox.tasks();
        result.batch = { rssMB: run.rssMB, seconds: run.ms / 1000, requests: proxy.take(), lateSeconds: (run.ended - tasks.last) / 1000 };
        log(`  --via batch at ${count}: ${JSON.stringify(result.batch)}`);
      } finally {
        await proxy.close();
        await sandbox.stop();
      }
    }
  } finally {
    removeDir(dir);
    removeDir(journalDir);
  }
  return result;
}

/** 1,000 answers against a sandbox that keeps a queue, with kct's default pace: politeness as users get it. */
async function queuedService(configDir) {
  const count = QUEUED_ANSWERS;
  const dir = writeClass(count);
  const sandbox = await richSandbox({ latencyMs: 100 });
  const proxy = await countingProxy(sandbox.baseUrl);
  try {
    const env = kctEnv(configDir, { baseUrl: proxy.baseUrl, keys: sandbox.keys });
    const run = await kct(
      ['one-pass', dir, '--model', '12', '--via', 'one-pass', '--jobs', '4', '--timeout', '2h', '--output', 'ndjson'],
      env,
    );
    check('queued service', run, count, 'SUCCESS');
    const tasks = sandbox.tasks();
    return {
      count,
      rssMB: run.rssMB,
      seconds: run.ms / 1000,
      requests: proxy.take(),
      lateSeconds: (run.ended - tasks.last) / 1000,
      serviceSeconds: (tasks.last - tasks.first) / 1000,
    };
  } finally {
    await proxy.close();
    await sandbox.stop();
    removeDir(dir);
  }
}

/**
 * Goal 5: `count` tasks queued at once (copies of one real task, written into a stopped
 * sandbox's database), then the sandbox started (--latency 0 --workers 4): how fast the queue
 * drains, and GET /status latency on waiting tasks (tail, middle, head) while it does, one
 * request at a time from 4 pollers, each pausing 20 ms between polls.
 */
export async function queueDrain(count) {
  const dataDir = tempDir('kct-bench-scale-queue-');
  try {
    {
      const sandbox = await startSandbox({ workers: 4, latencyMs: 0, dataDir });
      const res = await fetch(`${sandbox.baseUrl}/evaluations/one-pass`, {
        method: 'POST',
        headers: { 'x-api-key': sandbox.keys.user, 'content-type': 'application/json' },
        body: JSON.stringify({ model_id: 12, paper_content: essay(1, 500) }),
      });
      if (res.status !== 202) throw new Error(`queue bench: submission answered ${res.status}`);
      await res.arrayBuffer();
      await sandbox.stop();
    }
    setCredits(dataDir, 'user', 1_000_000_000);
    const db = sandboxDb(dataDir);
    const now = new Date().toISOString();
    const ids = db.transaction(() => {
      db.prepare(`INSERT INTO tasks (task_id, kind, owner_user_id, scope, model_id, student_id, status, credit_cost, credits_charged, retryable, input_json, created_at, updated_at)
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
        SELECT printf('tsk_%024x', 1000000 + i), kind, owner_user_id, scope, model_id, 's' || i, 'QUEUED', credit_cost, 0, 1, input_json, ?, ?
        FROM n, (SELECT * FROM tasks WHERE kind = 'one_pass' LIMIT 1)`).run(count, now, now);
      return db
        .prepare("SELECT task_id FROM tasks WHERE status = 'QUEUED' ORDER BY seq")
        .all()
        .map((r) => r.task_id);
    })();
    db.close();
    // --log: the sandbox says at close how long its event loop was ever held (its own measure)
    const sandbox = await startSandbox({ workers: 4, latencyMs: 0, dataDir, extraArgs: ['--log'] });
    const cpuAtStart = cpuSeconds(sandbox.pid);
    const mainAtStart = cpuSeconds(sandbox.pid, true);
    const started = Date.now();
    const latencies = [];
    let done = false;
    const poller = async (pick) => {
      while (!done) {
        const taskId = ids[pick()];
        const t0 = performance.now();
        const res = await fetch(`${sandbox.baseUrl}/evaluations/${taskId}/status`, { headers: { 'x-api-key': sandbox.keys.user } });
        await res.arrayBuffer();
        latencies.push(performance.now() - t0);
        await new Promise((wait) => setTimeout(wait, 20)); // 4 pollers: at most ~200 polls a second
      }
    };
    const tail = () => ids.length - 1;
    let drainedAt = 0;
    let cpuDrain = NaN;
    let mainDrain = NaN;
    const watch = (async () => {
      for (;;) {
        const res = await fetch(`${sandbox.baseUrl}/evaluations/${ids[ids.length - 1]}/status`, {
          headers: { 'x-api-key': sandbox.keys.user },
        });
        const status = (await res.json()).data?.status;
        if (status === 'SUCCESS' || status === 'FAILURE') break;
        await new Promise((wait) => setTimeout(wait, 200));
      }
      drainedAt = Date.now();
      cpuDrain = cpuSeconds(sandbox.pid) - cpuAtStart;
      mainDrain = cpuSeconds(sandbox.pid, true) - mainAtStart;
      done = true;
    })();
    let cursor = 0;
    await Promise.all([
      poller(tail),
      poller(() => Math.floor(ids.length / 2)),
      poller(() => (cursor = (cursor + 7919) % ids.length)),
      poller(() => (cursor = (cursor + 104729) % ids.length)),
      watch,
    ]);
    await sandbox.stop();
    // BENCH_SANDBOX_OUT=FILE: what the drained sandbox printed (with BENCH_SANDBOX_NODE_ARGS="--trace-gc", its collections)
    if (process.env.BENCH_SANDBOX_OUT) writeFileSync(process.env.BENCH_SANDBOX_OUT, sandbox.stdout().join('\n'));
    const loop = /event loop delay while running: p50 ([\d.]+) ms, p99 ([\d.]+) ms, max ([\d.]+) ms/.exec(sandbox.stderr());
    const view = sandboxDb(dataDir, { readonly: true });
    const row = view
      .prepare(
        "SELECT COUNT(*) AS n, SUM(status = 'SUCCESS') AS ok, MIN(updated_at) AS first, MAX(finished_at) AS last FROM tasks WHERE task_id LIKE 'tsk_0000%'",
      )
      .get();
    view.close();
    latencies.sort((a, b) => a - b);
    const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
    const serviceSeconds = (Date.parse(row.last) - started) / 1000;
    return {
      count,
      succeeded: row.ok,
      seconds: (drainedAt - started) / 1000,
      rate: count / serviceSeconds,
      cpuMsPerTask: (cpuDrain * 1000) / count,
      mainMsPerTask: (mainDrain * 1000) / count,
      loopP99: loop ? Number(loop[2]) : NaN,
      loopMax: loop ? Number(loop[3]) : NaN,
      polls: latencies.length,
      p50: at(0.5),
      p99: at(0.99),
      max: latencies[latencies.length - 1],
    };
  } finally {
    removeDir(dataDir);
  }
}

const perAnswer = (requests, count) => fixed(requests.total / count);

export async function run() {
  const configDir = tempDir('kct-bench-cfg-');
  mkdirSync(configDir, { recursive: true });
  const results = [];
  try {
    const measured = [];
    for (const count of PARTS.has('kct') ? SIZES : []) {
      log(`scale: ${count.toLocaleString('en')} answers (load average ${loadLine()})`);
      measured.push(await measureSize(count, configDir));
    }
    const drains = [];
    for (const count of PARTS.has('queue') ? SIZES : []) {
      log(`scale: the sandbox's queue, ${count.toLocaleString('en')} tasks queued at once (load average ${loadLine()})`);
      drains.push(await queueDrain(count));
    }
    let queued;
    if (PARTS.has('service')) {
      log(`scale: ${QUEUED_ANSWERS.toLocaleString('en')} answers, sandbox --latency 100, kct's default pace (load average ${loadLine()})`);
      queued = await queuedService(configDir);
    }
    log(
      `sizes: ${SIZES.join(', ')}; sandbox --latency 0 --workers 4 ${RATE_LIMIT.join(' ')} behind a counting proxy; kct --jobs 16 ${MAX_RPS.join(' ') || '(no --max-rps: the pace it finds)'}`,
    );
    const floorOf = (m) => m.noWait?.floorSeconds;
    const vsFloor = (m, seconds) => (floorOf(m) ? `${fixed(seconds / floorOf(m))}x` : 'no floor measured');
    if (measured.length > 0)
      log(
        table(
          ['answers', 'run', 'peak RSS MB', 'seconds', 'requests/answer', 'pace: peak req/s (429s)', 'vs floor', 'noticed last task after'],
          measured.flatMap((m) => [
            ...(m.noWait
              ? [
                  [
                    m.count,
                    '--no-wait',
                    fixed(m.noWait.rssMB, 1),
                    fixed(m.noWait.seconds, 1),
                    perAnswer(m.noWait.requests, m.count),
                    `${m.noWait.requests.peak} (${m.noWait.requests.refused})`,
                    `floor ${fixed(m.noWait.floorSeconds, 1)} s, queue ${fixed(m.noWait.queueRate, 0)} tasks/s; undici alone ${fixed(m.noWait.floorRunSeconds, 1)} s, ${fixed(m.noWait.floorRssMB, 1)} MB`,
                    '',
                  ],
                ]
              : []),
            ...(m.waiting
              ? [
                  [
                    m.count,
                    'waiting',
                    fixed(m.waiting.rssMB, 1),
                    fixed(m.waiting.seconds, 1),
                    perAnswer(m.waiting.requests, m.count),
                    `${m.waiting.requests.peak} (${m.waiting.requests.refused})`,
                    vsFloor(m, m.waiting.seconds),
                    `${fixed(m.waiting.lateSeconds, 1)} s`,
                  ],
                ]
              : []),
            ...(m.batch
              ? [
                  [
                    m.count,
                    '--via batch',
                    fixed(m.batch.rssMB, 1),
                    fixed(m.batch.seconds, 1),
                    fixed(m.batch.requests.total / m.count, 3),
                    `${m.batch.requests.peak} (${m.batch.requests.refused})`,
                    vsFloor(m, m.batch.seconds),
                    `${fixed(m.batch.lateSeconds, 1)} s`,
                  ],
                ]
              : []),
            ...(m.resumed
              ? [
                  [
                    m.count,
                    '--resume (all done)',
                    fixed(m.resumed.rssMB, 1),
                    fixed(m.resumed.seconds, 1),
                    perAnswer(m.resumed.requests, m.count),
                    m.resumed.requests.peak,
                    `journal ${fixed(m.resumed.journalMB, 1)} MB`,
                    '',
                  ],
                ]
              : []),
          ]),
        ),
      );
    if (drains.length > 0)
      log(
        table(
          [
            'tasks queued',
            'succeeded',
            'drained in s',
            'tasks/s',
            'sandbox CPU ms/task (main thread)',
            'status polls',
            'status p50 ms',
            'p99 ms',
            'max ms',
            'sandbox loop delay p99 / max ms',
          ],
          drains.map((d) => [
            d.count,
            d.succeeded,
            fixed(d.seconds, 1),
            fixed(d.rate, 0),
            `${fixed(d.cpuMsPerTask, 2)} (${fixed(d.mainMsPerTask, 2)})`,
            d.polls,
            fixed(d.p50, 1),
            fixed(d.p99, 1),
            fixed(d.max, 1),
            `${fixed(d.loopP99, 1)} / ${fixed(d.loopMax, 1)}`,
          ]),
        ),
      );
    if (measured.some((m) => m.waiting))
      log(
        `requests by kind (waiting one-pass): ${measured
          .filter((m) => m.waiting)
          .map((m) => `${m.count}: ${JSON.stringify(m.waiting.requests)}`)
          .join('; ')}`,
      );
    if (queued)
      log(
        `queued service (${QUEUED_ANSWERS.toLocaleString('en')} answers, --latency 100, default pace): ${fixed(queued.seconds, 1)} s (the service busy ${fixed(queued.serviceSeconds, 1)} s), ${perAnswer(queued.requests, queued.count)} requests/answer (${JSON.stringify(queued.requests)}), peak ${queued.requests.peak} req/s, last task noticed ${fixed(queued.lateSeconds, 1)} s after it finished, ${fixed(queued.rssMB, 1)} MB`,
      );
    for (const m of measured) {
      // issue 34: at most 150 MB at 20,000 and 100,000 answers; 20,000 in at most 4 minutes unlimited; under
      // --rate-limit 50, at least 40 answers a second with at most 5% of requests answered 429
      const rssTarget = m.count >= 20_000 ? 150 : undefined;
      const limited = RATE_LIMIT.length > 0;
      if (m.noWait) {
        const perSecond = m.count / m.noWait.seconds;
        const refusedShare = m.noWait.requests.refused / Math.max(1, m.noWait.requests.total);
        results.push({
          benchmark: `scale: ${m.count} answers --no-wait${limited ? ` (sandbox ${RATE_LIMIT.join(' ')})` : ''}`,
          kct: `${fixed(m.noWait.seconds, 1)} s (${fixed(perSecond, 0)} answers/s, pace ${m.noWait.requests.peak}/s, ${fixed(100 * refusedShare, 1)}% 429), ${fixed(m.noWait.rssMB, 1)} MB peak RSS`,
          floor: `${fixed(m.noWait.floorSeconds, 1)} s drain; undici alone: ${fixed(m.noWait.floorRunSeconds, 1)} s, ${fixed(m.noWait.floorRssMB, 1)} MB`,
          ratio: `${fixed(m.noWait.seconds / m.noWait.floorSeconds)}x`,
          target: limited
            ? '>= 40 answers/s, <= 5% 429'
            : `${m.count === 20_000 ? '<= 240 s, ' : ''}${rssTarget ? `<= ${rssTarget} MB` : '(information)'}`,
          met: limited
            ? perSecond >= 40 && refusedShare <= 0.05
            : (m.count !== 20_000 || m.noWait.seconds <= 240) && (rssTarget === undefined || m.noWait.rssMB <= rssTarget),
        });
      }
      if (m.waiting)
        results.push({
          benchmark: `scale: ${m.count} answers waiting`,
          kct: `${fixed(m.waiting.rssMB, 1)} MB, ${perAnswer(m.waiting.requests, m.count)} req/answer`,
          floor: floorOf(m) ? `${fixed(floorOf(m), 1)} s drain` : '-',
          ratio: floorOf(m) ? `${fixed(m.waiting.seconds / floorOf(m))}x` : '-',
          target: `<= 4 req/answer${m.count >= 100_000 ? ', <= 120 MB' : ''}, last task <= 15 s`,
          met: m.waiting.requests.total / m.count <= 4 && m.waiting.lateSeconds <= 15 && (m.count < 100_000 || m.waiting.rssMB <= 120),
        });
      if (m.resumed)
        results.push({
          benchmark: `scale: ${m.count} answers --resume`,
          kct: `${m.resumed.requests.total} requests, ${fixed(m.resumed.seconds, 1)} s`,
          floor: '-',
          ratio: '-',
          target: '0 requests',
          met: m.resumed.requests.total === 0,
        });
    }
    for (const d of drains) {
      results.push({
        benchmark: `scale: sandbox queue of ${d.count}`,
        kct: `${fixed(d.rate, 0)} tasks/s, status p99 ${fixed(d.p99, 1)} ms`,
        floor: '-',
        ratio: '-',
        target: '>= 1,000 tasks/s, p99 < 20 ms',
        met: d.rate >= 1000 && d.p99 < 20 && d.succeeded === d.count,
      });
    }
    if (queued)
      results.push({
        benchmark: `scale: ${QUEUED_ANSWERS} answers, queued service`,
        kct: `${perAnswer(queued.requests, queued.count)} req/answer, pace ${queued.requests.peak} req/s (${queued.requests.refused} 429), last task ${fixed(queued.lateSeconds, 1)} s after`,
        floor: `${fixed(queued.serviceSeconds, 1)} s busy`,
        ratio: `${fixed(queued.seconds / queued.serviceSeconds)}x`,
        // the pace is found, not fixed (issue 34): the requests an answer and the last task are what stay bounded
        target: '<= 4 req/answer, last task <= 15 s',
        met: queued.requests.total / queued.count <= 4 && queued.lateSeconds <= 15,
      });
    return results;
  } finally {
    removeDir(configDir);
  }
}
