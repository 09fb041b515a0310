// Platform files written the way the platforms write them, by code that shares nothing with
// src/platforms: Moodle's worksheet as PHP's fputcsv quotes it, Canvas's export as Ruby's CSV does.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { propertyRuns, propertySeed } from '../property-runs.js';
import { type ZipPart, zip } from '../zip-writer.js';

/** Seeded, shrinking property runs (property-runs.ts): KCT_PROPERTY_SEED replays a run, KCT_PROPERTY_RUNS raises the count. */
export const PROPERTY_SETTINGS = { seed: propertySeed(26_026), numRuns: propertyRuns(100) };

/** PHP fputcsv: quoted when the value holds a comma, quote, backslash, space, tab or line break. */
export const phpCell = (value: string): string => (/[ \t\r\n",\\]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);
/** Ruby CSV (and most spreadsheets): quoted only when it must be. */
export const minimalCell = (value: string, delimiter = ','): string =>
  /["\r\n]/.test(value) || value.includes(delimiter) ? `"${value.replaceAll('"', '""')}"` : value;

export interface CsvSpec {
  rows: string[][];
  bom?: boolean;
  eol?: '\r\n' | '\n';
  delimiter?: ',' | ';';
  quote?: (value: string) => string;
  /** End the last record with a line ending too (default true, as both platforms do). */
  finalEol?: boolean;
}

/** The file's bytes and each record's exact text (with its line ending). */
export function writeCsv(spec: CsvSpec): { bytes: Buffer; records: string[] } {
  const eol = spec.eol ?? '\n';
  const delimiter = spec.delimiter ?? ',';
  const quote = spec.quote ?? ((v: string) => minimalCell(v, delimiter));
  const records = spec.rows.map(
    (row, i) => row.map(quote).join(delimiter) + (i < spec.rows.length - 1 || spec.finalEol !== false ? eol : ''),
  );
  const body = Buffer.from(records.join(''), 'utf8');
  return { bytes: spec.bom ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]) : body, records };
}

/** The columns of a worksheet downloaded with online text and feedback comments on (gradingtable.php order). */
export const MOODLE_HEADER = [
  'Identifier',
  'Full name',
  'Email address',
  'Status',
  'Grade',
  'Maximum Grade',
  'Grade can be changed',
  'Last modified (submission)',
  'Online text',
  'Last modified (grade)',
  'Feedback comments',
];

export interface MoodleRow {
  id: number;
  name: string;
  grade?: string;
  max?: string;
  canChange?: 'Yes' | 'No';
  modified?: string;
  feedback?: string;
  /** The Status cell (default: submitted, graded when there is a grade). */
  status?: string;
}

/** One worksheet row under `header`, as Moodle would fill it. */
export function moodleRow(header: string[], row: MoodleRow): string[] {
  const values: Record<string, string> = {
    Identifier: `Participant ${row.id}`,
    'Full name': row.name,
    'Email address': `student${row.id}@example.org`,
    Status: row.status ?? (row.grade ? 'Submitted for grading - Graded' : 'Submitted for grading'),
    Grade: row.grade ?? '',
    'Maximum Grade': row.max ?? '100.00',
    'Grade can be changed': row.canChange ?? 'Yes',
    'Last modified (submission)': 'Monday, 3 March 2025, 10:15 AM',
    'Online text': '',
    'Last modified (grade)': row.modified ?? (row.grade ? 'Tuesday, 4 March 2025, 9:00 AM' : '-'),
    'Feedback comments': row.feedback ?? '',
  };
  return header.map((column) => values[column] ?? `extra ${row.id}`);
}

/** A worksheet as Moodle downloads it: PHP quoting, "\n", with a BOM (Spout's CSV writer adds one). */
export function moodleWorksheet(rows: MoodleRow[], options: { header?: string[]; bom?: boolean; eol?: '\r\n' | '\n' } = {}) {
  const header = options.header ?? MOODLE_HEADER;
  return writeCsv({
    rows: [header, ...rows.map((r) => moodleRow(header, r))],
    bom: options.bom ?? true,
    eol: options.eol ?? '\n',
    quote: phpCell,
  });
}

/** A folder the test owns, removed by the returned function. */
export function scratchDir(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `kct-test-${prefix}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Writes a zip of `parts` into `dir` and returns its path. */
export function writeZip(dir: string, name: string, parts: ZipPart[]): string {
  const path = join(dir, name);
  writeFileSync(path, zip(parts));
  return path;
}

export const text = (s: string): Buffer => Buffer.from(s, 'utf8');

/** Each cell's raw text (quotes kept) in one record's text: a character-by-character reading, for comparing bytes. */
export function rawCells(record: string, delimiter = ','): string[] {
  const cells: string[] = [];
  let current = '';
  let quoted = false;
  for (const char of record) {
    if (char === '"') quoted = !quoted;
    if (char === delimiter && !quoted) {
      cells.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  cells.push(current);
  return cells;
}

/** Each record's text without its line ending, split where csv-parse says records end (so no module code is involved). */
export function recordTexts(bytes: Buffer, delimiter = ','): string[] {
  const body = bytes.subarray(bytes[0] === 0xef && bytes[1] === 0xbb ? 3 : 0);
  const parsed = parseCsv(body, { delimiter, info: true, relax_column_count: true, record_delimiter: ['\r\n', '\n', '\r'] }) as unknown as {
    info: { bytes: number };
  }[];
  return parsed.map((r, i) =>
    body
      .subarray(i === 0 ? 0 : parsed[i - 1].info.bytes, r.info.bytes)
      .toString('utf8')
      .replace(/(\r\n|\n|\r)$/, ''),
  );
}

/** A zip's parts written as the folder it unzips to (a part ending with "/" is a folder): the download unzipped. */
export function unzipTo(dir: string, parts: ZipPart[]): string {
  mkdirSync(dir, { recursive: true });
  for (const part of parts) {
    const path = join(dir, part.name);
    if (part.name.endsWith('/')) {
      mkdirSync(path, { recursive: true });
      continue;
    }
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, part.content);
  }
  return dir;
}
