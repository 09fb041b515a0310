// Rows kept on disk, not in memory, until they can be printed in order: answers finish in any
// order, but `--json` and the table print them in the order they were found. A row that arrives
// in turn goes straight out; one that arrives early waits in a private temporary file (mode
// 0600), found again by its offset. Memory holds 12 bytes per row, whatever the class size.
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Rows are written to the file in pieces of about this size (a write per row would cost a buffer each). */
const PIECE = 64 * 1024;

export class RowSpool {
  private offsets: Float64Array;
  private lengths: Uint32Array;
  private dir?: string;
  private fd?: number;
  private written = 0;
  private pending: string[] = [];
  private pendingBytes = 0;
  /** The next row to print in order. */
  private next = 0;
  private closed = false;
  // a second Ctrl-C exits at once (main.ts): the temporary file goes too
  private readonly onExit = () => this.discard();

  constructor(rows: number) {
    this.offsets = new Float64Array(Math.max(1, rows)).fill(-1);
    this.lengths = new Uint32Array(Math.max(1, rows));
  }

  /** Rows not yet printed in order that are waiting on disk. */
  get waiting(): boolean {
    return this.written + this.pendingBytes > 0 && this.next < this.offsets.length;
  }

  /** Keeps row `index` (its text) until asked for. */
  put(index: number, text: string): void {
    if (index >= this.offsets.length) this.growTo(index + 1);
    this.open();
    const bytes = Buffer.byteLength(text);
    this.offsets[index] = this.written + this.pendingBytes;
    this.lengths[index] = bytes;
    this.pending.push(text);
    this.pendingBytes += bytes;
    if (this.pendingBytes >= PIECE) this.flush();
  }

  /**
   * Row `index` arrived: returns the rows that can now be printed in order (it and those kept
   * after it), or nothing when an earlier row is still missing (it is kept meanwhile).
   */
  arrive(index: number, text: string): string[] {
    if (index !== this.next) {
      this.put(index, text);
      return [];
    }
    const ready = text === '' ? [] : [text];
    this.next += 1;
    while (this.next < this.offsets.length && this.offsets[this.next] >= 0) {
      const row = this.read(this.next++);
      if (row !== '') ready.push(row);
    }
    return ready;
  }

  /** A row that will never come (an answer with no row) no longer holds back the ones after it. */
  skip(index: number): string[] {
    return this.arrive(index, '');
  }

  /** Every row kept, in index order (rows never put, or put empty, are left out). */
  *all(): Generator<string> {
    for (let index = 0; index < this.offsets.length; index++) {
      if (this.offsets[index] < 0 || this.lengths[index] === 0) continue;
      yield this.read(index);
    }
  }

  /** The rows kept that were not printed in order yet (those waiting on an earlier one), in index order. */
  *rest(): Generator<string> {
    for (let index = this.next; index < this.offsets.length; index++) {
      if (this.offsets[index] < 0 || this.lengths[index] === 0) continue;
      yield this.read(index);
    }
  }

  /** Removes the temporary file; safe to call twice. */
  discard(): void {
    if (this.closed) return;
    this.closed = true;
    process.off('exit', this.onExit);
    if (this.fd !== undefined) closeSync(this.fd);
    if (this.dir !== undefined) rmSync(this.dir, { recursive: true, force: true });
  }

  private open(): void {
    if (this.fd !== undefined) return;
    // student feedback: a private folder (mkdtemp makes it 0700)
    this.dir = mkdtempSync(join(tmpdir(), 'kct-rows-'));
    this.fd = openSync(join(this.dir, 'rows'), 'w+', 0o600);
    process.once('exit', this.onExit);
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    const text = this.pending.join('');
    writeSync(this.fd as number, text, this.written);
    this.written += this.pendingBytes;
    this.pending = [];
    this.pendingBytes = 0;
  }

  private read(index: number): string {
    if (this.offsets[index] + this.lengths[index] > this.written) this.flush();
    const buffer = Buffer.allocUnsafe(this.lengths[index]);
    readSync(this.fd as number, buffer, 0, buffer.length, this.offsets[index]);
    return buffer.toString('utf8');
  }

  private growTo(rows: number): void {
    const offsets = new Float64Array(Math.max(rows, this.offsets.length * 2)).fill(-1);
    offsets.set(this.offsets);
    const lengths = new Uint32Array(offsets.length);
    lengths.set(this.lengths);
    this.offsets = offsets;
    this.lengths = lengths;
  }
}
