// Generated Moodle and Canvas downloads, for the properties over downloads (the collection's, in
// test/unit/collection-accounts-for-every-path.test.ts, and the round trip's against a sandbox, in
// test/integration/learning-platforms.property.test.ts): Moodle (folders on or off) and Canvas
// names with random students (accents, emoji, quotes, commas; Canvas names with underscores),
// several files per student (names with underscores), online text (blank or not), empty student
// folders, late work, URL submissions, files kct cannot send (beside good ones, or alone), and a
// grade file holding a random subset of the class and strangers.
import fc from 'fast-check';
import type { ZipPart } from '../zip-writer.js';
import { moodleWorksheet, writeCsv } from './fixtures.js';

/** What a student handed in: files, online text, both, a blank text, nothing, a file kct cannot send (alone or beside files), a URL. */
/** `system-only`: a Moodle folder holding a system file only (Thumbs.db), with no entry for the folder itself. */
export type Kind = 'files' | 'text' | 'files+text' | 'blank-text' | 'empty' | 'system-only' | 'bad' | 'files+bad' | 'link';

export interface Student {
  id: number;
  name: string;
  kind: Kind;
  files: { name: string; pick: number }[];
  late: boolean;
  /** The student has a row in the grade file. */
  inFile: boolean;
}

export interface GeneratedDownload {
  platform: 'moodle' | 'canvas';
  folders: boolean;
  students: Student[];
  /** Rows of the grade file that are no student of the download. */
  strangers: number[];
  utf8Flag: boolean;
}

/** The status of a student's one row, when files kct cannot send are skipped (--skip-unsupported). */
export function statusOf(student: Student): 'SUCCESS' | 'EMPTY' | 'SKIPPED' {
  if (student.kind === 'empty' || student.kind === 'blank-text' || student.kind === 'system-only') return 'EMPTY';
  if (student.kind === 'bad' || student.kind === 'link') return 'SKIPPED';
  return 'SUCCESS';
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

export const generatedDownload: fc.Arbitrary<GeneratedDownload> = fc
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
        kind: fc.constantFrom<Kind>(
          'files',
          'files',
          'text',
          'files+text',
          'blank-text',
          'empty',
          'system-only',
          'bad',
          'files+bad',
          'link',
        ),
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
      // Canvas has no empty submission in its zip, nor Moodle with folders off; Moodle has no URL
      // submission; the first student hands in files, so there is something to mark
      let kind: Kind = i === 0 ? 'files' : s.kind;
      if (platform === 'canvas' && (kind === 'empty' || kind === 'system-only')) kind = 'files';
      if (platform === 'moodle' && !folders && kind === 'system-only') kind = 'files';
      if (platform === 'canvas' && kind === 'files+text') kind = 'text';
      if (platform === 'moodle' && kind === 'link') kind = 'bad';
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

/** What the files hold: an answer (one of a few, so most are marked once and replayed after), and online text. */
export interface Contents {
  answer(pick: number): Buffer;
  onlineText(pick: number): Buffer;
}

/**
 * A text entry as Canvas writes it (app/views/assignments/text_entry_page.html.erb): the assignment
 * and the student's name as the title and a heading, the student's HTML in a box.
 */
export function canvasTextPage(assignment: string, name: string, body: string): string {
  const heading = `${escapeHtml(assignment)}: ${escapeHtml(name)}`;
  return `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN"
        "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml">
<head>
  <meta http-equiv="Content-Type" content="text/html;charset=utf-8" />
  <title>${heading}</title>
</head>
<body>
<h1>${heading}</h1>
<div style="width: 600px; margin: 20px auto; border: 1px solid #888; padding: 20px;">
  ${body}
</div>
</body>
</html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** The download as the platform names its entries (a folder part ends with "/"); zip it, or write it as the folder it unzips to. */
export function partsOf({ platform, folders, students, utf8Flag }: GeneratedDownload, contents: Contents): ZipPart[] {
  const parts: ZipPart[] = [];
  const flags = utf8Flag ? 0x800 : 0;
  const bad = Buffer.from('PK an OpenDocument text kct cannot send');
  for (const s of students) {
    const hasFiles = s.kind === 'files' || s.kind === 'files+text' || s.kind === 'files+bad';
    const hasText = s.kind === 'text' || s.kind === 'files+text' || s.kind === 'blank-text';
    const hasBad = s.kind === 'bad' || s.kind === 'files+bad';
    const text = s.kind === 'blank-text' ? Buffer.from('<html><body><p> </p></body></html>') : contents.onlineText(s.files[0].pick);
    if (platform === 'moodle') {
      const prefix = `${s.name}_${s.id}_assignsubmission_`;
      const file = (name: string) => (folders ? `${prefix}file_/${name}` : `${prefix}file_${name}`);
      if (s.kind === 'empty') parts.push({ name: `${prefix}file_/`, content: Buffer.alloc(0), stored: true, flags });
      if (s.kind === 'system-only') parts.push({ name: `${prefix}file_/Thumbs.db`, content: Buffer.from('thumbnail cache'), flags });
      if (hasFiles) for (const f of s.files) parts.push({ name: file(f.name), content: contents.answer(f.pick), flags });
      if (hasBad) parts.push({ name: file('scan.odt'), content: bad, flags });
      if (hasText)
        parts.push({
          name: folders ? `${prefix}onlinetext_/onlinetext.html` : `${prefix}onlinetext_onlinetext.html`,
          content: text,
          flags,
        });
    } else {
      const prefix = `${s.name}_${s.late ? 'late_' : ''}${s.id}_`;
      if (hasFiles)
        s.files.forEach((f, i) => parts.push({ name: `${prefix}${7000 + i}_${f.name}`, content: contents.answer(f.pick), flags }));
      if (hasBad) parts.push({ name: `${prefix}7100_scan.odt`, content: bad, flags });
      // Canvas's page names the assignment and the student: none of it is the answer
      const page = canvasTextPage('Persuasive essay: uniforms', `${s.name} Student`, innerBody(text.toString('utf8')));
      if (hasText) parts.push({ name: `${prefix}text.html`, content: Buffer.from(page), flags });
      if (s.kind === 'link')
        parts.push({
          name: `${prefix}link.html`,
          content: Buffer.from('<html><body><a href="https://example.org/e">e</a></body></html>'),
          flags,
        });
    }
  }
  return parts;
}

/** What is inside an HTML page's body (all of it when it has none). */
function innerBody(html: string): string {
  return /<body\b[^>]*>([\s\S]*)<\/body>/i.exec(html)?.[1] ?? html;
}

/** The platform's grade file for the download: a worksheet or a gradebook with the students `inFile`, and the strangers. */
export function gradeFileOf({ platform, students, strangers }: GeneratedDownload): Buffer {
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
