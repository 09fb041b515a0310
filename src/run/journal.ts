// The --resume journal: a run's record on disk (record.ts), JSON lines appended as the run goes, so
// a crash or Ctrl-C loses nothing. Each line is one event of one input, by its row in the run:
//   {"kct_journal": 2, "at"}                                          first line of the file
//   {"e": "run", "at", "rows"}                                        a run begins (its rows follow)
//   {"e": "found", "row", "answer", "identity", "student_id"?}        an answer to mark
//   {"e": "unsent", "row", "answer", "status", "reason", "out": {...}} SKIPPED, EMPTY or NOT_ENTERED, its row
//   {"e": "sent", "row", "identity", "key"}                           its request went out
//   {"e": "accepted", "row", "identity", "task_id" | "batch_id"+"item", "status", "replayed"?}
//   {"e": "reused", "row", "identity", "task_id" | "batch_id"+"item"?, "from"}   an earlier mark, no request
//   {"e": "final", "row", "identity", "task_id", "status", "at", "copy"?, "out": {...}}   its row, printed
// A later run indexes it by identity in 1 MiB pieces, keeping numbers rather than records: an
// identity's last task (or batch item), its last status and where its final line is. A finished
// answer's row is read back from there when printed, so a resumed run sends nothing for it.
import { closeSync, existsSync, openSync, readSync, truncateSync, writeSync } from 'node:fs';
import { UsageError } from '../api/errors.js';
import { isFinalStatus } from '../api/status.js';
import { currentLabel } from '../cli/answers/labels.js';

/** What the journal knows of an identity: finished (its row saved), or accepted and not yet seen finished. */
export type JournalKnown =
  | { kind: 'final'; taskId?: string; status: string; slot: number }
  | { kind: 'task'; taskId: string }
  | { kind: 'batch'; batchId: string; item: number };

const VERSION = 2;
const PIECE = 1024 * 1024;
const NEWLINE = 0x0a;
/** How `final` writes its row: last, after fields that hold no object, so the first match is it. */
const OUT_FIELD = Buffer.from(',"out":{');
/** How every journal of this version begins. */
const HEADER_START = `{"kct_journal":${VERSION}`;

interface Line {
  e?: unknown;
  kct_journal?: unknown;
  identity?: unknown;
  task_id?: unknown;
  batch_id?: unknown;
  item?: unknown;
  status?: unknown;
  answer?: unknown;
  key?: unknown;
  copy?: unknown;
}

export class Journal {
  private readonly slots = new Map<string, number>();
  /** The last identity found under each answer's name (a 53-bit hash of it), to say which answers changed. */
  private readonly named = new Map<number, number>();
  private readonly taskIds: (string | undefined)[] = [];
  private readonly batchIds: (string | undefined)[] = [];
  private readonly items: number[] = [];
  private readonly statusCode: number[] = [];
  private readonly finalAt: number[] = [];
  private readonly finalLength: number[] = [];
  /** Status strings by code: a handful of distinct values, stored once. */
  private readonly statuses: string[] = [''];
  private readonly fd: number;
  private reader?: number;
  /** Where the last whole line ends: a killed run may have left half a line after it. */
  private wholeUpTo = 0;
  private sawHeader = false;

  constructor(readonly path: string) {
    if (existsSync(path) && this.checkHead()) {
      const { size } = this.read();
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
    if (!this.sawHeader) this.write({ kct_journal: VERSION, at: new Date().toISOString() });
  }

  /** Identities the journal knows. */
  get size(): number {
    return this.taskIds.length;
  }

  /** What an earlier run (or this one) recorded for this identity. */
  lookup(identity: string): JournalKnown | undefined {
    const slot = this.slots.get(identity);
    if (slot === undefined) return undefined;
    const status = this.statuses[this.statusCode[slot]];
    const taskId = this.taskIds[slot];
    if (this.finalLength[slot] > 0 && isFinalStatus(status)) return { kind: 'final', taskId, status, slot };
    const batchId = this.batchIds[slot];
    if (batchId !== undefined) return { kind: 'batch', batchId, item: this.items[slot] };
    if (taskId !== undefined) return { kind: 'task', taskId };
    return undefined;
  }

  /** Whether an earlier run found this answer: its content, or an answer of this name. */
  knows(label: string, identity: string): boolean {
    return this.slots.has(identity) || this.named.has(hash53(label));
  }

  /** Whether an answer of this name was found before with other content (a changed file). */
  changed(label: string, identity: string): boolean {
    const slot = this.named.get(hash53(label));
    return slot !== undefined && this.slots.get(identity) !== slot;
  }

  /** The row saved with a finished identity. */
  savedRow(slot: number): Record<string, unknown> | undefined {
    const length = this.finalLength[slot];
    if (!length) return undefined;
    const buffer = Buffer.allocUnsafe(length);
    this.reader ??= openSync(this.path, 'r');
    readSync(this.reader, buffer, 0, length, this.finalAt[slot]);
    try {
      return (JSON.parse(buffer.toString('utf8')) as { out?: Record<string, unknown> }).out;
    } catch {
      return undefined; // a damaged row: its task is followed again, as if it were unfinished
    }
  }

  /** Appends one event; `final` events are indexed too, so a later lookup in this run finds them. */
  write(entry: Record<string, unknown>): void {
    writeSync(this.fd, `${JSON.stringify(entry)}\n`);
  }

  close(): void {
    closeSync(this.fd);
    if (this.reader !== undefined) closeSync(this.reader);
  }

  /**
   * Whether the file holds a journal to read (false: empty). Anything else that is not this
   * version's journal is refused before a byte of it is touched: a --resume naming the wrong file
   * must never cut it.
   */
  private checkHead(): boolean {
    let head: Buffer;
    let fd: number | undefined;
    try {
      fd = openSync(this.path, 'r');
      head = Buffer.alloc(4096);
      head = head.subarray(0, readSync(fd, head, 0, head.length, 0));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new UsageError(
        code === 'EISDIR' ? `the journal ${this.path} is a folder` : `cannot read the journal ${this.path} (${code ?? String(error)})`,
        { suggestion: 'Give --resume a file path, e.g. --resume marks.journal (it is created if missing).' },
      );
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
    if (head.length === 0) return false;
    if (head.toString('utf8').startsWith(HEADER_START)) return true;
    let first: Line = {};
    try {
      first = JSON.parse(head.toString('utf8', 0, head.indexOf(NEWLINE) < 0 ? head.length : head.indexOf(NEWLINE))) as Line;
    } catch {
      // not JSON: not a journal
    }
    throw this.older(first);
  }

  /** Reads the journal line by line in 1 MiB pieces; returns its size. */
  private read(): { size: number } {
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
            { suggestion: 'Give --resume a file path, e.g. --resume marks.journal (it is created if missing).' },
          );
        }
        const end = held + read;
        let start = 0;
        for (let at = buffer.indexOf(NEWLINE, 0); at >= 0 && at < end; at = buffer.indexOf(NEWLINE, start)) {
          line += 1;
          // a line that cannot be read is damage, unless it is the last (a killed run's torn write)
          if (damaged !== undefined) throw this.damage(damaged);
          if (!this.take(buffer, start, at, offset + start, line)) {
            damaged = line;
            damagedAt = offset + start;
          }
          start = at + 1;
          this.wholeUpTo = offset + start;
        }
        if (read === 0) {
          if (damaged !== undefined && start < end) throw this.damage(damaged);
          if (damaged !== undefined) this.wholeUpTo = damagedAt; // the last line, unreadable: torn too
          return { size: offset + end };
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

  /** Takes one line into the index; false when it cannot be read. */
  private take(buffer: Buffer, start: number, end: number, fileOffset: number, line: number): boolean {
    if (end - start === 0 || (end - start === 1 && buffer[start] === 0x0d)) return true;
    // a finished answer's row (the line's last field, most of its bytes) is not parsed here: it is read back when printed
    const found = buffer.subarray(start, end).indexOf(OUT_FIELD);
    let entry: Line;
    try {
      entry = (found >= 0 ? headOf(buffer, start, start + found) : undefined) ?? JSON.parse(buffer.toString('utf8', start, end));
    } catch {
      return false;
    }
    if (typeof entry !== 'object' || entry === null) return false;
    if (line === 1 && entry.kct_journal === VERSION) {
      this.sawHeader = true;
      return true;
    }
    if (typeof entry.identity !== 'string') return true;
    let slot = this.slots.get(entry.identity);
    if (slot === undefined) {
      slot = this.taskIds.length;
      this.slots.set(entry.identity, slot);
      this.taskIds.push(undefined);
      this.batchIds.push(undefined);
      this.items.push(-1);
      this.statusCode.push(0);
      this.finalAt.push(0);
      this.finalLength.push(0);
    }
    // where an identity was sent is what was accepted; a final row names its task only once it is final (a
    // --no-wait row of a batch item names the batch, which is followed as a batch, not as a task)
    const names = entry.e !== 'final' || (typeof entry.status === 'string' && isFinalStatus(entry.status));
    // a reuse of a batch item once named the batch as its task: the item stays the batch's
    const batchAgain = entry.e === 'reused' && entry.task_id === this.batchIds[slot];
    if (typeof entry.task_id === 'string' && names && !batchAgain) {
      this.taskIds[slot] = entry.task_id;
      this.batchIds[slot] = undefined;
    } else if (typeof entry.batch_id === 'string') {
      this.batchIds[slot] = entry.batch_id;
      this.items[slot] = typeof entry.item === 'number' ? entry.item : -1;
      this.taskIds[slot] = undefined;
    }
    // an answer named as an earlier kct named it (a pasted text's `--text`) is the same answer's name
    if (entry.e === 'found' && typeof entry.answer === 'string') this.named.set(hash53(currentLabel(entry.answer)), slot);
    if (typeof entry.status === 'string' && entry.e !== 'found') this.statusCode[slot] = this.code(entry.status);
    // the row read back for an identity is the one of its answer sent or reused, not a copy's (its own notes: row-names.ts)
    if (entry.e === 'final' && entry.copy !== true) {
      this.finalAt[slot] = fileOffset;
      this.finalLength[slot] = end - start;
    } else if (entry.e === 'accepted') this.finalLength[slot] = 0;
    return true;
  }

  /** A journal of kct before 0.2 (no header line): its keys were made by another rule. */
  private older(entry: Line): UsageError {
    const v1 =
      typeof entry === 'object' &&
      entry !== null &&
      typeof entry.answer === 'string' &&
      (typeof entry.key === 'string' || typeof entry.task_id === 'string');
    return new UsageError(
      v1
        ? `the journal ${this.path} was written by an earlier kct (before 0.2), whose keys and records this one does not read`
        : `${this.path} is not a kct journal`,
      {
        suggestion: v1
          ? 'Finish that run with the kct that started it, or give --resume a new file (answers this machine marked are still reused; others are sent again).'
          : 'Give --resume a new file, e.g. --resume marks.journal (it is created if missing).',
      },
    );
  }

  private code(status: string): number {
    let code = this.statuses.indexOf(status);
    if (code < 0) code = this.statuses.push(status) - 1;
    return code;
  }
}

/** The fields of a line before its row, or undefined when they are not an entry (then the whole line is parsed). */
function headOf(buffer: Buffer, start: number, outAt: number): Line | undefined {
  try {
    const head = JSON.parse(`${buffer.toString('utf8', start, outAt)}}`) as unknown;
    return typeof head === 'object' && head !== null && typeof (head as Line).e === 'string' ? (head as Line) : undefined;
  } catch {
    return undefined;
  }
}

/** Two 32-bit FNV-1a hashes of a string, as one 53-bit number: equal strings, equal numbers; others almost never. */
function hash53(text: string): number {
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
