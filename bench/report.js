// kct report over saved runs of 1,000 and 100,000 answers: wall time, peak RSS (GNU time's %M)
// and the page's size. The report is written as rows arrive, so memory should not follow the
// number of answers. Not in the default run.
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, essay, fixed, kctEnv, log, median, prng, removeDir, sized, table, tempDir } from './lib.js';

const SIZES = sized([1_000, 100_000], [1_000, 10_000], [100, 200]);
const RUNS = sized(3, 3, 1);
const CRITERIA = [
  ['Thesis & position', 5],
  ['Evidence & reasoning', 6],
  ['Organisation', 5],
  ['Language & conventions', 4],
];

/** A saved run as `kct one-pass --output ndjson` writes it: every 50th answer failed. */
async function savedRun(path, count) {
  const random = prng(count);
  const out = createWriteStream(path);
  for (let i = 1; i <= count; i++) {
    const failed = i % 50 === 0;
    const evaluation = failed
      ? [{ item: 'error', type: 'error', comment: 'The file could not be read.' }]
      : CRITERIA.map(([item, max]) => ({ item, score: Math.round(random() * max * 2) / 2, max_score: max, feedback: essay(i, 200) }));
    const score = failed ? null : evaluation.reduce((sum, entry) => sum + entry.score, 0);
    const row = {
      file: `answers/student-${i}.txt`,
      student_id: `student-${i}`,
      task_id: `tsk_${i}`,
      status: failed ? 'FAILURE' : 'SUCCESS',
      score,
      max_score: failed ? null : 20,
      credits_charged: failed ? 0 : 1,
      evaluation,
    };
    if (!out.write(`${JSON.stringify(row)}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

export async function run() {
  const dir = tempDir('kct-bench-report-');
  const env = kctEnv(dir);
  const rows = [];
  try {
    for (const count of SIZES) {
      const input = join(dir, `marks-${count}.ndjson`);
      await savedRun(input, count);
      const output = join(dir, `class-${count}.html`);
      const runs = Array.from({ length: RUNS }, () => {
        const file = join(dir, 'time');
        execFileSync('/usr/bin/time', ['-f', '%e %M', '-o', file, process.execPath, BIN, 'report', input, '--out', output], {
          env,
          stdio: 'ignore',
        });
        const [seconds, kb] = readFileSync(file, 'utf8').trim().split('\n').pop().split(' ').map(Number);
        return { seconds, mb: kb / 1024 };
      });
      rows.push([
        count.toLocaleString('en'),
        fixed(statSync(input).size / 1024 / 1024, 1),
        fixed(statSync(output).size / 1024 / 1024, 1),
        fixed(median(runs.map((r) => r.seconds)), 2),
        fixed(median(runs.map((r) => r.mb)), 1),
      ]);
    }
    log(table(['answers', 'ndjson MB', 'report MB', 'median s', 'median peak RSS MB'], rows));
    // RSS drifts with the allocator and V8's page reservations; the heap itself is what must stay
    // flat: the largest run again with V8's old generation capped at 24 MB (it would abort if rows were
    // kept; what kct loads takes about 15 MB, so 16 MB failed even at 200 answers)
    const largest = SIZES[SIZES.length - 1];
    let capped = 'completed';
    try {
      execFileSync(
        process.execPath,
        ['--max-old-space-size=24', BIN, 'report', join(dir, `marks-${largest}.ndjson`), '--out', join(dir, 'capped.html')],
        { env, stdio: 'ignore' },
      );
    } catch {
      capped = 'FAILED';
    }
    log(`${largest.toLocaleString('en')} answers with --max-old-space-size=24: ${capped}`);
    const [small, large] = rows;
    return [
      {
        benchmark: `report: peak RSS, ${large[0]} answers`,
        kct: `${large[4]} MB`,
        floor: `${small[4]} MB (${small[0]} answers)`,
        ratio: `${fixed(Number(large[4]) / Number(small[4]))}x`,
        target: '(information)',
      },
    ];
  } finally {
    removeDir(dir);
  }
}
