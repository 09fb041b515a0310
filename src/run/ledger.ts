// This machine's index of identities across runs, for one server: which task (or which item of
// which batch) marked each identity it sent. A later run that finds an answer's identity here does
// not send it: it reuses that task's result under the answer's new labels (a rename, a copy, a
// changed --student-id-from), so an identity is charged once whatever its names or route
// (docs/guides/large-runs-and-reruns.md, "What is the same answer"). No names, no text: identities
// and task ids only. One append-only file per server under the state folder.
import { closeSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { sha256 } from '../client/identity.js';

/** The task that marked an identity: a one-pass task, or item `item` of a batch; `failed` when it ended FAILURE or CANCEL instead. */
export type Marked = ({ taskId: string } | { batchId: string; item: number }) & { failed?: true };

/** Before a value, a task that did not mark its identity. */
const FAILED = '!';
/**
 * Tasks kept per identity, the latest first: another server or account at the same address (a
 * sandbox started afresh, a second key) does not know the latest, and the one before may be the
 * service's own. Values hold no space: they are kept joined by one.
 */
const HISTORY = 4;

const PIECE = 1024 * 1024;

/** This machine under any of its names (localhost, 127.0.0.1, [::1]): one server, so one ledger. */
const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** The server a base URL names, as the ledger is keyed: one spelling for each (no trailing slash, case and loopback names folded). */
export function serverOf(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, '');
  try {
    const url = new URL(trimmed);
    if (LOOPBACK.test(url.hostname)) url.hostname = '127.0.0.1';
    return url.href.replace(/\/+$/, '');
  } catch {
    return trimmed;
  }
}

export class Ledger {
  /** identity -> a task id, or "<batch id>#<item>", after FAILED when it did not mark it; the earlier ones after it, space-separated */
  private readonly known = new Map<string, string>();
  private fd?: number;

  private constructor(readonly path: string) {}

  /** Where the ledger of `baseUrl` is kept in `folder` (its lock beside it: ledger-lock.ts). */
  static pathOf(folder: string, baseUrl: string): string {
    return join(folder, `marked-${sha256(serverOf(baseUrl)).slice(0, 16)}.ndjson`);
  }

  /** The ledger of `baseUrl` in `folder`, read; undefined (and the reason) when it cannot be used. */
  static open(folder: string, baseUrl: string): { ledger?: Ledger; problem?: string } {
    const ledger = new Ledger(Ledger.pathOf(folder, baseUrl));
    try {
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      ledger.read();
      ledger.fd = openSync(ledger.path, 'a', 0o600);
      return { ledger };
    } catch (error) {
      return { problem: `cannot use ${ledger.path} (${(error as NodeJS.ErrnoException).code ?? String(error)})` };
    }
  }

  /** The task that last marked this identity on this machine, if one did. */
  lookup(identity: string): Marked | undefined {
    const stored = this.known.get(identity);
    return stored === undefined ? undefined : markedOf(stored.split(' ')[0]);
  }

  /** Every task recorded for this identity, the latest first (at most HISTORY). */
  history(identity: string): Marked[] {
    return (this.known.get(identity)?.split(' ') ?? []).map(markedOf);
  }

  /**
   * An identity accepted by the service, as a task of its own or as a batch's item: written for
   * later runs. The index in memory stays what earlier runs left (a run looks identities up before
   * it sends anything), so it does not grow with the answers a run sends.
   */
  accepted(identity: string, marked: Marked): void {
    const value = `${marked.failed ? FAILED : ''}${'taskId' in marked ? marked.taskId : `${marked.batchId}#${marked.item}`}`;
    const latest = this.known.get(identity)?.split(' ')[0];
    // a task that failed stays failed: its request replayed is that task again, not a mark
    if (latest === value || latest === `${FAILED}${value}`) return;
    this.write({ i: identity, t: value });
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private write(entry: Record<string, unknown>): void {
    if (this.fd !== undefined) writeSync(this.fd, `${JSON.stringify(entry)}\n`);
  }

  /** Reads the file in 1 MiB pieces: a ledger of a district's runs is not held whole in memory. */
  private read(): void {
    let fd: number;
    try {
      fd = openSync(this.path, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    try {
      const buffer = Buffer.allocUnsafe(PIECE);
      let rest = '';
      for (let read = readSync(fd, buffer, 0, PIECE, null); read > 0; read = readSync(fd, buffer, 0, PIECE, null)) {
        const lines = (rest + buffer.toString('utf8', 0, read)).split('\n');
        rest = lines.pop() ?? '';
        for (const line of lines) this.take(line);
      }
      this.take(rest);
    } finally {
      closeSync(fd);
    }
  }

  private take(line: string): void {
    if (line === '') return;
    let entry: { i?: unknown; t?: unknown; x?: unknown };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      return; // a line torn by a killed run: that answer is sent again under its key, which the service replays
    }
    if (typeof entry.i !== 'string') return;
    if (typeof entry.t === 'string' && !entry.t.includes(' '))
      this.known.set(
        entry.i,
        [
          entry.t,
          ...(this.known
            .get(entry.i)
            ?.split(' ')
            .filter((v) => v !== entry.t) ?? []),
        ]
          .slice(0, HISTORY)
          .join(' '),
      );
    else if (entry.x !== undefined) this.known.delete(entry.i);
  }
}

/** A recorded value as the task it names. */
function markedOf(stored: string): Marked {
  const failed = stored.startsWith(FAILED) ? { failed: true as const } : {};
  const value = failed.failed ? stored.slice(FAILED.length) : stored;
  const hash = value.lastIndexOf('#');
  return hash < 0 ? { taskId: value, ...failed } : { batchId: value.slice(0, hash), item: Number(value.slice(hash + 1)), ...failed };
}
