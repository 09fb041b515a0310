// The --resume journal: JSON lines appended as the run goes, so a crash or Ctrl-C loses nothing.
//   {"answer", "key", "task_id", "status": "QUEUED", "at"}              accepted (one-pass)
//   {"answer", "key", "batch_id", "item", "status": "QUEUED", "at"}     accepted as item `item` of a batch
//   {"answer", "task_id", "status", "at", "row": {...}}                 finished: the row printed for it
// A later run reads it in 1 MiB pieces and keeps, per answer, numbers rather than records: a
// hash of its name and of its last key, its last task (or batch and item), its last status and
// where its row is in the file. A finished answer's row is read back from there when printed,
// so a resumed run sends nothing at all for it. Journals of earlier versions (a key on every
// line, no row) still read: their finished answers' results are fetched once.
import { closeSync, existsSync, openSync, readSync, truncateSync, writeSync } from 'node:fs';
import { UsageError } from '../../api/errors.js';
import { isFinalStatus } from '../../api/status.js';

export type ResumePlan =
  | { kind: 'submit'; changed: boolean }
  | { kind: 'attach'; taskId: string }
  | { kind: 'attach-batch'; batchId: string; item: number }
  | { kind: 'done'; taskId: string; status: string; slot: number };

const PIECE = 1024 * 1024;
const NEWLINE = 0x0a;
/** How `finished` writes the row: last, after fields that hold no object, so the first match is it. */
const ROW_FIELD = Buffer.from(',"row":{');

/** The fields of a line before its row, or undefined when they are not an entry (then the whole line is parsed). */
function headOf(buffer: Buffer, start: number, rowAt: number): Record<string, unknown> | undefined {
  try {
    const head = JSON.parse(`${buffer.toString('utf8', start, rowAt)}}`) as unknown;
    return typeof head === 'object' && head !== null && typeof (head as { answer?: unknown }).answer === 'string'
      ? (head as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Two 32-bit FNV-1a hashes of a string, as one 53-bit number: equal strings, equal numbers; others almost never. */
export function hash53(text: string): number {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return (a >>> 0) * 0x200000 + ((b >>> 0) & 0x1fffff);
}

export class Journal {
  private readonly slots = new Map<number, number>();
  private readonly keyHash: number[] = [];
  private readonly taskIds: (string | undefined)[] = [];
  private readonly batchIds: (string | undefined)[] = [];
  private readonly items: number[] = [];
  private readonly statusCode: number[] = [];
  private readonly rowAt: number[] = [];
  private readonly rowLength: number[] = [];
  /** Status strings by code: a handful of distinct values, stored once. */
  private readonly statuses: string[] = [''];
  private readonly fd: number;
  /** How many lines the journal held when this run started. */
  readonly lines: number = 0;

  /** Where the last whole line ends: a killed run may have left half a line after it. */
  private wholeUpTo = 0;

  constructor(readonly path: string) {
    if (existsSync(path)) {
      const { lines, size } = this.read();
      this.lines = lines;
      // drop a torn last line, so the lines this run appends do not run into it
      if (size > this.wholeUpTo) {
        try {
          truncateSync(path, this.wholeUpTo);
        } catch {
          // cannot write: said just below
        }
      }
    }
    try {
      // find out now, before any task exists, that the journal cannot be written
      this.fd = openSync(path, 'a', 0o600);
    } catch (error) {
      throw new UsageError(`cannot write the journal ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)})`, {
        suggestion: 'Choose a --resume path in a folder you can write to.',
      });
    }
  }

  /** Answers the journal knows. */
  get size(): number {
    return this.keyHash.length;
  }

  plan(answer: string, key: string): ResumePlan {
    const slot = this.slots.get(hash53(answer));
    if (slot === undefined) return { kind: 'submit', changed: false };
    if (this.keyHash[slot] !== hash53(key)) return { kind: 'submit', changed: true };
    const status = this.statuses[this.statusCode[slot]];
    const taskId = this.taskIds[slot];
    if (taskId !== undefined && isFinalStatus(status)) return { kind: 'done', taskId, status, slot };
    const batchId = this.batchIds[slot];
    if (batchId !== undefined) return { kind: 'attach-batch', batchId, item: this.items[slot] };
    if (taskId !== undefined) return { kind: 'attach', taskId };
    return { kind: 'submit', changed: false };
  }

  /** The row saved for a finished answer (none in journals of earlier versions). */
  row(slot: number): Record<string, unknown> | undefined {
    const length = this.rowLength[slot];
    if (!length) return undefined;
    const buffer = Buffer.allocUnsafe(length);
    readSync(this.readFd(), buffer, 0, length, this.rowAt[slot]);
    try {
      return (JSON.parse(buffer.toString('utf8')) as { row?: Record<string, unknown> }).row;
    } catch {
      return undefined; // a damaged row: its result is fetched again, as for a journal without rows
    }
  }

  /** How many answers the journal follows in each unfinished batch (what a resumed run waits for). */
  batchMembers(): Map<string, number> {
    const members = new Map<string, number>();
    for (let slot = 0; slot < this.keyHash.length; slot++) {
      const batchId = this.batchIds[slot];
      if (batchId !== undefined && !isFinalStatus(this.statuses[this.statusCode[slot]]))
        members.set(batchId, (members.get(batchId) ?? 0) + 1);
    }
    return members;
  }

  submitted(answer: string, key: string, taskId: string, status: string): void {
    this.write({ answer, key, task_id: taskId, status, at: new Date().toISOString() });
  }

  submittedInBatch(answer: string, key: string, batchId: string, item: number): void {
    this.write({ answer, key, batch_id: batchId, item, status: 'QUEUED', at: new Date().toISOString() });
  }

  finished(answer: string, taskId: string, status: string, row: Record<string, unknown>): void {
    this.write({ answer, task_id: taskId, status, at: new Date().toISOString(), row });
  }

  close(): void {
    closeSync(this.fd);
    if (this.reader !== undefined) closeSync(this.reader);
  }

  private reader?: number;

  private readFd(): number {
    this.reader ??= openSync(this.path, 'r');
    return this.reader;
  }

  private write(entry: Record<string, unknown>): void {
    writeSync(this.fd, `${JSON.stringify(entry)}\n`);
  }

  /** Reads the journal line by line in 1 MiB pieces; returns how many lines it holds, and its size. */
  private read(): { lines: number; size: number } {
    let fd: number;
    try {
      fd = openSync(this.path, 'r');
    } catch (error) {
      throw new UsageError(`cannot read the journal ${this.path} (${(error as NodeJS.ErrnoException).code ?? String(error)})`, {
        suggestion: 'Give --resume a file path, e.g. --resume marks.journal (it is created if missing).',
      });
    }
    let buffer = Buffer.allocUnsafe(PIECE);
    let held = 0; // bytes of an unfinished line carried over
    let offset = 0; // file offset of buffer[0]
    let line = 0;
    let damaged: number | undefined;
    let damagedAt = 0;
    try {
      for (;;) {
        if (held === buffer.length) {
          const bigger = Buffer.allocUnsafe(buffer.length * 2); // one line longer than the buffer
          buffer.copy(bigger, 0, 0, held);
          buffer = bigger;
        }
        let read: number;
        try {
          read = readSync(fd, buffer, held, buffer.length - held, null);
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          throw new UsageError(
            code === 'EISDIR' ? `the journal ${this.path} is a folder` : `cannot read the journal ${this.path} (${code ?? String(error)})`,
            {
              suggestion: 'Give --resume a file path, e.g. --resume marks.journal (it is created if missing).',
            },
          );
        }
        const end = held + read;
        let start = 0;
        for (let at = buffer.indexOf(NEWLINE, 0); at >= 0 && at < end; at = buffer.indexOf(NEWLINE, start)) {
          line += 1;
          // a line that cannot be read is damage, unless it is the last (a killed run's torn write)
          if (damaged !== undefined) throw this.damage(damaged);
          if (!this.take(buffer, start, at, offset + start)) {
            damaged = line;
            damagedAt = offset + start;
          }
          start = at + 1;
          this.wholeUpTo = offset + start;
        }
        if (read === 0) {
          if (damaged !== undefined && start < end) throw this.damage(damaged);
          if (damaged !== undefined) this.wholeUpTo = damagedAt; // the last line, unreadable: torn too
          // an unfinished last line is a killed run's torn write: left out (and cut off by the constructor)
          return { lines: line, size: offset + end };
        }
        buffer.copy(buffer, 0, start, end);
        offset += start;
        held = end - start;
      }
    } finally {
      closeSync(fd);
    }
  }

  private damage(line: number): UsageError {
    return new UsageError(`the journal ${this.path} is damaged at line ${line}`, {
      suggestion: 'Move it away to start afresh (tasks already created are still found through their idempotency keys).',
    });
  }

  /** Takes one line into the index; false when it is not a journal entry. */
  private take(buffer: Buffer, start: number, end: number, fileOffset: number): boolean {
    if (end - start === 0 || (end - start === 1 && buffer[start] === 0x0d)) return true;
    let entry: { answer?: unknown; key?: unknown; task_id?: unknown; batch_id?: unknown; item?: unknown; status?: unknown; row?: unknown };
    // a finished answer's row (the line's last field, most of its bytes) is not parsed here: it is read back when printed
    const found = buffer.subarray(start, end).indexOf(ROW_FIELD);
    const hasRow = found >= 0;
    const rowAt = start + found;
    try {
      entry = hasRow
        ? (headOf(buffer, start, rowAt) ?? JSON.parse(buffer.toString('utf8', start, end)))
        : JSON.parse(buffer.toString('utf8', start, end));
    } catch {
      return false;
    }
    if (typeof entry.answer !== 'string') return true;
    const name = hash53(entry.answer);
    let slot = this.slots.get(name);
    if (slot === undefined) {
      slot = this.keyHash.length;
      this.slots.set(name, slot);
      this.keyHash.push(NaN);
      this.taskIds.push(undefined);
      this.batchIds.push(undefined);
      this.items.push(-1);
      this.statusCode.push(0);
      this.rowAt.push(0);
      this.rowLength.push(0);
    }
    if (typeof entry.key === 'string') this.keyHash[slot] = hash53(entry.key);
    if (typeof entry.task_id === 'string') {
      this.taskIds[slot] = entry.task_id;
      this.batchIds[slot] = undefined;
    } else if (typeof entry.batch_id === 'string') {
      this.batchIds[slot] = entry.batch_id;
      this.items[slot] = typeof entry.item === 'number' ? entry.item : -1;
      this.taskIds[slot] = undefined;
    }
    if (typeof entry.status === 'string') this.statusCode[slot] = this.code(entry.status);
    this.rowAt[slot] = fileOffset;
    this.rowLength[slot] = hasRow || entry.row !== undefined ? end - start : 0;
    return true;
  }

  private code(status: string): number {
    let code = this.statuses.indexOf(status);
    if (code < 0) code = this.statuses.push(status) - 1;
    return code;
  }
}
