// 4. Sandbox: (a) requests per second on GET /v1/evaluations/{id}/status (autocannon,
// programmatic API, a real task id and the user key) against a bare fastify route answering the
// same JSON body (bench/bare-fastify.js); both servers are their own processes on loopback,
// interleaved, medians of 3. (b) Tasks per second through the queue with the instant grader:
// 1,000 short JSON one-pass tasks (latency 0, --workers 4), timed until all are final. (c) Start-up:
// `kct sandbox` from spawn to its first line (it listens, its database is open), and the CPU its
// process used by then, against the bare fastify server; interleaved, medians.
// BENCH_SANDBOX_PARTS=start-up (or rate, queue, comma-separated): only those parts.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { Agent, request } from 'undici';
import { BENCH, cpuSeconds, essay, fixed, interleave, log, median, SMOKE, sized, startSandbox, table } from './lib.js';

const SECONDS = sized(4, 1);
/** The smoke pass sends this many requests a run instead of a run of SECONDS. */
const SMOKE_REQUESTS = 100;
const ROUNDS = sized(3, 1);
const CONNECTIONS = 16;
const TASKS = sized(1000, 200, 20);
const TASK_ROUNDS = sized(3, 1);
const WORKERS = 4;
const START_ROUNDS = sized(10, 3, 1);
const START_WARMUP = sized(1, 1, 0);
const PARTS = new Set((process.env.BENCH_SANDBOX_PARTS ?? 'rate,queue,start-up').split(',').map((p) => p.trim()));

/** The SQLite driver and runtime of this run, e.g. "node:sqlite, Node v24.21.0"; set by run(). */
let driverLabel = '';

async function startBare(body) {
  const child = spawn(process.execPath, [join(BENCH, 'bare-fastify.js')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, BENCH_BODY: JSON.stringify(body) },
  });
  const exited = new Promise((done) => child.once('exit', done));
  const line = await new Promise((done) => createInterface({ input: child.stdout }).once('line', done));
  return {
    baseUrl: JSON.parse(line).base_url,
    pid: child.pid,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function call(dispatcher, method, url, key, json, idempotencyKey) {
  const response = await request(url, {
    method,
    dispatcher,
    headers: {
      'x-api-key': key,
      ...(json ? { 'content-type': 'application/json' } : {}),
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
    },
    body: json ? JSON.stringify(json) : undefined,
  });
  const body = await response.body.json();
  if (response.statusCode >= 300) throw new Error(`${method} ${url}: HTTP ${response.statusCode} ${JSON.stringify(body)}`);
  return body;
}

function cannon(url, headers) {
  return new Promise((done, fail) => {
    const length = SMOKE ? { amount: SMOKE_REQUESTS } : { duration: SECONDS };
    autocannon({ url, headers, connections: CONNECTIONS, ...length }, (error, result) => {
      if (error) return fail(error);
      if (result.errors || result.non2xx) return fail(new Error(`${url}: ${result.errors} errors, ${result.non2xx} non-2xx answers`));
      done(result);
    });
  });
}

async function requestRate() {
  const sandbox = await startSandbox({ workers: WORKERS, latencyMs: 0 });
  const dispatcher = new Agent();
  let bare;
  try {
    const task = (
      await call(
        dispatcher,
        'POST',
        `${sandbox.baseUrl}/evaluations/one-pass`,
        sandbox.keys.user,
        { model_id: 12, student_id: 's-1', paper_content: essay(1, 1500) },
        'bench-rate-1',
      )
    ).data;
    // a finished task: its status answer is the longest (progress fields, result summary)
    for (let i = 0; i < 200; i++) {
      const status = (await call(dispatcher, 'GET', `${sandbox.baseUrl}/evaluations/${task.task_id}/status`, sandbox.keys.user)).data;
      if (['SUCCESS', 'FAILURE', 'CANCEL'].includes(status.status)) break;
      await new Promise((done) => setTimeout(done, 25));
    }
    const sample = await call(dispatcher, 'GET', `${sandbox.baseUrl}/evaluations/${task.task_id}/status`, sandbox.keys.user);
    bare = await startBare(sample);
    const targets = {
      'sandbox GET /status': { url: `${sandbox.baseUrl}/evaluations/${task.task_id}/status`, headers: { 'x-api-key': sandbox.keys.user } },
      'bare fastify route': { url: `${bare.baseUrl}/evaluations/${task.task_id}/status`, headers: { 'x-api-key': sandbox.keys.user } },
    };
    const names = Object.keys(targets);
    for (const name of names) await cannon(targets[name].url, targets[name].headers).catch(() => {}); // warm-up (JIT), not counted
    const results = await interleave(ROUNDS, names, (name) => cannon(targets[name].url, targets[name].headers));
    const rps = Object.fromEntries(names.map((name) => [name, median(results[name].map((r) => r.requests.average))]));
    log(
      `autocannon: ${CONNECTIONS} connections, ${SECONDS} s per run, ${ROUNDS} runs each, interleaved; status body ${JSON.stringify(sample).length} bytes`,
    );
    log(
      table(
        ['server', 'median req/s', 'runs (req/s)', 'p50 latency ms', 'p99 latency ms'],
        names.map((name) => [
          name,
          fixed(rps[name], 0),
          results[name].map((r) => fixed(r.requests.average, 0)).join(' '),
          fixed(median(results[name].map((r) => r.latency.p50)), 1),
          fixed(median(results[name].map((r) => r.latency.p99)), 1),
        ]),
      ),
    );
    const ratio = rps[names[0]] / rps[names[1]];
    return {
      benchmark: `sandbox: GET /evaluations/{id}/status (${driverLabel})`,
      kct: `${fixed(rps[names[0]], 0)} req/s`,
      floor: `${fixed(rps[names[1]], 0)} req/s (bare fastify)`,
      ratio: `${fixed(ratio)}x`,
      target: '>= 0.50x',
      met: ratio >= 0.5,
    };
  } finally {
    await dispatcher.close();
    await bare?.stop();
    await sandbox.stop();
  }
}

/** Submits TASKS short JSON one-pass tasks (16 at a time) and waits until none is unfinished. */
async function queueRun() {
  const sandbox = await startSandbox({ workers: WORKERS, latencyMs: 0 });
  const dispatcher = new Agent();
  try {
    const key = sandbox.keys.user;
    const texts = Array.from({ length: TASKS }, (_, i) => essay(i + 1, 300));
    const started = process.hrtime.bigint();
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < TASKS) {
          const i = next++;
          await call(
            dispatcher,
            'POST',
            `${sandbox.baseUrl}/evaluations/one-pass`,
            key,
            { model_id: 12, student_id: `s-${i}`, paper_content: texts[i] },
            `bench-queue-${i}`,
          );
        }
      }),
    );
    const submitted = Number(process.hrtime.bigint() - started) / 1e9;
    for (;;) {
      const credits = (await call(dispatcher, 'GET', `${sandbox.baseUrl}/credits`, key)).data;
      if (credits.reserved === 0) break;
      await new Promise((done) => setTimeout(done, 20));
    }
    const total = Number(process.hrtime.bigint() - started) / 1e9;
    const stats = (await call(dispatcher, 'GET', `${sandbox.baseUrl}/credits`, key)).data;
    if (1000 - stats.credits !== TASKS) throw new Error(`expected ${TASKS} tasks charged, the balance says ${1000 - stats.credits}`);
    return { submitted, total };
  } finally {
    await dispatcher.close();
    await sandbox.stop();
  }
}

export async function run() {
  // The driver the sandbox child picks (KCT_SQLITE_DRIVER, else the runtime's: docs/sandbox.md).
  const { chooseDriver } = await import('../packages/sandbox/dist/store/sqlite/driver.js');
  driverLabel = `${chooseDriver()}, Node ${process.version}`;
  log(`sqlite driver: ${driverLabel}`);
  const rows = [];
  if (PARTS.has('start-up')) rows.push(await startUp());
  if (PARTS.has('rate')) rows.push(await requestRate());
  if (PARTS.has('queue')) rows.push(await queueRows());
  return rows;
}

/** Spawn to first line, and CPU by then: kct sandbox against the bare fastify server. */
async function startUp() {
  const contenders = ['bare fastify', 'kct sandbox'];
  const start = async (name) => {
    const began = performance.now();
    const server = name === 'kct sandbox' ? await startSandbox({ workers: WORKERS, latencyMs: 0 }) : await startBare({ data: {} });
    const ms = performance.now() - began;
    const cpu = cpuSeconds(server.pid) * 1000;
    await server.stop();
    return { ms, cpu };
  };
  await interleave(START_WARMUP, contenders, start);
  const runs = await interleave(START_ROUNDS, contenders, start);
  const ms = Object.fromEntries(contenders.map((name) => [name, median(runs[name].map((r) => r.ms))]));
  const cpu = Object.fromEntries(contenders.map((name) => [name, median(runs[name].map((r) => r.cpu))]));
  log(
    `start-up: spawn to the first line, and the process's CPU by then; ${START_ROUNDS} runs each after ${START_WARMUP} warm-up, interleaved, medians`,
  );
  log(
    table(
      ['server', 'ms', 'CPU ms'],
      contenders.map((name) => [name, fixed(ms[name], 0), fixed(cpu[name], 0)]),
    ),
  );
  log();
  return {
    benchmark: `sandbox: start-up, spawn to the first line (${driverLabel})`,
    kct: `${fixed(ms['kct sandbox'], 0)} ms, ${fixed(cpu['kct sandbox'], 0)} ms CPU`,
    floor: `${fixed(ms['bare fastify'], 0)} ms, ${fixed(cpu['bare fastify'], 0)} ms CPU`,
    ratio: fixed(cpu['kct sandbox'] / cpu['bare fastify']),
    target: '(information)',
    met: true,
  };
}

async function queueRows() {
  const runs = [];
  for (let round = 0; round < TASK_ROUNDS; round++) runs.push(await queueRun());
  const total = median(runs.map((r) => r.total));
  log(
    `queue: ${TASKS} JSON one-pass tasks (300 characters), submitted 16 at a time, sandbox --latency 0 --workers ${WORKERS}, a fresh sandbox per run; timed from the first submission until GET /credits shows nothing reserved (every task final and charged)`,
  );
  log(
    table(
      ['run', 'all submitted s', 'all final s', 'tasks/s'],
      runs.map((r, i) => [i + 1, fixed(r.submitted), fixed(r.total), fixed(TASKS / r.total, 0)]),
    ),
  );
  return {
    benchmark: `sandbox: ${TASKS} tasks through the queue (${driverLabel})`,
    kct: `${fixed(TASKS / total, 0)} tasks/s (${fixed(total)} s)`,
    floor: '-',
    ratio: '-',
    target: '>= 200 tasks/s',
    met: TASKS / total >= 200,
  };
}
