// 5. SQLite drivers: the store's two hot paths, in process (no HTTP, so the driver is most of
// what is timed), on every driver this runtime can load, interleaved, medians of 5 rounds:
// (a) status reads, Store.taskStatus() of a finished task (the array read of GET .../status);
// (b) task cycles, what the queue does to one task: accept (IMMEDIATE transaction with the
// idempotency lookup, reservation and insert), QUEUED -> SUBMITTED -> PROGRESS (two
// compare-and-swap updates), then completeAndCharge (IMMEDIATE transaction).
// Both drivers on one runtime: Node 22 with a better-sqlite3 built for it outside the project,
// loaded by bench/better-sqlite3-from.cjs (docs/benchmarks.md says how).
import { fixed, interleave, log, median, removeDir, sized, table, tempDir } from './lib.js';

const ROUNDS = sized(5, 1);
const READS = sized(100_000, 20_000, 1_000);
const CYCLES = sized(2_000, 1_000, 50);

const { availableDrivers } = await import('../packages/sandbox/dist/store/sqlite/driver.js');
const { openDatabase } = await import('../packages/sandbox/dist/store/db.js');
const { seedIfEmpty } = await import('../packages/sandbox/dist/store/seed.js');
const { Store } = await import('../packages/sandbox/dist/store/store.js');
const { accept } = await import('../packages/sandbox/dist/tasks/accept.js');
const { advance, completeAndCharge } = await import('../packages/sandbox/dist/tasks/transitions.js');

const RESULT = {
  score: 7,
  max_score: 10,
  evaluation: [{ item: 'Thesis', score: 7, max_score: 10, feedback: 'Clear.' }],
  rubrics: [{ item: 'Thesis', max_score: 10 }],
};

function open(driver) {
  const dir = tempDir('kct-bench-sqlite-');
  const db = openDatabase(dir, { driver });
  const store = new Store(db);
  seedIfEmpty(store, dir);
  db.exec('UPDATE users SET credits = 1000000000');
  const userId = db.prepare(`SELECT id FROM users WHERE name = 'user'`).get().id;
  return { dir, db, store, userId, next: 0 };
}

/** One task through the queue's steps; returns its id. */
function cycle(bed) {
  bed.next += 1;
  const taskId = `tsk_bench${bed.next}`;
  accept(bed.store, {
    endpoint: 'POST /evaluations/one-pass',
    idempotencyKey: `bench-${bed.next}`,
    fingerprint: 'bench',
    task: {
      task_id: taskId,
      kind: 'one_pass',
      owner_user_id: bed.userId,
      scope: 'user',
      model_id: 12,
      student_id: null,
      credit_cost: 1,
      input: { model_id: 12, paper_content: 'x' },
      files: [],
    },
    respond: (task) => ({ task_id: task.task_id }),
  });
  advance(bed.store, taskId, 'QUEUED', 'SUBMITTED', { cur_step: 1, total_step: 4, cur_step_name: 'Reading', progress: 0 });
  advance(bed.store, taskId, 'SUBMITTED', 'PROGRESS', { cur_step: 2, progress: 0.25 });
  if (completeAndCharge(bed.store, taskId, RESULT) !== 'charged') throw new Error(`${taskId} was not charged`);
  return taskId;
}

function perSecond(count, fn) {
  const started = process.hrtime.bigint();
  fn();
  return count / (Number(process.hrtime.bigint() - started) / 1e9);
}

export async function run() {
  const drivers = availableDrivers();
  log(`drivers this runtime loads: ${drivers.join(', ')} (Node.js ${process.version}); ${ROUNDS} rounds, interleaved`);
  const beds = Object.fromEntries(drivers.map((driver) => [driver, open(driver)]));
  try {
    const finished = Object.fromEntries(drivers.map((driver) => [driver, cycle(beds[driver])]));
    for (const driver of drivers)
      perSecond(READS / 10, () => {
        for (let i = 0; i < READS / 10; i++) beds[driver].store.taskStatus(finished[driver]);
      }); // warm-up
    const reads = await interleave(ROUNDS, drivers, (driver) =>
      perSecond(READS, () => {
        const { store } = beds[driver];
        const id = finished[driver];
        for (let i = 0; i < READS; i++) if (store.taskStatus(id) === undefined) throw new Error('no status');
      }),
    );
    const cycles = await interleave(ROUNDS, drivers, (driver) =>
      perSecond(CYCLES, () => {
        for (let i = 0; i < CYCLES; i++) cycle(beds[driver]);
      }),
    );
    log(
      table(
        ['driver', 'status reads/s (median)', 'runs', 'task cycles/s (median)', 'runs'],
        drivers.map((driver) => [
          driver,
          fixed(median(reads[driver]), 0),
          reads[driver].map((v) => fixed(v, 0)).join(' '),
          fixed(median(cycles[driver]), 0),
          cycles[driver].map((v) => fixed(v, 0)).join(' '),
        ]),
      ),
    );
    const [first, second] = drivers;
    const row = (what, values, unit) => ({
      benchmark: `sqlite: ${what} (${first}${second ? ` vs ${second}` : ''}, Node ${process.version})`,
      kct: `${fixed(median(values[first]), 0)} ${unit}`,
      floor: second ? `${fixed(median(values[second]), 0)} ${unit} (${second})` : '-',
      ratio: second ? `${fixed(median(values[first]) / median(values[second]))}x` : '-',
      target: 'reported',
    });
    return [row('status reads', reads, 'reads/s'), row('task cycles', cycles, 'cycles/s')];
  } finally {
    for (const bed of Object.values(beds)) {
      bed.db.close();
      removeDir(bed.dir);
    }
  }
}
