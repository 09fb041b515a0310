// A property over generated platform downloads, run through kct (main() in-process) against a real sandbox:
// Moodle (folders on or off) and Canvas zips with random student names (accents, emoji, quotes,
// commas; Canvas names with underscores), several files per student (names with underscores),
// online text (blank or not), empty student folders and late work, against a worksheet or
// gradebook holding a random subset of the class and strangers. Every student of the download is
// one row of the csv output, and either has exactly one row in the filled file (with a grade
// Moodle's or Canvas's importer takes exactly when the student was marked) or is listed once in
// the fill report as having no row; the exit code is 10 exactly when the two sides differ (and 2,
// before anything is sent, when no student of the download has a row).
//
// Few runs by default (each is two kct runs); KCT_PROPERTY_RUNS and KCT_PROPERTY_SEED as in
// test/unit/property-runs.ts. Answers come from a small pool, so most of them replay for free.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readAsCanvasImports } from '../../src/platforms/canvas-import-rules.js';
import { readAsMoodleImports } from '../../src/platforms/moodle-import-rules.js';
import { moodleWorksheet, writeCsv } from '../unit/platforms/fixtures.js';
import { propertyRuns, propertySeed } from '../unit/property-runs.js';
import { type ZipPart, zip } from '../unit/zip-writer.js';
import { FIXTURES, parseJson, tempDir, useSandbox } from './harness.js';

const shared = useSandbox();
const essay = readFileSync(join(FIXTURES, 'essay.txt'), 'utf8');
/** One of a few answers: the same text is marked once and replayed after. */
const answer = (pick: number) => Buffer.from(`${essay}\n(answer ${pick})`);
const onlineText = (pick: number) =>
  Buffer.from(
    `<!DOCTYPE html><html><body>${`${essay}\n\n(online ${pick})`
      .split('\n\n')
      .map((p) => `<p>${p}</p>`)
      .join('')}</body></html>`,
  );

type Kind = 'files' | 'text' | 'files+text' | 'blank-text' | 'empty';
interface Student {
  id: number;
  name: string;
  kind: Kind;
  files: { name: string; pick: number }[];
  late: boolean;
  inFile: boolean;
}
interface Download {
  platform: 'moodle' | 'canvas';
  folders: boolean;
  students: Student[];
  strangers: number[];
  utf8Flag: boolean;
}

// Moodle turns '_' in names into spaces, so its names hold none; Canvas keeps word characters (and
// '_'), never "_<digits>_"; letters without l, t, n, o keep "late" and "anon" out of Canvas names
const moodleName = fc
  .string({ unit: fc.constantFrom('A', 'z', 'é', 'Ü', 'ß', 'ø', '李', '😀', ' ', "'", ',', '"', '-', '.'), minLength: 1, maxLength: 12 })
  .filter((name) => name.trim() !== '' && !name.startsWith('.'));
const canvasName = fc
  .array(fc.string({ unit: fc.constantFrom('a', 'b', 'z', 'é', 'ü', 'ß', 'ø', 'k'), minLength: 1, maxLength: 5 }), {
    minLength: 1,
    maxLength: 3,
  })
  .map((parts) => parts.join('_'));
const fileName = fc
  .tuple(
    fc.string({ unit: fc.constantFrom('a', 'B', '_', '1', ' ', '-', 'é'), minLength: 1, maxLength: 10 }),
    fc.constantFrom('', '_v2', '_final'),
  )
  .map(([stem, suffix]) => `${stem}${suffix}.txt`)
  .filter((name) => !name.startsWith(' ') && !name.startsWith('_'));

const download: fc.Arbitrary<Download> = fc
  .record({
    platform: fc.constantFrom<'moodle' | 'canvas'>('moodle', 'canvas'),
    folders: fc.boolean(),
    utf8Flag: fc.boolean(),
    ids: fc.uniqueArray(fc.integer({ min: 1, max: 99_999 }), { minLength: 1, maxLength: 8 }),
    strangerCount: fc.nat(2),
    students: fc.array(
      fc.record({
        moodle: moodleName,
        canvas: canvasName,
        kind: fc.constantFrom<Kind>('files', 'files', 'text', 'files+text', 'blank-text', 'empty'),
        files: fc.uniqueArray(fc.record({ name: fileName, pick: fc.nat(2) }), { selector: (f) => f.name, minLength: 1, maxLength: 3 }),
        late: fc.boolean(),
        inFile: fc.boolean(),
      }),
      { minLength: 8, maxLength: 8 },
    ),
  })
  .map(({ platform, folders, utf8Flag, ids, strangerCount, students }) => {
    const count = Math.max(1, ids.length - strangerCount);
    const class_ = ids.slice(0, count).map((id, i): Student => {
      const s = students[i];
      // Canvas has no empty submission in its zip, nor Moodle with folders off; the first student hands in files, so there is something to mark
      let kind: Kind = i === 0 ? 'files' : s.kind;
      if (platform === 'canvas' && kind === 'empty') kind = 'files';
      if (platform === 'canvas' && kind === 'files+text') kind = 'text';
      if (platform === 'moodle' && !folders && kind === 'empty') kind = 'blank-text';
      return {
        id,
        name: platform === 'moodle' ? s.moodle : s.canvas,
        kind,
        files: s.files,
        late: platform === 'canvas' && s.late,
        inFile: s.inFile,
      };
    });
    return { platform, folders, utf8Flag, students: class_, strangers: ids.slice(count) };
  });

function zipOf({ platform, folders, students, utf8Flag }: Download): Buffer {
  const parts: ZipPart[] = [];
  const flags = utf8Flag ? 0x800 : 0;
  for (const s of students) {
    const hasFiles = s.kind === 'files' || s.kind === 'files+text';
    const hasText = s.kind === 'text' || s.kind === 'files+text' || s.kind === 'blank-text';
    const text = s.kind === 'blank-text' ? Buffer.from('<html><body><p> </p></body></html>') : onlineText(s.files[0].pick);
    if (platform === 'moodle') {
      const prefix = `${s.name}_${s.id}_assignsubmission_`;
      if (s.kind === 'empty') parts.push({ name: `${prefix}file_/`, content: Buffer.alloc(0), stored: true, flags });
      if (hasFiles)
        for (const f of s.files)
          parts.push({ name: folders ? `${prefix}file_/${f.name}` : `${prefix}file_${f.name}`, content: answer(f.pick), flags });
      if (hasText)
        parts.push({
          name: folders ? `${prefix}onlinetext_/onlinetext.html` : `${prefix}onlinetext_onlinetext.html`,
          content: text,
          flags,
        });
    } else {
      const prefix = `${s.name}_${s.late ? 'late_' : ''}${s.id}_`;
      if (hasFiles) s.files.forEach((f, i) => parts.push({ name: `${prefix}${7000 + i}_${f.name}`, content: answer(f.pick), flags }));
      if (hasText) parts.push({ name: `${prefix}text.html`, content: text, flags });
    }
  }
  return zip(parts);
}

function gradeFile({ platform, students, strangers }: Download): Buffer {
  const rows = [
    ...students.filter((s) => s.inFile).map((s) => ({ id: s.id, name: platform === 'moodle' ? s.name : `${s.name}, X` })),
    ...strangers.map((id) => ({ id, name: `Stranger ${id}` })),
  ];
  if (platform === 'moodle') return moodleWorksheet(rows, { eol: '\r\n' }).bytes;
  return writeCsv({
    rows: [
      ['Student', 'ID', 'SIS User ID', 'SIS Login ID', 'Section', 'Essay 1 (1234)'],
      ['    Points Possible', '', '', '', '', '10.00'],
      ...rows.map((r) => [r.name, String(r.id), '', '', 'Y9', '']),
    ],
  }).bytes;
}

interface Entry {
  participantId: string;
  status: string;
}

describe('every student of a generated download is accounted for (property, built kct against the sandbox)', () => {
  it("once in the csv output, and once in the filled file or once among the report's students with no row", async () => {
    await fc.assert(
      fc.asyncProperty(download, async (d) => {
        const dir = tempDir('kct-lms-prop-');
        const zipPath = join(dir, 'submissions.zip');
        const filePath = join(dir, 'grades.csv');
        writeFileSync(zipPath, zipOf(d));
        writeFileSync(filePath, gradeFile(d));
        const fileFlags =
          d.platform === 'moodle' ? ['--moodle-worksheet', filePath] : ['--canvas-gradebook', filePath, '--assignment', 'Essay 1'];
        const mismatch = d.students.some((s) => !s.inFile) || d.strangers.length > 0;

        if (!d.students.some((s) => s.inFile)) {
          // no student of the download has a row: another assignment's file, refused before anything is sent
          const refused = await shared.kct([
            'one-pass',
            zipPath,
            '--model',
            '12',
            ...fileFlags,
            '--grades-out',
            join(dir, 'a.csv'),
            '--output',
            'csv',
          ]);
          expect(refused.code, refused.stderr).toBe(2);
          expect(refused.stderr).toContain(`none of the ${d.students.length} students of ${zipPath} has a row in ${filePath}`);
          expect(existsSync(join(dir, 'a.csv'))).toBe(false);
          return;
        }
        const csv = await shared.kct([
          'one-pass',
          zipPath,
          '--model',
          '12',
          ...fileFlags,
          '--grades-out',
          join(dir, 'a.csv'),
          '--output',
          'csv',
        ]);
        expect(csv.code, csv.stderr).toBe(mismatch ? 10 : 0);
        const rows = parse(csv.stdout, { columns: true }) as Record<string, string>[];
        const ids = rows.map((r) => r.student_id).sort();
        expect(ids).toEqual(d.students.map((s) => String(s.id)).sort());
        for (const s of d.students) {
          const row = rows.find((r) => r.student_id === String(s.id))!;
          expect(row.status).toBe(s.kind === 'empty' || s.kind === 'blank-text' ? 'EMPTY' : 'SUCCESS');
        }

        // the same run again, replayed, for the report as scripts read it
        const json = await shared.kct(['one-pass', zipPath, '--model', '12', ...fileFlags, '--grades-out', join(dir, 'b.csv'), '--json']);
        expect(json.code, json.stderr).toBe(mismatch ? 10 : 0);
        const { import: report } = parseJson<{ import: { entries: Entry[]; studentsMatch: boolean } }>(json.stdout);
        expect(report.studentsMatch).toBe(!mismatch);
        const filledPath = join(dir, 'a.csv');
        const marked = d.students.filter((s) => s.kind !== 'empty' && s.kind !== 'blank-text');
        // nothing filled: no file written (the rows are then as they were)
        const written = marked.some((s) => s.inFile);
        expect([existsSync(filledPath), existsSync(join(dir, 'b.csv'))]).toEqual([written, written]);
        const filled = written ? readFileSync(filledPath) : gradeFile(d);
        if (written) expect(readFileSync(join(dir, 'b.csv')).equals(filled)).toBe(true);
        const imported =
          d.platform === 'moodle'
            ? new Set(readAsMoodleImports(filled, { maxGrade: 100 }).imports.keys())
            : new Set([...readAsCanvasImports(filled, 'Essay 1 (1234)').grades].filter(([, grade]) => grade !== '').map(([id]) => id));
        const fileIds = parse(filled.subarray(filled[0] === 0xef ? 3 : 0), { relax_column_count: true })
          .slice(d.platform === 'moodle' ? 1 : 2)
          .map((r: string[]) => (d.platform === 'moodle' ? r[0].replace('Participant ', '') : r[1]));
        for (const s of d.students) {
          const id = String(s.id);
          const entries = report.entries.filter((e) => e.participantId === id);
          expect(entries, id).toHaveLength(1);
          if (s.inFile) {
            expect(
              fileIds.filter((f: string) => f === id),
              id,
            ).toHaveLength(1);
            expect(entries[0].status).toBe(marked.includes(s) ? 'filled' : 'not-marked');
            expect(imported.has(id), id).toBe(marked.includes(s));
          } else {
            expect(fileIds, id).not.toContain(id);
            expect(entries[0].status).toBe('not-in-file');
          }
        }
        for (const id of d.strangers) expect(report.entries.find((e) => e.participantId === String(id))?.status).toBe('not-marked');
      }),
      { numRuns: propertyRuns(6), seed: propertySeed(2626), endOnFailure: true },
    );
  }, 300_000);
});
