// Writes the class report as answers arrive, in memory that does not grow with the class: each
// student's row and each failure go to temporary files straight away, only the figures are kept
// (ClassTally). finish() writes the page (head, charts, failures, rows) to a file beside the
// target and renames it into place, so the target is never half-made; discard() leaves nothing.

import { once } from 'node:events';
import { closeSync, mkdtempSync, openSync, readSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { UsageError } from '../../api/errors.js';
import { isMarked } from '../../api/status.js';
import { VERSION } from '../../version.js';
import type { LeftOutCounts } from '../answers/answers.js';
import { markedBy } from '../render/result.js';
import { answersOf, notMarkedOf } from '../render/summary.js';
import { ClassTally } from '../render/tally.js';
import { failureItem, gradedByOf, pageEnd, pageStart, type ReportRow, studentRow, tableStart } from './html.js';

export interface ReportOptions {
  /** the HTML file to write, or '-' for `stdout` */
  target: string;
  stdout?: Writable;
  title?: string;
  source?: string;
  /** What the run found and left out without a row, for the "Not sent" line. */
  leftOut?: LeftOutCounts;
  /** The run's own tally (run/record.ts), when the report is a view of a run: its figures are the run's, not counted again. */
  tally?: ClassTally;
}

export interface ReportInfo {
  file: string;
  answers: number;
  marked: number;
  not_marked: number;
  /** Rows found and never meant to be sent (SKIPPED, EMPTY, NOT_ENTERED). */
  not_sent: number;
}

export class ReportWriter {
  private readonly tally: ClassTally;
  private readonly dir: string;
  private readonly rowsFd: number;
  private readonly failuresFd: number;
  private failures = 0;
  private readonly gradedBy = new Set<string>();
  private closed = false;
  // rows are written in pieces of about 64 KiB: one write per row would cost a buffer per row
  private pendingRows = '';
  private pendingFailures = '';
  // a second Ctrl-C exits at once (main.ts): the temporary files go too
  private readonly onExit = () => this.discard();

  private constructor(
    private readonly options: ReportOptions,
    private readonly partial?: string,
  ) {
    this.tally = options.tally ?? new ClassTally();
    // student feedback: a private folder (mkdtemp makes it 0700)
    this.dir = mkdtempSync(join(tmpdir(), 'kct-report-'));
    this.rowsFd = openSync(join(this.dir, 'rows.html'), 'w+', 0o600);
    this.failuresFd = openSync(join(this.dir, 'failures.html'), 'w+', 0o600);
    process.once('exit', this.onExit);
  }

  /** Checks now, before anything is marked, that the target can be written. */
  static open(options: ReportOptions): ReportWriter {
    if (options.target === '-') return new ReportWriter(options);
    const target = resolve(options.target);
    let isDir = false;
    try {
      isDir = statSync(target).isDirectory();
    } catch {
      // a new file
    }
    if (isDir)
      throw new UsageError(`the report's file ${options.target} is a folder`, { suggestion: 'Name an HTML file, e.g. class.html.' });
    const partial = join(dirname(target), `.${basename(target)}.kct-${process.pid}.partial`);
    try {
      closeSync(openSync(partial, 'wx', 0o644));
    } catch (error) {
      throw new UsageError(
        `cannot write the report ${options.target}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'its folder does not exist' : (error as Error).message}`,
        {
          suggestion: 'Choose a file in a folder that exists and that you can write to.',
        },
      );
    }
    return new ReportWriter(options, partial);
  }

  add(row: ReportRow): void {
    if (!this.options.tally)
      this.tally.add({
        status: row.status,
        score: row.score,
        maxScore: row.max_score,
        evaluation: row.evaluation,
        file: row.file ?? row.student_id,
        duplicateOf: row.duplicate_of,
      });
    const by = gradedByOf(row);
    if (by) this.gradedBy.add(by);
    this.pendingRows += studentRow(row);
    if (this.pendingRows.length >= PIECE) this.pendingRows = flush(this.rowsFd, this.pendingRows);
    if (!isMarked(row)) {
      this.pendingFailures += failureItem(row);
      if (this.pendingFailures.length >= PIECE) this.pendingFailures = flush(this.failuresFd, this.pendingFailures);
      this.failures += 1;
    }
  }

  /** Writes the page and puts it in place; returns what it holds. */
  async finish(): Promise<ReportInfo> {
    const summary = this.tally.summary();
    const info = {
      title: this.options.title ?? 'Class report',
      source: this.options.source,
      generated: new Date(),
      version: VERSION,
      leftOut: this.options.leftOut,
      identical: summary.identical,
      markedBy: markedBy([...this.gradedBy]),
    };
    this.pendingRows = flush(this.rowsFd, this.pendingRows);
    this.pendingFailures = flush(this.failuresFd, this.pendingFailures);
    try {
      const sink = this.partial === undefined ? streamSink(this.options.stdout as Writable) : fileSink(this.partial);
      await sink.write(pageStart(info, summary, this.failures));
      await copy(this.failuresFd, sink);
      await sink.write(tableStart(this.failures));
      await copy(this.rowsFd, sink);
      await sink.write(pageEnd());
      await sink.close();
      if (this.partial !== undefined) renameSync(this.partial, resolve(this.options.target));
    } finally {
      this.discard();
    }
    return {
      file: this.options.target,
      answers: answersOf(summary),
      marked: summary.marked,
      not_marked: notMarkedOf(summary),
      not_sent: summary.total - answersOf(summary),
    };
  }

  /** Removes the temporary files (and the unfinished page); safe to call twice. */
  discard(): void {
    if (this.closed) return;
    this.closed = true;
    process.off('exit', this.onExit);
    for (const fd of [this.rowsFd, this.failuresFd]) closeSync(fd);
    rmSync(this.dir, { recursive: true, force: true });
    if (this.partial !== undefined) rmSync(this.partial, { force: true });
  }
}

const PIECE = 64 * 1024;

function flush(fd: number, text: string): string {
  if (text !== '') writeSync(fd, text);
  return '';
}

interface Sink {
  /** May keep `text` only until it resolves: the caller reuses the buffer. */
  write(text: string | Buffer): Promise<void>;
  close(): Promise<void>;
}

function fileSink(path: string): Sink {
  const fd = openSync(path, 'w');
  return {
    async write(text) {
      if (typeof text === 'string') writeSync(fd, text);
      else writeSync(fd, text);
    },
    async close() {
      closeSync(fd);
    },
  };
}

function streamSink(stream: Writable): Sink {
  return {
    async write(text) {
      if (!stream.write(typeof text === 'string' ? text : Buffer.from(text))) await once(stream, 'drain');
    },
    async close() {},
  };
}

/** Copies a temporary file into the page in 64 KiB pieces. */
async function copy(fd: number, sink: Sink): Promise<void> {
  const buffer = Buffer.alloc(PIECE);
  let position = 0;
  for (;;) {
    const read = readSync(fd, buffer, 0, buffer.length, position);
    if (read === 0) return;
    position += read;
    await sink.write(buffer.subarray(0, read));
  }
}

/** The report of a marking run (`kct one-pass --report`), opened before anything is sent. */
export function openRunReport(
  target: string,
  run: { wait?: boolean; sources?: string[]; leftOut?: LeftOutCounts; tally?: ClassTally },
): ReportWriter {
  if (run.wait === false)
    throw new UsageError('--report needs the marks, and --no-wait does not wait for them', {
      suggestion: 'Leave out --no-wait, or make the report later from a saved run with `kct report`.',
    });
  if (target === '-')
    throw new UsageError('--report needs a file name (stdout holds the results)', { suggestion: 'For example: --report class.html' });
  const sources = run.sources ?? [];
  return ReportWriter.open({
    target,
    leftOut: run.leftOut,
    tally: run.tally,
    source:
      sources.length === 0
        ? undefined
        : sources.length <= 3
          ? sources.join(', ')
          : `${sources.slice(0, 3).join(', ')} and ${sources.length - 3} more`,
  });
}

/** The line that says where the report went. */
export function reportWritten(info: ReportInfo): string {
  return `kct: wrote the class report ${info.file}: ${info.answers} ${info.answers === 1 ? 'answer' : 'answers'}, ${info.marked} marked, ${info.not_marked} not marked${info.not_sent > 0 ? `, ${info.not_sent} not sent` : ''}`;
}
