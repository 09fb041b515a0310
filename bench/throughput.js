// 2. Throughput: 1,000 distinct text answers (1-2 KB .txt) through
//   kct one-pass <dir> --model 12 --no-wait --via one-pass --max-rps 100000 --jobs 16 --output ndjson
// (nothing paced), and as a user types it, with no --max-rps (the pace kct finds, from its slow start),
// against a sandbox with no latency, side by side with bench/floor-submit.js sending the same
// requests with undici at the same concurrency (with a random Idempotency-Key, and with --hash,
// one derived from the SHA-256 of each file as kct does). Every measured run gets a FRESH
// sandbox (kct's keys come from the content: a second run against the same data would only get
// replays). Both write their output to files, as `kct ... > marks.ndjson` would. A hook records
// when each process sends its first request. Then the full run with waiting, in answers per second.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  BENCH,
  BIN,
  essay,
  fixed,
  interleave,
  kctEnv,
  log,
  median,
  prng,
  removeDir,
  sized,
  startSandbox,
  table,
  tempDir,
  timeOk,
} from './lib.js';

const ANSWERS = sized(1000, 200, 10);
const ROUNDS = sized(5, 1);
const WAIT_ROUNDS = sized(3, 1);
const JOBS = 16;
const TARGET = 1.1;

export function writeAnswers(dir, count) {
  const random = prng(42);
  for (let i = 1; i <= count; i++) {
    const text = essay(i, 1024 + Math.floor(random() * 1024));
    writeFileSync(join(dir, `s${String(i).padStart(4, '0')}.txt`), `${text}\n`);
  }
}

/** Checks a run's stdout: one JSON line with a task id per answer. */
function countAccepted(label, stdout) {
  const lines = stdout.split('\n').filter((line) => line.trim() !== '');
  const ids = new Set(lines.map((line) => JSON.parse(line).task_id).filter(Boolean));
  if (ids.size !== ANSWERS) throw new Error(`${label}: ${ids.size} tasks accepted, expected ${ANSWERS}`);
  return ids.size;
}

export async function run() {
  const answers = tempDir('kct-bench-answers-');
  const configDir = tempDir('kct-bench-cfg-');
  writeAnswers(answers, ANSWERS);
  const contenders = {
    'kct one-pass --no-wait': [
      BIN,
      'one-pass',
      answers,
      '--model',
      '12',
      '--no-wait',
      '--via',
      'one-pass',
      '--max-rps',
      '100000',
      '--jobs',
      String(JOBS),
      '--output',
      'ndjson',
    ],
    // what a user types: no --max-rps, so the run climbs from kct's modest first pace (its slow start)
    'kct, the pace it finds': [BIN, 'one-pass', answers, '--model', '12', '--no-wait', '--jobs', String(JOBS), '--output', 'ndjson'],
    'floor (random key)': [join(BENCH, 'floor-submit.js'), answers, '--jobs', String(JOBS)],
    'floor (SHA-256 key)': [join(BENCH, 'floor-submit.js'), answers, '--jobs', String(JOBS), '--hash'],
  };
  const names = Object.keys(contenders);
  try {
    const firstFile = join(configDir, 'first-request');
    const measure = async (name) => {
      const sandbox = await startSandbox({ workers: 4, latencyMs: 0 });
      try {
        rmSync(firstFile, { force: true });
        const result = await timeOk(name, process.execPath, ['--import', join(BENCH, 'first-request.js'), ...contenders[name]], {
          env: kctEnv(configDir, sandbox, { BENCH_FIRST_REQUEST_FILE: firstFile }),
          toFiles: true,
        });
        countAccepted(name, result.stdout);
        return { seconds: result.ms / 1000, firstMs: Number(readFileSync(firstFile, 'utf8')) };
      } finally {
        await sandbox.stop();
      }
    };
    const runs = await interleave(ROUNDS, names, measure);
    const seconds = Object.fromEntries(names.map((name) => [name, runs[name].map((r) => r.seconds)]));
    const firstMs = Object.fromEntries(names.map((name) => [name, median(runs[name].map((r) => r.firstMs))]));
    // the same runs from each one's first request on: the sending alone, with the start set apart
    const afterFirst = Object.fromEntries(names.map((name) => [name, median(runs[name].map((r) => r.seconds - r.firstMs / 1000))]));
    const floor = median(seconds['floor (SHA-256 key)']);
    const floorRandom = median(seconds['floor (random key)']);
    log(`${ANSWERS} answers, --jobs ${JOBS}, sandbox --latency 0 --workers 4, a fresh sandbox per run; ${ROUNDS} runs each, interleaved`);
    log(
      table(
        ['contender', 'median s', 'runs (s)', 'answers/s', 'first request at (ms)', 'kct ratio'],
        names.map((name) => [
          name,
          fixed(median(seconds[name])),
          seconds[name].map((s) => fixed(s)).join(' '),
          fixed(ANSWERS / median(seconds[name]), 0),
          fixed(firstMs[name], 0),
          name.startsWith('kct') ? '' : `${fixed(median(seconds[names[0]]) / median(seconds[name]))}x`,
        ]),
      ),
    );

    // The full run, waiting for every result (no floor: reported in answers per second).
    const waited = [];
    for (let round = 0; round < WAIT_ROUNDS; round++) {
      const sandbox = await startSandbox({ workers: 4, latencyMs: 0 });
      try {
        const result = await timeOk(
          'kct one-pass (waiting)',
          process.execPath,
          [
            BIN,
            'one-pass',
            answers,
            '--model',
            '12',
            '--via',
            'one-pass',
            '--max-rps',
            '100000',
            '--jobs',
            String(JOBS),
            '--output',
            'ndjson',
          ],
          {
            env: kctEnv(configDir, sandbox, { KCT_POLL_INTERVAL: '200ms' }),
            toFiles: true,
          },
        );
        const lines = result.stdout
          .split('\n')
          .filter((line) => line.trim() !== '')
          .map((line) => JSON.parse(line));
        const marked = lines.filter((line) => line.status === 'SUCCESS').length;
        if (marked !== ANSWERS) throw new Error(`waiting run: ${marked} of ${ANSWERS} marked`);
        waited.push(result.ms / 1000);
      } finally {
        await sandbox.stop();
      }
    }
    const waitedMedian = median(waited);
    log();
    log(
      `Full run with waiting (--jobs ${JOBS}, KCT_POLL_INTERVAL=200ms, sandbox --workers 4): ${waited.map((s) => fixed(s)).join(' ')} s; median ${fixed(waitedMedian)} s = ${fixed(ANSWERS / waitedMedian, 0)} answers/s`,
    );

    const kct = median(seconds[names[0]]);
    const found = median(seconds['kct, the pace it finds']);
    // Judged against the faster floor: kct reads a small file once for its key and its body, which
    // the SHA-256 floor does twice, so the random-key floor (no hashing at all) is the stricter one
    // whenever it is the faster.
    const floors = [
      { seconds: floor, label: 'undici, SHA-256 keys' },
      { seconds: floorRandom, label: 'undici, random keys' },
    ].sort((a, b) => a.seconds - b.seconds);
    return [
      {
        benchmark: `throughput: ${ANSWERS} answers --no-wait --jobs ${JOBS}`,
        kct: `${fixed(kct)} s`,
        floor: `${fixed(floors[0].seconds)} s (${floors[0].label})`,
        ratio: `${fixed(kct / floors[0].seconds)}x`,
        target: `<= ${TARGET}x`,
        met: kct / floors[0].seconds <= TARGET,
      },
      {
        benchmark: '  same, the other floor',
        kct: `${fixed(kct)} s`,
        floor: `${fixed(floors[1].seconds)} s (${floors[1].label})`,
        ratio: `${fixed(kct / floors[1].seconds)}x`,
        target: '(information)',
      },
      {
        benchmark: '  same, the pace kct finds (no --max-rps)',
        kct: `${fixed(found)} s`,
        floor: `${fixed(floors[0].seconds)} s (${floors[0].label})`,
        ratio: `${fixed(found / floors[0].seconds)}x`,
        target: `<= ${TARGET}x`,
        met: found / floors[0].seconds <= TARGET,
      },
      {
        benchmark: '  same, from the first request on',
        kct: `${fixed(afterFirst[names[0]])} s`,
        floor: `${fixed(afterFirst['floor (SHA-256 key)'])} s (undici, SHA-256 keys)`,
        ratio: `${fixed(afterFirst[names[0]] / afterFirst['floor (SHA-256 key)'])}x`,
        target: '(information)',
      },
      {
        benchmark: '  the start: the first request at',
        kct: `${fixed(firstMs[names[0]], 0)} ms`,
        floor: `${fixed(firstMs['floor (SHA-256 key)'], 0)} ms (undici, SHA-256 keys)`,
        ratio: `${firstMs[names[0]] >= firstMs['floor (SHA-256 key)'] ? '+' : ''}${fixed(firstMs[names[0]] - firstMs['floor (SHA-256 key)'], 0)} ms`,
        target: '(information)',
      },
      {
        benchmark: `throughput: ${ANSWERS} answers, waiting`,
        kct: `${fixed(waitedMedian)} s = ${fixed(ANSWERS / waitedMedian, 0)} answers/s`,
        floor: '-',
        ratio: '-',
        target: '(reported)',
      },
    ];
  } finally {
    removeDir(answers);
    removeDir(configDir);
  }
}
