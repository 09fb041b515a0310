// 3. Memory: ten 20 MiB answer files in ONE request (the smoke pass: two of 1 MiB),
//   kct one-pass f01.txt ... f10.txt --pages --model 12 --no-wait
// Peak RSS of the kct process (an --import hook reads process.resourceUsage().maxRSS at exit),
// against `node -e 0` with the same hook as the floor; and, for information, the floor script
// sending the same single request with undici. A fresh sandbox per run; interleaved; medians.
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH, BIN, fixed, interleave, kctEnv, log, median, removeDir, sized, startSandbox, table, tempDir, timeOk } from './lib.js';

const FILES = sized(10, 10, 2);
const FILE_BYTES = sized(20, 20, 1) * 1024 * 1024; // exactly the limit (20 MiB); the limit refuses only larger files
const ROUNDS = sized(3, 1);
/** What the sandbox quotes for the files: 1 credit per started 2 MiB of each. */
const CREDITS = FILES * Math.ceil(FILE_BYTES / (2 * 1024 * 1024));
const TARGET_MB = 150;
const MB = 1024 * 1024;

function writeBigAnswers(dir) {
  const paragraph = Buffer.from(
    'Uniforms reduce visible differences in family income, but they also limit how students express who they are. ',
  );
  const paths = [];
  for (let i = 1; i <= FILES; i++) {
    const body = Buffer.alloc(FILE_BYTES);
    const head = Buffer.from(`Answer page ${i}. `);
    head.copy(body, 0);
    for (let at = head.length; at < FILE_BYTES; at += paragraph.length)
      paragraph.copy(body, at, 0, Math.min(paragraph.length, FILE_BYTES - at));
    const path = join(dir, `page${String(i).padStart(2, '0')}.txt`);
    writeFileSync(path, body);
    paths.push(path);
  }
  return paths;
}

async function peakRss(label, args, env, expectTask) {
  const dir = tempDir('kct-bench-rss-');
  const file = join(dir, 'maxrss');
  try {
    const [flags, rest] = splitFlags(args);
    // Started through a shell that waits for it, never straight from this process: a child forked
    // from a big process starts with that process's pages counted in its peak RSS (Linux keeps the
    // high-water mark across fork and exec), so `node -e 0` spawned from here would read as our size.
    const run = await timeOk(
      label,
      '/bin/sh',
      ['-c', '"$0" "$@"; exit $?', process.execPath, ...flags, '--import', join(BENCH, 'maxrss.js'), ...rest],
      { env: { ...env, BENCH_MAXRSS_FILE: file }, toFiles: true },
    );
    if (expectTask && !/tsk_/.test(run.stdout)) throw new Error(`${label}: no task id in the output: ${run.stdout}`);
    // kct prints the accepted task: 1 credit per started 2 MiB of each file, so 100 means every byte arrived
    if (expectTask && label.startsWith('kct one-pass --pages') && JSON.parse(run.stdout).credit_cost !== CREDITS)
      throw new Error(`${label}: the sandbox did not quote ${CREDITS} credits: ${run.stdout}`);
    return { rssMB: Number(readFileSync(file, 'utf8').trim().split('\n').pop()) / 1024, seconds: run.ms / 1000 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function splitFlags(args) {
  const at = args.findIndex((arg) => !arg.startsWith('--'));
  return [args.slice(0, at), args.slice(at)];
}

export async function run() {
  const answers = tempDir('kct-bench-big-');
  const configDir = tempDir('kct-bench-cfg-');
  try {
    const paths = writeBigAnswers(answers);
    const sent = paths.reduce((n, path) => n + statSync(path).size, 0);
    const contenders = {
      [`kct one-pass --pages (${FILES} x ${FILE_BYTES / MB} MiB)`]: [
        BIN,
        'one-pass',
        ...paths,
        '--pages',
        '--model',
        '12',
        '--no-wait',
        '--output',
        'json',
      ],
      'node -e 0': ['-e', '0'],
      'floor-submit.js --pages (undici)': [join(BENCH, 'floor-submit.js'), ...paths, '--pages'],
      // for information: the same command with nothing to upload (one short text answer), so the
      // share of loading the CLI and the share of streaming 200 MiB show apart
      'kct one-pass --text (nothing to upload)': [
        BIN,
        'one-pass',
        '--text',
        'A short answer about school uniforms.',
        '--model',
        '12',
        '--no-wait',
        '--output',
        'json',
      ],
    };
    const names = Object.keys(contenders);
    const results = await interleave(ROUNDS, names, async (name) => {
      if (name === 'node -e 0') return peakRss(name, contenders[name], kctEnv(configDir));
      const sandbox = await startSandbox({ workers: 1, latencyMs: 0 });
      try {
        return await peakRss(name, contenders[name], kctEnv(configDir, sandbox), true);
      } finally {
        await sandbox.stop();
      }
    });
    const rss = Object.fromEntries(names.map((name) => [name, median(results[name].map((r) => r.rssMB))]));
    log(
      `${FILES} files of ${FILE_BYTES} bytes = ${fixed(sent / MB, 0)} MiB in one request; peak RSS (maxRSS), ${ROUNDS} runs each, interleaved, a fresh sandbox per run`,
    );
    log(
      table(
        ['process', 'median peak RSS MB', 'runs (MB)', 'median s'],
        names.map((name) => [
          name,
          fixed(rss[name], 1),
          results[name].map((r) => fixed(r.rssMB, 0)).join(' '),
          fixed(median(results[name].map((r) => r.seconds))),
        ]),
      ),
    );
    const kct = rss[names[0]];
    const floor = rss['node -e 0'];
    return [
      {
        benchmark: `memory: ${fixed(sent / MB, 0)} MiB in one request`,
        kct: `${fixed(kct, 1)} MB peak RSS`,
        floor: `${fixed(floor, 1)} MB (node -e 0)`,
        ratio: `${fixed(kct / floor)}x`,
        target: `<= ${TARGET_MB} MB`,
        met: kct <= TARGET_MB,
      },
      {
        benchmark: '  same request from floor-submit.js',
        kct: `${fixed(kct, 1)} MB`,
        floor: `${fixed(rss[names[2]], 1)} MB (undici)`,
        ratio: `${fixed(kct / rss[names[2]])}x`,
        target: '(information)',
      },
      {
        benchmark: '  kct with nothing to upload',
        kct: `${fixed(rss[names[3]], 1)} MB`,
        floor: `${fixed(floor, 1)} MB (node -e 0)`,
        ratio: `${fixed(rss[names[3]] / floor)}x`,
        target: '(information)',
      },
    ];
  } finally {
    removeDir(answers);
    removeDir(configDir);
  }
}
