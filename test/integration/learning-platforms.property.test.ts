// A property over generated platform downloads (test/unit/platforms/generated-downloads.ts), run
// through kct (main() in-process) against a real sandbox: Moodle (folders on or off) and Canvas
// zips with random students, files, online text, empty submissions, late work, URL submissions and
// files kct cannot send, against a worksheet or gradebook holding a random subset of the class and
// strangers. The download is marked as a zip and as the folder it unzips to: the same rows, one per
// student (a student with a file kct cannot send is one row), and the folder charges nothing more.
// `kct grades` then fills the grade file from the saved run: every student either has exactly one
// row in the filled file (with a grade Moodle's or Canvas's importer takes exactly when the
// student was marked) or is listed once in the report as having no row; the exit code is 10
// exactly when the two sides differ (and 2, before anything is written, when no student has a row).
//
// Few runs by default (each is three kct runs); KCT_PROPERTY_RUNS and KCT_PROPERTY_SEED as in
// test/unit/property-runs.ts. Answers come from a small pool, so most of them replay for free.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readAsCanvasImports } from '../../src/platforms/canvas-import-rules.js';
import { readAsMoodleImports } from '../../src/platforms/moodle-import-rules.js';
import { unzipTo } from '../unit/platforms/fixtures.js';
import { generatedDownload, gradeFileOf, partsOf, statusOf } from '../unit/platforms/generated-downloads.js';
import { propertyRuns, propertySeed } from '../unit/property-runs.js';
import { zip } from '../unit/zip-writer.js';
import { creditsOf, FIXTURES, parseJson, tempDir, useSandbox } from './harness.js';

const shared = useSandbox();
const essay = readFileSync(join(FIXTURES, 'essay.txt'), 'utf8');
const CONTENTS = {
  /** One of a few answers: the same text is marked once and replayed after. */
  answer: (pick: number) => Buffer.from(`${essay}\n(answer ${pick})`),
  onlineText: (pick: number) =>
    Buffer.from(
      `<!DOCTYPE html><html><body>${`${essay}\n\n(online ${pick})`
        .split('\n\n')
        .map((p) => `<p>${p}</p>`)
        .join('')}</body></html>`,
    ),
};

interface Row {
  file: string;
  student_id: string;
  student_name?: string;
  status: string;
  score?: number | null;
}

interface Entry {
  participantId: string;
  status: string;
  reason?: string;
  detail?: string;
  note?: string;
  download?: { status: string; reason?: string };
}

const ndjson = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((line) => parseJson<Row>(line));

describe('every student of a generated download is accounted for (property, kct against the sandbox)', () => {
  it("zipped or unzipped, one row each; then once in the filled file, or once among the report's students with no row", async () => {
    await fc.assert(
      fc.asyncProperty(generatedDownload, async (d) => {
        const dir = tempDir('kct-lms-prop-');
        const zipPath = join(dir, 'submissions.zip');
        const filePath = join(dir, 'grades.csv');
        const parts = partsOf(d, CONTENTS);
        writeFileSync(zipPath, zip(parts));
        const folder = unzipTo(join(dir, 'submissions'), parts);
        writeFileSync(filePath, gradeFileOf(d));
        const via = d.platform === 'moodle' ? ['grades', 'moodle'] : ['grades', 'canvas'];
        const assignment = d.platform === 'moodle' ? [] : ['--assignment', 'Essay 1'];
        // a row with no submission (a stranger to the download) is a note: only a student with no row is a mismatch
        const mismatch = d.students.some((s) => !s.inFile);

        // marked as a zip, then as the folder it unzips to: the same rows, one per student, nothing charged twice
        const zipped = await shared.kct(['one-pass', zipPath, '--model', '12', '--skip-unsupported', '--output', 'ndjson']);
        expect(zipped.code, zipped.stderr).toBe(0);
        const credits = await creditsOf(shared.kct);
        const unzip = ['one-pass', folder, '--model', '12', '--skip-unsupported', '--output', 'ndjson'];
        let unzipped = await shared.kct(unzip);
        if (unzipped.code === 2 && unzipped.stderr.includes('named as Canvas names the uploads of one student')) {
          // one Canvas student of several files, unzipped: read as the download when asked, never guessed (nothing sent)
          expect(d.platform === 'canvas' && d.students.length === 1, unzipped.stderr).toBe(true);
          expect(await creditsOf(shared.kct)).toBe(credits);
          unzipped = await shared.kct([...unzip, '--group-by', 'student']);
        }
        expect(unzipped.code, unzipped.stderr).toBe(0);
        expect(await creditsOf(shared.kct)).toBe(credits);
        const view = (text: string, input: string) =>
          ndjson(text)
            .map((r) => [r.file.replace(input, '<download>'), r.student_id, r.student_name, r.status, r.score])
            .sort((a, b) => String(a[1]).localeCompare(String(b[1])));
        expect(view(unzipped.stdout, folder)).toEqual(view(zipped.stdout, zipPath));
        const rows = ndjson(zipped.stdout);
        expect(rows.map((r) => r.student_id).sort()).toEqual(d.students.map((s) => String(s.id)).sort());
        for (const s of d.students) expect(rows.find((r) => r.student_id === String(s.id))!.status, s.kind).toBe(statusOf(s));
        const saved = join(dir, 'marks.ndjson');
        writeFileSync(saved, zipped.stdout);

        if (!d.students.some((s) => s.inFile)) {
          // no student of the run has a row: another assignment's file, refused before anything is written
          const refused = await shared.kct([...via, saved, filePath, ...assignment, '--grades-out', join(dir, 'a.csv')]);
          expect(refused.code, refused.stderr).toBe(2);
          expect(refused.stderr).toContain(`none of the ${d.students.length} students of ${saved} has a row in ${filePath}`);
          expect(existsSync(join(dir, 'a.csv'))).toBe(false);
          return;
        }
        const words = await shared.kct([...via, saved, filePath, ...assignment, '--grades-out', join(dir, 'a.csv'), '--output', 'csv']);
        expect(words.code, words.stderr).toBe(mismatch ? 10 : 0);
        const entries = parse(words.stdout, { columns: true }) as Record<string, string>[];
        const json = await shared.kct([...via, saved, filePath, ...assignment, '--grades-out', join(dir, 'b.csv'), '--json']);
        expect(json.code, json.stderr).toBe(mismatch ? 10 : 0);
        const report = parseJson<{ entries: Entry[]; studentsMatch: boolean }>(json.stdout);
        expect(report.studentsMatch).toBe(!mismatch);
        // CSV and --json say the same of each row, why included: a row left as it was says why in both
        expect(entries.map((e) => [e.participant_id, e.status, e.reason, e.detail, e.run_status, e.run_reason, e.note])).toEqual(
          report.entries.map((e) => [
            e.participantId,
            e.status,
            e.reason ?? '',
            e.detail ?? '',
            e.download?.status ?? '',
            e.download?.reason ?? '',
            e.note ?? '',
          ]),
        );
        for (const e of entries.filter((entry) => entry.status === 'not-marked'))
          expect(e.detail || e.run_status, `${e.participant_id}: why not marked`).not.toBe('');
        const filledPath = join(dir, 'a.csv');
        const marked = d.students.filter((s) => statusOf(s) === 'SUCCESS');
        // nothing filled: no file written (the rows are then as they were)
        const written = marked.some((s) => s.inFile);
        expect([existsSync(filledPath), existsSync(join(dir, 'b.csv'))]).toEqual([written, written]);
        const filled = written ? readFileSync(filledPath) : gradeFileOf(d);
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
          const mine = report.entries.filter((e) => e.participantId === id);
          expect(mine, id).toHaveLength(1);
          if (s.inFile) {
            expect(
              fileIds.filter((f: string) => f === id),
              id,
            ).toHaveLength(1);
            expect(mine[0].status).toBe(marked.includes(s) ? 'filled' : 'not-marked');
            expect(imported.has(id), id).toBe(marked.includes(s));
          } else {
            expect(fileIds, id).not.toContain(id);
            expect(mine[0].status).toBe('not-in-file');
          }
        }
        for (const id of d.strangers) expect(report.entries.find((e) => e.participantId === String(id))?.status).toBe('not-marked');
      }),
      { numRuns: propertyRuns(6), seed: propertySeed(2626), endOnFailure: true },
    );
  }, 300_000);
});
