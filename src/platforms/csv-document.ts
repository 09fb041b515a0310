// A platform's CSV download read exactly as bytes, so that a rewrite changes only the cells it
// means to: every other byte (BOM, quoting, line endings, other cells) is written back as it was.
//
// csv-parse finds the records and their values; a small splitter finds each cell's span in the
// record's text, and the two must agree, else the file is refused rather than half-understood.
// csv-parse's `raw` option drops the "\n" of a "\r\n" record (adaltas/node-csv#332), so record
// boundaries come from `info.bytes` instead.
import { parse } from 'csv-parse/sync';
import { UsageError } from '../api/errors.js';
import { utf8Text, utf16Order } from '../api/text-bytes.js';

export type Delimiter = ',' | ';';

/** One cell: its span in the record's text (quotes included) and its value. */
interface CsvCell {
  start: number;
  end: number;
  value: string;
}

/** One record: its byte span in the body, its text without the terminator, and its cells. */
export interface CsvRecord {
  byteStart: number;
  byteEnd: number;
  /** 1-based line of the record's first character, for messages. */
  line: number;
  text: string;
  /** '\r\n', '\n', '\r' or '' (the last record of a file without a final line ending). */
  terminator: string;
  cells: CsvCell[];
}

export interface CsvDocument {
  /** The file began with a UTF-8 byte order mark (kept on write). */
  bom: boolean;
  /** The bytes after the BOM. */
  body: Buffer;
  delimiter: Delimiter;
  /** The first record's line ending ('\n' when there is none). */
  eol: '\r\n' | '\n' | '\r';
  records: CsvRecord[];
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export interface ReadCsvOptions {
  /** The delimiter, or 'auto' to choose as Canvas's importer does (identify_delimiter). */
  delimiter: Delimiter | 'auto';
  /** What the file is, for messages ("the Moodle grading worksheet"). */
  what: string;
}

/** Reads `bytes` as a UTF-8 CSV document; refuses (UsageError) what it cannot read exactly. */
export function readCsvDocument(bytes: Uint8Array, options: ReadCsvOptions): CsvDocument {
  const all = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (utf16Order(all) !== undefined) {
    throw new UsageError(`${options.what} is saved as UTF-16, which kct does not rewrite.`, {
      suggestion: 'Use the file exactly as the platform downloaded it (UTF-8), or save it again as "CSV UTF-8".',
    });
  }
  const bom = startsWith(all, UTF8_BOM);
  const body = bom ? all.subarray(UTF8_BOM.length) : all;
  if (utf8Text(body) === undefined) {
    throw new UsageError(`${options.what} is not UTF-8 text (perhaps a spreadsheet saved it in another encoding).`, {
      suggestion: 'Use the file exactly as the platform downloaded it, or save it again as "CSV UTF-8".',
    });
  }
  const delimiter = options.delimiter === 'auto' ? identifyDelimiter(body) : options.delimiter;
  const what = options.delimiter === 'auto' ? `${options.what} (separated by "${delimiter}", as its importer would read it)` : options.what;
  const records = splitRecords(body, delimiter, what);
  const eol = (records[0]?.terminator || '\n') as CsvDocument['eol'];
  return { bom, body, delimiter, eol, records };
}

/**
 * Canvas's rule (gradebook_importer.rb, semicolon_delimited? and identify_delimiter): each of the
 * first three lines parsed alone; ';' when it gives more fields than ',', the same on every line.
 */
export function identifyDelimiter(body: Buffer): Delimiter {
  const lines =
    body
      .toString('utf8')
      .match(/[^\n]*\n|[^\n]+$/g)
      ?.slice(0, 3) ?? [];
  const count = (d: Delimiter): number => {
    try {
      const fields = lines.map((line) => (parse(line, { delimiter: d, relax_column_count: true }) as string[][])[0]?.length ?? 0);
      return new Set(fields).size === 1 ? fields[0] : 0;
    } catch {
      return 0;
    }
  };
  return count(';') > count(',') ? ';' : ',';
}

function splitRecords(body: Buffer, delimiter: Delimiter, what: string): CsvRecord[] {
  let parsed: { record: string[]; info: { bytes: number } }[];
  try {
    parsed = parse(body, {
      delimiter,
      record_delimiter: ['\r\n', '\n', '\r'],
      relax_column_count: true,
      skip_empty_lines: false,
      info: true,
      bom: false,
    }) as unknown as { record: string[]; info: { bytes: number } }[];
  } catch (error) {
    throw new UsageError(`${what} is not valid CSV: ${(error as Error).message}`, {
      suggestion: 'Use the file exactly as the platform downloaded it.',
      cause: error,
    });
  }
  const records: CsvRecord[] = [];
  let byteStart = 0;
  let line = 1;
  for (const { record, info } of parsed) {
    const raw = UTF8.decode(body.subarray(byteStart, info.bytes));
    const terminator = raw.endsWith('\r\n') ? '\r\n' : raw.endsWith('\n') ? '\n' : raw.endsWith('\r') ? '\r' : '';
    const text = raw.slice(0, raw.length - terminator.length);
    const cells = splitCells(text, delimiter);
    if (!cells || cells.length !== record.length || cells.some((c, i) => c.value !== record[i])) {
      throw new UsageError(`${what}: line ${line} could not be read exactly, so kct will not rewrite the file.`, {
        suggestion: 'Use the file exactly as the platform downloaded it.',
      });
    }
    records.push({ byteStart, byteEnd: info.bytes, line, text, terminator, cells });
    byteStart = info.bytes;
    line += countLineBreaks(raw);
  }
  if (byteStart !== body.length) {
    throw new UsageError(`${what}: the end of the file could not be read exactly.`);
  }
  return records;
}

/** The cells of one record's text, or undefined when the text is not plain RFC 4180 CSV. */
function splitCells(text: string, delimiter: Delimiter): CsvCell[] | undefined {
  const cells: CsvCell[] = [];
  let i = 0;
  for (;;) {
    const start = i;
    let value: string;
    if (text[i] === '"') {
      value = '';
      let j = i + 1;
      for (;;) {
        const quote = text.indexOf('"', j);
        if (quote < 0) return undefined;
        value += text.slice(j, quote);
        if (text[quote + 1] === '"') {
          value += '"';
          j = quote + 2;
          continue;
        }
        i = quote + 1;
        break;
      }
    } else {
      const next = text.indexOf(delimiter, i);
      i = next < 0 ? text.length : next;
      value = text.slice(start, i);
    }
    cells.push({ start, end: i, value });
    if (i === text.length) return cells;
    if (text[i] !== delimiter) return undefined;
    i += 1;
  }
}

/** A record that holds nothing: an empty line (csv-parse gives it one empty cell). */
export function isBlankRecord(record: CsvRecord): boolean {
  return record.cells.length === 1 && record.cells[0].value === '' && record.text === '';
}

/** New cell text by record index, then cell index. */
export type CellEdits = ReadonlyMap<number, ReadonlyMap<number, string>>;

/** The document's bytes with the edited cells replaced by their new raw text and nothing else changed. */
export function writeCsvDocument(doc: CsvDocument, edits: CellEdits): Buffer {
  const parts: Buffer[] = doc.bom ? [UTF8_BOM] : [];
  for (const [index, record] of doc.records.entries()) {
    const recordEdits = edits.get(index);
    if (!recordEdits || recordEdits.size === 0) {
      parts.push(doc.body.subarray(record.byteStart, record.byteEnd));
      continue;
    }
    let text = '';
    let at = 0;
    for (const [cellIndex, cell] of record.cells.entries()) {
      const replacement = recordEdits.get(cellIndex);
      if (replacement === undefined) continue;
      text += record.text.slice(at, cell.start) + replacement;
      at = cell.end;
    }
    text += record.text.slice(at) + record.terminator;
    parts.push(Buffer.from(text, 'utf8'));
  }
  return Buffer.concat(parts);
}

/**
 * A cell as PHP's fputcsv writes it (Moodle's worksheet): quoted when it holds the delimiter, a
 * quote, a backslash, a tab, a space or a line break, with quotes doubled.
 */
export function quoteLikePhp(value: string, delimiter: Delimiter): string {
  return /[ \t\r\n"\\]/.test(value) || value.includes(delimiter) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** A cell as Ruby's CSV writes it (Canvas's export): quoted when it holds the delimiter, a quote or a line break. */
export function quoteLikeRuby(value: string, delimiter: Delimiter): string {
  return /["\r\n]/.test(value) || value.includes(delimiter) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** A number as a person or a platform wrote it ("12.50", "12,5", " 7 "), or undefined. */
export function readDecimal(text: string): number | undefined {
  const compact = text.replace(/\s/g, '');
  if (!/^[+-]?(\d+([.,]\d*)?|[.,]\d+)$/.test(compact)) return undefined;
  return Number(compact.replace(',', '.'));
}

function startsWith(buffer: Buffer, prefix: ArrayLike<number>): boolean {
  if (buffer.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i += 1) if (buffer[i] !== prefix[i]) return false;
  return true;
}

function countLineBreaks(text: string): number {
  return text.match(/\r\n|\n|\r/g)?.length ?? 0;
}
