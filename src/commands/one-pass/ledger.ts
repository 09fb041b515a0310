// What this machine has sent to one server, so that no answer is charged twice whatever route a
// later run takes. A one-pass answer is found again by its own Idempotency-Key, but the key of a
// batch covers the whole request: an answer sent in a batch is unknown to the one-pass route, and
// a batch made of other answers is a new request. So each accepted submission is recorded here,
// by a 53-bit hash of its key and content (no names, no text): later runs follow an answer sent in
// a batch instead of sending it again, and never put an answer already sent one-pass in a batch.
// One append-only file per server under the state folder (docs/guides/large-runs-and-reruns.md#how-charged-once-is-kept).
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { hash53 } from './journal.js';

/** How an answer was sent before: one-pass (sending it again is a free replay) or as item `item` of a batch. */
export type Known = { route: 'one-pass' } | { route: 'batch'; batchId: string; item: number };

/** Map values: -1 for one-pass, else the batch's number times this plus the item (a batch holds at most 100). */
const ITEMS = 128;
const ONE_PASS = -1;
const PIECE = 1024 * 1024;

export class Ledger {
  private readonly known = new Map<number, number>();
  private readonly batchIds: string[] = [];
  private readonly batchNumbers = new Map<string, number>();
  private fd?: number;

  private constructor(readonly path: string) {}

  /** The ledger of `baseUrl` in `folder`, read; undefined (and the reason) when it cannot be used. */
  static open(folder: string, baseUrl: string): { ledger?: Ledger; problem?: string } {
    const name = `ledger-${createHash('sha256').update(baseUrl.replace(/\/+$/, '')).digest('hex').slice(0, 16)}.ndjson`;
    const ledger = new Ledger(join(folder, name));
    try {
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      ledger.read();
      ledger.fd = openSync(ledger.path, 'a', 0o600);
      return { ledger };
    } catch (error) {
      return { problem: `cannot use ${ledger.path} (${(error as NodeJS.ErrnoException).code ?? String(error)})` };
    }
  }

  /** How the answer with this key and content was sent before, if it was. */
  lookup(key: string, fingerprint: string): Known | undefined {
    const value = this.known.get(entryHash(key, fingerprint));
    if (value === undefined) return undefined;
    if (value === ONE_PASS) return { route: 'one-pass' };
    return { route: 'batch', batchId: this.batchIds[Math.floor(value / ITEMS)], item: value % ITEMS };
  }

  onePassAccepted(key: string, fingerprint: string): void {
    const hash = entryHash(key, fingerprint);
    if (this.known.get(hash) === ONE_PASS) return;
    this.known.set(hash, ONE_PASS);
    this.write({ h: hash, r: 'o' });
  }

  batchAccepted(key: string, fingerprint: string, batchId: string, item: number): void {
    const hash = entryHash(key, fingerprint);
    this.known.set(hash, this.batchNumber(batchId) * ITEMS + item);
    this.write({ h: hash, r: 'b', b: batchId, i: item });
  }

  /** The task recorded is gone (another account, a sandbox started afresh): the answer is sent again. */
  forget(key: string, fingerprint: string): void {
    const hash = entryHash(key, fingerprint);
    if (!this.known.delete(hash)) return;
    this.write({ h: hash, r: 'x' });
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private write(entry: Record<string, unknown>): void {
    if (this.fd !== undefined) writeSync(this.fd, `${JSON.stringify(entry)}\n`);
  }

  private batchNumber(batchId: string): number {
    let number = this.batchNumbers.get(batchId);
    if (number === undefined) {
      number = this.batchIds.push(batchId) - 1;
      this.batchNumbers.set(batchId, number);
    }
    return number;
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
    let entry: { h?: unknown; r?: unknown; b?: unknown; i?: unknown };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      return; // a line torn by a killed run: that answer is found again by its key, or sent
    }
    if (typeof entry.h !== 'number') return;
    if (entry.r === 'o') this.known.set(entry.h, ONE_PASS);
    else if (entry.r === 'b' && typeof entry.b === 'string' && typeof entry.i === 'number')
      this.known.set(entry.h, this.batchNumber(entry.b) * ITEMS + entry.i);
    else if (entry.r === 'x') this.known.delete(entry.h);
  }
}

/** One number per (key, content): the same answer sent again, whatever its route, is the same entry. */
function entryHash(key: string, fingerprint: string): number {
  return hash53(`${key}\n${fingerprint}`);
}
