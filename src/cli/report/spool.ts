// A saved run piped into `kct report -`, kept in a private file as it is first read, so that it can
// be read a second time (runs appended whose later rows say more: repeats.ts). Removed at the end.
import { closeSync, createReadStream, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Readable, Transform } from 'node:stream';

export class Spool {
  // student feedback: a private folder (mkdtemp makes it 0700)
  private readonly dir = mkdtempSync(join(tmpdir(), 'kct-report-stdin-'));
  private readonly path = join(this.dir, 'run');
  private fd: number | undefined;
  private started = false;

  constructor(private readonly input: Readable) {}

  /** The input the first time, kept as it passes; the file kept, every time after. */
  reading(): Readable {
    if (this.started) return createReadStream(this.path);
    this.started = true;
    this.fd = openSync(this.path, 'w', 0o600);
    const keep = new Transform({
      transform: (chunk: Buffer, _encoding, done) => {
        writeSync(this.fd!, chunk);
        done(null, chunk);
      },
      flush: (done) => {
        this.close();
        done();
      },
    });
    return this.input.pipe(keep);
  }

  remove(): void {
    this.close();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}
