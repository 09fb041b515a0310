// One run at a time sends to a server from this machine: two runs started together (xargs -P, cron
// overlap) would each plan before the other had recorded anything, and send the same answers twice,
// under their own labels and so their own keys. A run takes the ledger's lock before it reads the
// ledger and gives it back once it has sent everything; its marks are then awaited without it, so
// runs overlap in waiting, never in deciding what to send (docs/guides/large-runs-and-reruns.md,
// "Runs at the same time").
import { closeSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, utimesSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { InterruptedError } from '../api/errors.js';
import { abortableSleep } from '../client/sleep.js';

/** How often a waiting run looks at the lock again. */
const LOOK_AGAIN_MS = 250;
/** A lock that names no holder this long after it was made was left by a run killed as it took it. */
const UNNAMED_STALE_MS = 5_000;
/** The holder touches its lock this often, so that a lock untouched for STALE_MS is known left behind. */
const HEARTBEAT_MS = 10_000;
/** A lock nobody touched for this long was left by a run that is gone, wherever it ran (another host, a reused pid). */
const STALE_MS = 60_000;

/** The locks this process holds now: one of its own pid it does not hold was left by a run of it that ended early. */
const heldHere = new Set<string>();

interface Holder {
  pid: number;
  host: string;
  since: string;
}

export class LedgerLock {
  private readonly onExit = () => this.release();
  private readonly heartbeat?: NodeJS.Timeout;

  private constructor(
    readonly path: string,
    private held: boolean,
  ) {
    // a run that ends any way at all (an error, a second Ctrl-C) gives the lock back
    if (!held) return;
    heldHere.add(path);
    process.once('exit', this.onExit);
    this.heartbeat = setInterval(() => touch(path), HEARTBEAT_MS).unref();
  }

  /**
   * The lock beside `ledgerPath`, taken: waits while another live run holds it (`waiting` is told
   * once, with who), takes over one left by a run that is gone. Rejects when `signal` aborts.
   */
  static async take(ledgerPath: string, signal: AbortSignal, waiting: (holder: string) => void): Promise<LedgerLock> {
    const path = ledgerPath.replace(/\.ndjson$/, '.lock');
    let told = false;
    for (;;) {
      const taken = tryCreate(path);
      // a state folder kct cannot write: the ledger says so, and there is nothing to share anyway
      if (taken !== 'held') return new LedgerLock(path, taken === 'taken');
      const holder = readHolder(path);
      const untouched = untouchedFor(path);
      if (untouched > STALE_MS || (holder ? isGone(holder, path) : untouched > UNNAMED_STALE_MS)) {
        removeQuietly(path); // its run was killed: nothing of it is still sending
        continue;
      }
      if (!told) {
        told = true;
        const who = holder
          ? `kct (process ${holder.pid}${holder.host === hostname() ? '' : ` on ${holder.host}`}, since ${holder.since})`
          : 'another kct run';
        waiting(`${who} holds ${path}`);
      }
      try {
        await abortableSleep(LOOK_AGAIN_MS, signal);
      } catch {
        throw new InterruptedError('interrupted while waiting for another kct run to finish sending; nothing was sent', {
          suggestion: `Run the same command again once the other run has sent its answers; if no kct run is going, remove ${path} (a lock untouched for ${STALE_MS / 1000} s is taken over anyway).`,
        });
      }
    }
  }

  /** Given back: everything this run sends has been sent (or the run ended). */
  release(): void {
    if (!this.held) return;
    this.held = false;
    clearInterval(this.heartbeat);
    heldHere.delete(this.path);
    process.off('exit', this.onExit);
    removeQuietly(this.path);
  }
}

function tryCreate(path: string): 'taken' | 'held' | 'unusable' {
  let fd: number;
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    fd = openSync(path, 'wx', 0o600);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EEXIST' ? 'held' : 'unusable';
  }
  try {
    writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() } satisfies Holder));
  } finally {
    closeSync(fd);
  }
  return 'taken';
}

function touch(path: string): void {
  try {
    const now = new Date();
    utimesSync(path, now, now);
  } catch {
    // taken over as stale already: nothing to keep alive
  }
}

/** How long since the lock was made or its holder last touched it (0 when it is gone already). */
function untouchedFor(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function readHolder(path: string): Holder | undefined {
  try {
    const holder = JSON.parse(readFileSync(path, 'utf8')) as Partial<Holder>;
    return typeof holder.pid === 'number' && typeof holder.host === 'string'
      ? { pid: holder.pid, host: holder.host, since: String(holder.since) }
      : undefined;
  } catch {
    return undefined; // being written, or gone already: looked at again
  }
}

/** A holder on this machine whose process no longer exists (another machine's cannot be checked: it is waited for). */
function isGone(holder: Holder, path: string): boolean {
  if (holder.host !== hostname()) return false;
  if (holder.pid === process.pid) return !heldHere.has(path);
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
