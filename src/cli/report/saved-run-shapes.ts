// The shapes kct writes a run in, each read back as rows one at a time (saved-run.ts picks the
// shape). Memory holds one row at a time, except the journal's rows (a few numbers each: where each
// row's last line is) and CSV's header.
import { closeSync, openSync, readSync } from 'node:fs';
import { pipeline, type Readable } from 'node:stream';
import { lastRunRows } from '../../run/record-rows.js';

/** A problem at a line of the input: saved-run.ts words it as an error naming the file. */
export class ShapeProblem extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

/** The lines of a stream, with the byte offset and length of each (for reading one again later). */
async function* linesOf(input: Readable): AsyncGenerator<{ text: string; number: number; offset: number; length: number }> {
  let rest = Buffer.alloc(0);
  let offset = 0;
  let number = 0;
  for await (const chunk of input) {
    let piece = rest.length > 0 ? Buffer.concat([rest, chunk as Buffer]) : (chunk as Buffer);
    let start = 0;
    for (let end = piece.indexOf(0x0a); end >= 0; end = piece.indexOf(0x0a, start)) {
      number += 1;
      yield { text: piece.toString('utf8', start, end).replace(/\r$/, ''), number, offset: offset + start, length: end - start };
      start = end + 1;
    }
    offset += start;
    piece = piece.subarray(start);
    rest = Buffer.from(piece);
  }
  if (rest.length > 0) yield { text: rest.toString('utf8').replace(/\r$/, ''), number: number + 1, offset, length: rest.length };
}

/** One JSON value per line (`--output ndjson`), blank lines skipped. */
export async function* ndjsonRows(input: Readable): AsyncGenerator<{ value: unknown; line: number }> {
  for await (const { text, number } of linesOf(input)) {
    if (text.trim() === '') continue;
    yield { value: parseLine(text, number), line: number };
  }
}

function parseLine(text: string, line: number): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ShapeProblem(line, 'is not JSON');
  }
}

/**
 * The rows of `--json`: an array of rows, or (with a grade file) an object whose "rows" is that
 * array, as JSON.stringify(..., null, n) or jq prints them: each row opens with a line `{` and
 * closes with a line `}` (or `},`) at the same indentation, so each is parsed alone. JSON on one
 * line (`jq -c`) is parsed whole.
 */
/** A batch's own record, as `kct result <batch> --json` or `kct batch --no-wait` print it: no answer's row. */
export function isBatchRecord(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  const record = value as Record<string, unknown>;
  return typeof record.count === 'number' && typeof record.task_id === 'string' && record.file == null && record.student_id == null;
}

/** The refusal of a batch's record where rows were expected, with where its rows come from. */
export function notRows(line: number): ShapeProblem {
  return new ShapeProblem(
    line,
    "is a batch's own record (kct batch --no-wait, kct result <batch id> --json), not an answer's row: save its items' rows with `kct result <batch id> --output ndjson > marks.ndjson`, once it has finished",
  );
}

export async function* jsonRows(input: Readable): AsyncGenerator<{ value: unknown; line: number }> {
  let opening: string | undefined;
  let indent: string | undefined;
  let held: string[] = [];
  let startedAt = 0;
  let inRows = false;
  /** An object's top-level lines while no "rows" has opened: one answer's result (`kct one-pass <file> --json`) when it closes without. */
  let single: string[] | undefined;
  for await (const { text, number } of linesOf(input)) {
    if (opening === undefined) {
      if (text.trim() === '') continue;
      opening = text.trim();
      if (opening !== '[' && opening !== '{') {
        const whole = parseLine(opening, number);
        const rows = Array.isArray(whole) ? whole : (whole as { rows?: unknown })?.rows;
        if (!Array.isArray(rows)) throw new ShapeProblem(number, 'is JSON, but neither an array of rows nor an object with "rows"');
        for (const value of rows) yield { value, line: number };
        return;
      }
      inRows = opening === '[';
      if (!inRows) {
        single = [text];
        startedAt = number;
      }
      continue;
    }
    if (!inRows) {
      // a batch's own record (`kct result <batch> --json`): its items are not a run's rows
      if (/^ {2}"items": \[/.test(text)) throw notRows(number);
      // the envelope: `"rows": [` opens the rows (`"rows": []` holds none); other fields are not rows
      if (/^\s*"rows": \[\]/.test(text)) return;
      if (/^\s*"rows": \[$/.test(text)) {
        inRows = true;
        single = undefined;
        continue;
      }
      single?.push(text);
      if (single && text === '}') {
        const value = parseLine(single.join('\n'), startedAt);
        // one answer's result has its task and its marks; another record (an assignment, the credits) is no run
        const record = value as { task_id?: unknown; evaluation?: unknown; score?: unknown };
        if (typeof record?.task_id !== 'string' || (record.evaluation === undefined && record.score === undefined))
          throw new ShapeProblem(
            startedAt,
            "starts a JSON object that is neither a run's rows nor one answer's result (task_id and its marks)",
          );
        yield { value, line: startedAt };
        return;
      }
      continue;
    }
    if (indent === undefined) {
      if (/^\s*\]/.test(text)) return;
      const open = /^(\s*)\{$/.exec(text);
      if (!open) throw new ShapeProblem(number, 'is not the start of a row (a line "{" in the array)');
      indent = open[1];
    }
    if (held.length === 0) {
      if (text.startsWith(`${indent}]`) || /^\s*\]/.test(text)) return;
      if (text !== `${indent}{`) throw new ShapeProblem(number, 'is not the start of a row (a line "{" in the array)');
      startedAt = number;
    }
    held.push(text);
    if (text === `${indent}}` || text === `${indent}},`) {
      yield { value: parseLine(held.join('\n').replace(/,$/, ''), startedAt), line: startedAt };
      held = [];
    }
  }
  if (held.length > 0) throw new ShapeProblem(startedAt, 'starts a row that never ends (the file is cut short)');
}

/**
 * A `--resume` journal (the run's record, src/run/journal.ts): the rows of its last run, each as
 * its last event says (src/run/record-rows.ts). Read twice from a file: first where each row's
 * final line is, then those lines; from stdin, the final lines are held.
 */
export async function* journalRows(path: string | undefined, input: Readable): AsyncGenerator<{ value: unknown; line: number }> {
  const fd = path === undefined ? undefined : openSync(path, 'r');
  const readAt =
    fd === undefined
      ? undefined
      : (offset: number, length: number) => {
          const buffer = Buffer.allocUnsafe(length);
          readSync(fd, buffer, 0, length, offset);
          return buffer.toString('utf8');
        };
  try {
    yield* lastRunRows(linesOf(input), readAt);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The columns of `--output csv` before and after the criteria (src/cli/render/outcomes.ts). */
const LEADING = ['file', 'student_id', 'task_id', 'status', 'score'];
const TRAILING = ['max_score', 'message', 'duplicate_of'];

/**
 * `--output csv`: a row per answer with a column per criterion (its score), between kct's own
 * columns. CSV has no feedback: the rows read back hold the scores only. A cell kct guarded
 * against spreadsheet formulas (a leading ') is read as it was.
 */
export async function* csvRows(input: Readable): AsyncGenerator<{ value: unknown; line: number }> {
  const { parse } = await import('csv-parse');
  // each run appended (`cat a.csv b.csv`) brings its header, with its own criteria: the row count of cells is checked here
  // info: each record with its own line (the parser's own count is how far it has read ahead)
  const parser = parse({ relax_column_count: true, skip_empty_lines: true, bom: true, info: true });
  // pipeline, not pipe: an error of the input (bytes that are not UTF-8) ends the parser with it
  pipeline(input, parser, () => {});
  let header: string[] | undefined;
  let criteria: string[] = [];
  let named = false;
  for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
    const line = info.lines;
    const cells = record.map(unguard);
    if (header === undefined || cells.slice(0, LEADING.length).join() === LEADING.join()) {
      const at = header === undefined ? 1 : line;
      header = cells;
      named = header.at(-1) === 'student_name';
      const trailing = header.slice(header.length - TRAILING.length - (named ? 1 : 0), header.length - (named ? 1 : 0));
      if (header.slice(0, LEADING.length).join() !== LEADING.join() || trailing.join() !== TRAILING.join())
        throw new ShapeProblem(at, `is not the header of kct's CSV (${[...LEADING, '<criteria>', ...TRAILING].join(',')})`);
      criteria = header.slice(LEADING.length, header.length - TRAILING.length - (named ? 1 : 0));
      continue;
    }
    if (cells.length !== header.length) throw new ShapeProblem(line, `has ${cells.length} cells where its header has ${header.length}`);
    const at = (name: string) => cells[header!.indexOf(name, name === 'score' ? 0 : LEADING.length + criteria.length)];
    const text = (value: string | undefined) => (value === undefined || value === '' ? null : value);
    const scores = criteria.map((item, index) => [item, cells[LEADING.length + index]] as const).filter(([, score]) => score !== '');
    yield {
      value: {
        file: cells[0] === '' ? null : cells[0],
        student_id: text(cells[1]),
        ...(named && at('student_name') ? { student_name: at('student_name') } : {}),
        task_id: text(cells[2]),
        status: cells[3],
        score: number(cells[4]),
        max_score: number(at('max_score')),
        ...(text(at('message')) ? { message: at('message') } : {}),
        ...(text(at('duplicate_of')) ? { duplicate_of: at('duplicate_of') } : {}),
        evaluation: scores.length > 0 ? scores.map(([item, score]) => ({ item, score: number(score) })) : null,
      },
      line,
    };
  }
}

function number(cell: string | undefined): number | null | string {
  if (cell === undefined || cell === '') return null;
  const value = Number(cell);
  return Number.isFinite(value) ? value : cell;
}

/** kct's CSV prefixes a cell that a spreadsheet would run (=, +, -, @ and more, a tab, a CR) with ': undone. */
function unguard(cell: string): string {
  return /^'([=+\-@].|[\t\r])/s.test(cell) ? cell.slice(1) : cell;
}
