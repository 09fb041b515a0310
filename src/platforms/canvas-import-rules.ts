// What Canvas's gradebook importer would read from an export, following lib/gradebook_importer.rb
// (instructure/canvas-lms): the separator from the first three lines (identify_delimiter), lines
// of only separators skipped, ',' decimals made '.', the header checked for Student and ID, the
// "Points Possible" and "Manual Posting" rows set aside, students keyed by the ID column.
//
// It shares no code with the writer on purpose: tests use it as the oracle that a filled export
// imports as intended. What needs Canvas itself (which grades changed, who is enrolled) is left out.
import { parse } from 'csv-parse/sync';

export interface CanvasImportResult {
  /** The assignment column's Points Possible cell, as the importer reads it. */
  pointsPossible?: string;
  /** The grade cell of every student row, by Canvas user id, as the importer reads it. */
  grades: Map<string, string>;
}

/** The column `header` of every student row Canvas would read from `bytes`; throws when Canvas would refuse the file. */
export function readAsCanvasImports(bytes: Uint8Array, header: string): CanvasImportResult {
  const text = Buffer.from(bytes).toString('utf8');
  // csv.readline up to three times: a line keeps its "\n", and there is no empty line after the last
  const separator = identifyDelimiter((text.match(/[^\n]*\n|[^\n]+$/g) ?? []).slice(0, 3));
  const rows = (parse(text, { delimiter: separator, relax_column_count: true, skip_empty_lines: false }) as string[][])
    .filter((row) => !/^[;, ]+$/.test(row.join(separator)) && !(row.length === 1 && row[0] === ''))
    .map((row) => row.map(decimalCommaToPeriod));
  const head = rows[0] ?? [];
  const firstLast = head.length > 4 && head[0].includes('LastName') && head[1].includes('FirstName') && head[2].includes('ID');
  if (!firstLast && !(head.length > 3 && head[0].includes('Student') && head[1].includes('ID'))) {
    throw new Error('Invalid header row');
  }
  const column = head.indexOf(header);
  const result: CanvasImportResult = { grades: new Map() };
  for (const row of rows.slice(1)) {
    if (row[0]?.includes('Points Possible')) {
      result.pointsPossible = row[column];
      continue;
    }
    if (row.every((cell) => /^\s*(Muted|Manual Posting.*)?\s*$/i.test(cell))) continue;
    const id = firstLast ? row[2] : row[1];
    result.grades.set(id, (row[column] ?? '').trim());
  }
  return result;
}

function identifyDelimiter(lines: string[]): ';' | ',' {
  const fields = (separator: string): number => {
    try {
      const counts = lines.map((line) => (parse(line, { delimiter: separator, relax_column_count: true }) as string[][])[0]?.length ?? 0);
      return new Set(counts).size === 1 ? counts[0] : 0;
    } catch {
      return 0;
    }
  };
  return fields(';') > fields(',') ? ';' : ',';
}

/** CSV::Converters[:decimal_comma_to_period]: a pure number's last ',' or '.' is the decimal point. */
function decimalCommaToPeriod(field: string): string {
  if (!/^-?[0-9.,]+%?$/.test(field)) return field;
  const parts = field.split(/[,.]/);
  const last = parts.pop()!;
  return parts.length === 0 ? last : `${parts.join('')}.${last}`;
}
