// A pool-thread job: copies the write-ahead log into the database file from the thread's own
// connection, so the copy and its fsync never hold the request thread (docs/sandbox.md, "Checkpoints").
import { openSqlite, type Database, type DriverName } from './sqlite/driver.js';

/** One connection per database file, kept by the thread for its next checkpoints. */
const connections = new Map<string, Database>();

export interface CheckpointOutcome {
  /** Frames in the log, and how many of them are now in the database file. */
  log: number;
  checkpointed: number;
}

/** PASSIVE: copies what no reader still needs and never waits for a lock (writers go on meanwhile). */
export function checkpoint(path: string, driver: DriverName): CheckpointOutcome {
  let db = connections.get(path);
  if (db === undefined) {
    db = openSqlite(path, { driver });
    connections.set(path, db);
  }
  const [row] = db.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
  return { log: row?.log ?? 0, checkpointed: row?.checkpointed ?? 0 };
}
