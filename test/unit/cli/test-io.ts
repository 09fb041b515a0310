// A test IO for running kct's main() in-process (gh's iostreams.Test): stdout and stderr are
// captured as text, stdin is given text, and a terminal is faked (isTTY, width, cursor moves)
// so the TTY and the piped rendering of one command can be compared.
import { clearLine, cursorTo, moveCursor } from 'node:readline';
import { Readable, Writable } from 'node:stream';
import type { Streams } from '../../../src/cli/core/io.js';

/** A Writable that keeps what it is given; with `tty`, it answers like a terminal does (ora needs cursorTo). */
export class CaptureStream extends Writable {
  readonly chunks: string[] = [];
  readonly isTTY: boolean;
  readonly columns: number;

  constructor(tty: boolean, columns = 100) {
    super({ decodeStrings: false });
    this.isTTY = tty;
    this.columns = columns;
  }

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.chunks.push(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
    done();
  }

  cursorTo(x: number, y?: number): boolean {
    return cursorTo(this, x, y);
  }

  moveCursor(dx: number, dy: number): boolean {
    return moveCursor(this, dx, dy);
  }

  clearLine(dir: -1 | 0 | 1): boolean {
    return clearLine(this, dir);
  }

  text(): string {
    return this.chunks.join('');
  }
}

export interface TestIOOptions {
  /** stdin, stdout and stderr are all terminals (default false: piped, as in CI). */
  tty?: boolean;
  /** What stdin holds (default: nothing). */
  stdin?: string;
  columns?: number;
}

export interface TestIO {
  /** What main(args, { io }) reads and writes; it decides colour and prompting from these as for a real process. */
  io: Streams;
  stdout: CaptureStream;
  stderr: CaptureStream;
}

export function testIO(options: TestIOOptions = {}): TestIO {
  const tty = options.tty ?? false;
  const stdout = new CaptureStream(tty, options.columns);
  const stderr = new CaptureStream(tty, options.columns);
  const stdin = Object.assign(Readable.from(options.stdin === undefined ? [] : [options.stdin]), { isTTY: tty });
  return { io: { stdin, stdout, stderr }, stdout, stderr };
}
