import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { UsageError } from '../../../src/api/errors.js';
import { quoteLikePhp, quoteLikeRuby, readCsvDocument, readDecimal, writeCsvDocument } from '../../../src/platforms/csv-document.js';
import { minimalCell, PROPERTY_SETTINGS, phpCell, writeCsv } from './fixtures.js';

describe('readCsvDocument', () => {
  test('finds each record, its line ending and each cell, with quoted line breaks and a last line without ending', () => {
    const body = 'a,"b ""x"", y",c\r\n\r\n"multi\r\nline",2,\r\nlast,row';
    const doc = readCsvDocument(Buffer.from(body), { delimiter: ',', what: 'the file' });
    expect(doc.bom).toBe(false);
    expect(doc.eol).toBe('\r\n');
    expect(doc.records.map((r) => [r.line, r.terminator, r.cells.map((c) => c.value)])).toEqual([
      [1, '\r\n', ['a', 'b "x", y', 'c']],
      [2, '\r\n', ['']],
      [3, '\r\n', ['multi\r\nline', '2', '']],
      [5, '', ['last', 'row']],
    ]);
    const first = doc.records[0];
    expect(first.cells.map((c) => first.text.slice(c.start, c.end))).toEqual(['a', '"b ""x"", y"', 'c']);
  });

  test('keeps the BOM, and writes the same bytes back when nothing is edited', () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('Grade,Nom\n12,"Éloïse, ""Zoé"""\n', 'utf8')]);
    const doc = readCsvDocument(bytes, { delimiter: ',', what: 'the file' });
    expect(doc.bom).toBe(true);
    expect(doc.records[1].cells[1].value).toBe('Éloïse, "Zoé"');
    expect(writeCsvDocument(doc, new Map()).equals(bytes)).toBe(true);
  });

  test('replaces only the edited cell, keeping the quoting of the others', () => {
    const bytes = Buffer.from('"Participant 1","A B",,x\n"Participant 2","C D",,y\n');
    const doc = readCsvDocument(bytes, { delimiter: ',', what: 'the file' });
    const out = writeCsvDocument(doc, new Map([[1, new Map([[2, '17.50']])]]));
    expect(out.toString()).toBe('"Participant 1","A B",,x\n"Participant 2","C D",17.50,y\n');
  });

  test('chooses ";" as Canvas does when it gives more, consistent fields', () => {
    expect(readCsvDocument(Buffer.from('Student;ID;Section\nA, B;1;S\n'), { delimiter: 'auto', what: 'f' }).delimiter).toBe(';');
    expect(readCsvDocument(Buffer.from('Student,ID,Section\n"A; B",1,S\n'), { delimiter: 'auto', what: 'f' }).delimiter).toBe(',');
  });

  test('refuses what it cannot read exactly, with a UsageError that says why', () => {
    const read = (bytes: Buffer) => () => readCsvDocument(bytes, { delimiter: ',', what: 'The worksheet' });
    expect(read(Buffer.from([0x47, 0x72, 0xe9, 0x0a]))).toThrow(/not UTF-8/);
    expect(read(Buffer.from([0xff, 0xfe, 0x41, 0x00]))).toThrow(/UTF-16/);
    expect(read(Buffer.from('a,"b\n'))).toThrow(UsageError);
    expect(read(Buffer.from('a,"b"c\n'))).toThrow(/not valid CSV/);
  });
});

describe('cell quoting as each platform writes it', () => {
  test('PHP fputcsv quotes spaces, tabs, backslashes, quotes, commas and line breaks; Ruby only what it must', () => {
    expect(quoteLikePhp('85.00', ',')).toBe('85.00');
    expect(quoteLikePhp('Full name', ',')).toBe('"Full name"');
    expect(quoteLikePhp('<p>a "b"</p>', ',')).toBe('"<p>a ""b""</p>"');
    expect(quoteLikePhp('a\\b', ',')).toBe('"a\\b"');
    expect(quoteLikeRuby('Full name', ',')).toBe('Full name');
    expect(quoteLikeRuby('8,5', ';')).toBe('8,5');
    expect(quoteLikeRuby('a;b', ';')).toBe('"a;b"');
  });

  test('readDecimal reads what people and platforms write, and nothing else', () => {
    expect([readDecimal('100.00'), readDecimal(' 7,5 '), readDecimal('20'), readDecimal('.5')]).toEqual([100, 7.5, 20, 0.5]);
    expect([readDecimal(''), readDecimal('-'), readDecimal('N/A'), readDecimal('1.2.3'), readDecimal('(read only)')]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});

const cellValue = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: fc.constantFrom('a', 'é', ',', ';', '"', ' ', '\n', '\r\n', '\\', '1', '.', '😀'), maxLength: 10 }),
);

describe('properties', () => {
  test("any CSV a platform could write reads back to csv-parse's values and writes back byte for byte", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(cellValue, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        fc.constantFrom<'\n' | '\r\n'>('\n', '\r\n'),
        fc.constantFrom<',' | ';'>(',', ';'),
        fc.boolean(),
        fc.boolean(),
        (rows, bom, eol, delimiter, php, finalEol) => {
          const quote = php
            ? (v: string) => (v.includes(';') ? `"${v.replaceAll('"', '""')}"` : phpCell(v))
            : (v: string) => minimalCell(v, delimiter);
          // a lone empty cell is an empty line, which a platform never writes as a record
          const safeRows = rows.map((r) => (r.length === 1 && r[0] === '' ? ['x'] : r));
          const { bytes } = writeCsv({ rows: safeRows, bom, eol, delimiter, quote, finalEol });
          const doc = readCsvDocument(bytes, { delimiter, what: 'f' });
          expect(doc.records.map((r) => r.cells.map((c) => c.value))).toEqual(
            parse(bytes.subarray(bom ? 3 : 0), { delimiter, relax_column_count: true, record_delimiter: ['\r\n', '\n', '\r'] }),
          );
          expect(doc.records.map((r) => r.cells.map((c) => c.value))).toEqual(safeRows);
          expect(writeCsvDocument(doc, new Map()).equals(bytes)).toBe(true);
        },
      ),
      PROPERTY_SETTINGS,
    );
  });
});
