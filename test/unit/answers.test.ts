// The answer-collection rules, as a table: an input tree and the flags in; for every path found,
// (answer, identity, student_id, action, reason) out, plus the shape and the notes for stderr.
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/api/errors.js';
import { type AnswerSources, collectAnswers, skippedFilesNote } from '../../src/cli/answers/answers.js';
import { downloadInput, FolderLooks, openDownload } from '../../src/cli/answers/download.js';
import { checkLookalike, downloadWithin } from '../../src/cli/answers/download-lookalikes.js';
import { asNamed } from './answer-bytes.js';
import { quietIO } from './quiet-io.js';
import { zip } from './zip-writer.js';

const io = quietIO();

const TEXT = 'An answer about school uniforms.';

/** A tree: path -> content ('' makes an empty file). */
function makeTree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'kct-collect-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), asNamed(path, content));
  }
  return root;
}

type Row = [path: string, action: string, answer?: string, identity?: string, studentId?: string, reason?: string];

async function rows(root: string, inputs: string[], options: Omit<AnswerSources, 'inputs'> = {}) {
  const cwd = process.cwd();
  process.chdir(root); // paths in the table are relative to the tree
  try {
    const collection = await collectAnswers({ studentIdFrom: 'name', ...options, inputs }, io, { explain: true });
    const rel = (path?: string) => (path === undefined ? undefined : relative(root, join(root, path)) || path);
    const table: Row[] = collection.entries.map((e) => [rel(e.path)!, e.action, rel(e.answer), e.keyName, e.studentId, e.reason]);
    return { table: table.map((row) => row.slice(0, lastDefined(row) + 1)), collection };
  } finally {
    process.chdir(cwd);
  }
}

function lastDefined(row: unknown[]): number {
  let last = 0;
  row.forEach((value, index) => {
    if (value !== undefined) last = index;
  });
  return last;
}

const CLASS = {
  'answers/a1.txt': TEXT,
  'answers/a2.txt': `${TEXT} 2`,
  'answers/README.md': '# notes',
  'answers/.DS_Store': 'x',
  'answers/Thumbs.db': 'x',
  'answers/~$a2.docx': 'lock',
  'answers/late/a3.txt': `${TEXT} 3`,
};

// The rows the CLASS folder gives (path order), named once for the cases that list it.
const [dsStore, lockFile, a1, a2, readme, thumbs]: Row[] = [
  ['answers/.DS_Store', 'ignore', undefined, undefined, undefined, 'hidden file'],
  ['answers/~$a2.docx', 'ignore', undefined, undefined, undefined, 'system file'],
  ['answers/a1.txt', 'send', 'answers/a1.txt', 'a1.txt', 'a1'],
  ['answers/a2.txt', 'send', 'answers/a2.txt', 'a2.txt', 'a2'],
  ['answers/README.md', 'ignore', undefined, undefined, undefined, 'Markdown (name it to send it)'],
  ['answers/Thumbs.db', 'ignore', undefined, undefined, undefined, 'system file'],
];

describe('collecting answers', () => {
  const cases: {
    name: string;
    tree: Record<string, string>;
    inputs: string[];
    options?: Omit<AnswerSources, 'inputs'>;
    expected: Row[];
    shape?: 'record' | 'list';
    notes?: RegExp[];
  }[] = [
    {
      name: 'a folder: its answer files; hidden, system and Markdown files ignored; a subfolder not entered, and said so',
      tree: CLASS,
      inputs: ['answers'],
      expected: [
        dsStore,
        lockFile,
        a1,
        a2,
        [
          'answers/late',
          'not-entered',
          'answers/late',
          'late',
          undefined,
          'subfolder not entered: pass --recursive to mark the answers in it (or --exclude "late" to leave it out)',
        ],
        readme,
        thumbs,
      ],
      shape: 'list',
      notes: [
        /^ignored: 4 files \(\.DS_Store, ~\$a2\.docx, README\.md, Thumbs\.db\)/,
        /^not entered: 1 subfolder \(late\/\); pass --recursive/,
      ],
    },
    {
      name: '--recursive: subfolders too, identities relative to the folder',
      tree: CLASS,
      inputs: ['answers'],
      options: { recursive: true },
      expected: [dsStore, lockFile, a1, a2, readme, thumbs, ['answers/late/a3.txt', 'send', 'answers/late/a3.txt', 'late/a3.txt', 'a3']],
    },
    {
      name: '--exclude: a folder by name and a pattern at any depth',
      tree: { ...CLASS, 'answers/late/draft.docx': 'x', 'answers/b.docx': 'x' },
      inputs: ['answers'],
      options: { recursive: true, exclude: ['late', '*.docx'] },
      expected: [
        dsStore,
        lockFile,
        a1,
        a2,
        ['answers/b.docx', 'exclude', undefined, undefined, undefined, 'matched --exclude'],
        ['answers/late', 'exclude', undefined, undefined, undefined, 'matched --exclude'],
        readme,
        thumbs,
      ],
      notes: [/^excluded by --exclude: 2 paths \(b\.docx, late\)/],
    },
    {
      name: '--skip-unsupported: unsupported, empty and oversized files become SKIPPED rows; the rest is sent',
      tree: { 'answers/a1.txt': TEXT, 'answers/answer.odt': 'x', 'answers/answer.exe': 'x', 'answers/empty.txt': '' },
      inputs: ['answers'],
      options: { skipUnsupported: true },
      expected: [
        ['answers/a1.txt', 'send', 'answers/a1.txt', 'a1.txt', 'a1'],
        ['answers/answer.exe', 'skip', 'answers/answer.exe', 'answer.exe', 'answer', 'unsupported'],
        ['answers/answer.odt', 'skip', 'answers/answer.odt', 'answer.odt', 'answer', 'unsupported'],
        ['answers/empty.txt', 'skip', 'answers/empty.txt', 'empty.txt', 'empty', 'empty'],
      ],
      notes: [/^skipping 3 files .* that cannot be sent/, /several answers share a student id|^skipping/],
    },
    {
      name: 'a Moodle export: --recursive --student-id-from folder, the student id from the first folder level',
      tree: {
        'export/Jane Doe_1234_assignsubmission_file_/essay.pdf': '%PDF-1.4 jane',
        'export/Omar Ali_1240_assignsubmission_file_/my essay.docx': 'PK docx',
        'export/Omar Ali_1240_assignsubmission_file_/notes/plan.txt': 'plan',
      },
      inputs: ['export'],
      options: { recursive: true, studentIdFrom: 'folder' },
      expected: [
        [
          'export/Jane Doe_1234_assignsubmission_file_/essay.pdf',
          'send',
          'export/Jane Doe_1234_assignsubmission_file_/essay.pdf',
          'Jane Doe_1234_assignsubmission_file_/essay.pdf',
          'Jane Doe_1234',
        ],
        [
          'export/Omar Ali_1240_assignsubmission_file_/my essay.docx',
          'send',
          'export/Omar Ali_1240_assignsubmission_file_/my essay.docx',
          'Omar Ali_1240_assignsubmission_file_/my essay.docx',
          'Omar Ali_1240',
        ],
        [
          'export/Omar Ali_1240_assignsubmission_file_/notes/plan.txt',
          'send',
          'export/Omar Ali_1240_assignsubmission_file_/notes/plan.txt',
          'Omar Ali_1240_assignsubmission_file_/notes/plan.txt',
          'Omar Ali_1240',
        ],
      ],
      notes: [
        /several answers share a student id \("Omar Ali_1240" 2 times\); each first-level folder is taken for one student: if each holds one student's pages, add --group-by folder/,
      ],
    },
    {
      name: "--group-by folder: a student folder's files are the pages of one answer (in name order); loose files stay answers",
      tree: {
        'export/Jane Doe_1234_assignsubmission_file_/page 10.png': 'png',
        'export/Jane Doe_1234_assignsubmission_file_/page 2.png': 'png',
        'export/Omar Ali_1240_assignsubmission_file_/essay.pdf': '%PDF',
        'export/loose.txt': TEXT,
      },
      inputs: ['export'],
      options: { groupBy: 'folder', studentIdFrom: 'folder' },
      expected: [
        ['export/loose.txt', 'send', 'export/loose.txt', 'loose.txt', 'loose'],
        [
          'export/Jane Doe_1234_assignsubmission_file_/page 2.png',
          'send',
          'export/Jane Doe_1234_assignsubmission_file_',
          'Jane Doe_1234_assignsubmission_file_',
          'Jane Doe_1234',
        ],
        [
          'export/Jane Doe_1234_assignsubmission_file_/page 10.png',
          'send',
          'export/Jane Doe_1234_assignsubmission_file_',
          'Jane Doe_1234_assignsubmission_file_',
          'Jane Doe_1234',
        ],
        [
          'export/Omar Ali_1240_assignsubmission_file_/essay.pdf',
          'send',
          'export/Omar Ali_1240_assignsubmission_file_',
          'Omar Ali_1240_assignsubmission_file_',
          'Omar Ali_1240',
        ],
      ],
    },
    {
      name: 'the same file named twice, and reached through its folder: marked once, and said so',
      tree: { 'answers/a1.txt': TEXT, 'answers/a2.txt': `${TEXT} 2` },
      inputs: ['answers/a1.txt', 'answers', './answers/a1.txt'],
      expected: [
        ['answers/a1.txt', 'send', 'answers/a1.txt', 'answers/a1.txt', 'a1'],
        ['answers/a1.txt', 'duplicate', undefined, undefined, undefined, 'the same file as answers/a1.txt'],
        ['answers/a2.txt', 'send', 'answers/a2.txt', 'a2.txt', 'a2'],
        ['answers/a1.txt', 'duplicate', undefined, undefined, undefined, 'the same file as answers/a1.txt'],
      ],
      notes: [/is the same file as answers\/a1\.txt: it is marked once/],
    },
    {
      name: 'two folders holding the same names: identities told apart by their paths',
      tree: { 'p1/a.txt': TEXT, 'p2/a.txt': `${TEXT} 2` },
      inputs: ['p1', 'p2'],
      expected: [
        ['p1/a.txt', 'send', 'p1/a.txt', 'p1/a.txt', 'a'],
        ['p2/a.txt', 'send', 'p2/a.txt', 'p2/a.txt', 'a'],
      ],
    },
    {
      name: "a glob the shell did not expand: its matches, like a folder's files",
      tree: { 'answers/a1.txt': TEXT, 'answers/a2.txt': `${TEXT} 2`, 'answers/b.pdf': '%PDF', 'answers/c.md': '# x' },
      inputs: ['answers/a*.txt'],
      expected: [
        ['answers/a1.txt', 'send', 'answers/a1.txt', 'answers/a1.txt', 'a1'],
        ['answers/a2.txt', 'send', 'answers/a2.txt', 'answers/a2.txt', 'a2'],
      ],
      shape: 'list',
    },
    {
      name: 'a Markdown or hidden file named directly is sent; one named file is a record',
      tree: { 'answer.md': '# My essay' },
      inputs: ['answer.md'],
      expected: [['answer.md', 'send', 'answer.md', 'answer.md', 'answer']],
      shape: 'record',
    },
    {
      name: '--pages: the named files are one answer, identified by its first page',
      tree: { 'p1.png': 'png', 'p2.png': 'png' },
      inputs: ['p1.png', 'p2.png'],
      options: { pages: true },
      expected: [
        ['p1.png', 'send', 'p1.png', 'p1.png', 'p1'],
        ['p2.png', 'send', 'p1.png', 'p1.png', 'p1'],
      ],
      shape: 'record',
    },
    {
      name: '--student-id names the one answer and is its identity',
      tree: { 'essay.txt': TEXT },
      inputs: ['essay.txt'],
      options: { studentId: 's-042' },
      expected: [['essay.txt', 'send', 'essay.txt', 's-042', 's-042']],
    },
    {
      name: '--student-id-from none sends no ids',
      tree: { 'answers/a1.txt': TEXT },
      inputs: ['answers'],
      options: { studentIdFrom: 'none' },
      expected: [['answers/a1.txt', 'send', 'answers/a1.txt', 'a1.txt']],
      shape: 'list',
    },
  ];

  for (const testCase of cases) {
    it(testCase.name, async () => {
      const root = makeTree(testCase.tree);
      const { table, collection } = await rows(root, testCase.inputs, testCase.options);
      expect(table).toEqual(testCase.expected.map((row) => row.slice(0, lastDefined(row) + 1)));
      if (testCase.shape) expect(collection.shape).toBe(testCase.shape);
      for (const note of testCase.notes ?? []) expect(collection.notes.some((line) => note.test(line))).toBe(true);
    });
  }

  it('stops before anything is sent when a file cannot be sent: every one named, a hint per type, the way out', async () => {
    const root = makeTree({ 'answers/a1.txt': TEXT, 'answers/answer.odt': 'x', 'answers/answer.pages': 'x', 'answers/empty.txt': '' });
    const error = await rows(root, ['answers']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    const { message, suggestion } = error as UsageError;
    expect(message).toContain('3 answer files cannot be sent');
    expect(message).toContain('answer.odt');
    expect(message).toContain('empty.txt is empty');
    expect(message).toContain('Nothing was sent.');
    expect(suggestion).toMatch(/\.odt: Export it to DOCX or PDF/);
    expect(suggestion).toMatch(/\.pages: Export it from Pages to DOCX or PDF/);
    expect(suggestion).toContain('--skip-unsupported');
  });

  it('a run that stops says what else it found, and promises no NOT_ENTERED row it will not print', async () => {
    const root = makeTree({ 'answers/a1.txt': TEXT, 'answers/answer.odt': 'x', 'answers/late/a3.txt': TEXT });
    const error = (await rows(root, ['answers']).catch((e: unknown) => e)) as UsageError;
    expect(error.message).toContain('Also found: not entered: 1 subfolder (late/); pass --recursive');
    expect(error.message).not.toContain('listed as NOT_ENTERED');
  });

  it('one rule for a folder and a named file: a named .odt is refused with the same hint', async () => {
    const root = makeTree({ 'answer.odt': 'x' });
    const error = (await rows(root, ['answer.odt']).catch((e: unknown) => e)) as UsageError;
    expect(error.message).toContain('unsupported file type for answer.odt');
    expect(error.suggestion).toMatch(/Export it to DOCX or PDF/);
    const skipped = await rows(root, ['answer.odt'], { skipUnsupported: true }).catch((e: unknown) => e);
    expect((skipped as UsageError).message).toContain('nothing to mark');
  });

  it('a missing file is an error even with --skip-unsupported (a typo is not an unsupported file)', async () => {
    const root = makeTree({ 'a.txt': TEXT });
    const error = (await rows(root, ['a.txt', 'nope.txt'], { skipUnsupported: true }).catch((e: unknown) => e)) as UsageError;
    expect(error.message).toContain('file not found: nope.txt');
  });

  it('a student folder with more than 10 files is refused as one answer', async () => {
    const tree = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`export/s1/p${i}.png`, 'png']));
    const root = makeTree(tree);
    const error = (await rows(root, ['export'], { groupBy: 'folder' }).catch((e: unknown) => e)) as UsageError;
    expect(error.message).toMatch(/11 files in one answer \(.*s1.*\); the limit is 10 files per answer/);
  });

  it('--group-by folder --skip-unsupported: one row per student folder, naming the files it could not send', async () => {
    const root = makeTree({
      'export/ann/essay.txt': TEXT,
      'export/ann/draft.odt': 'x',
      'export/bo/scan.odt': 'x',
      'export/bo/empty.txt': '',
      'export/cy/essay.txt': `${TEXT} 3`,
    });
    const { collection, table } = await rows(root, ['export'], { groupBy: 'folder', skipUnsupported: true });
    const answers = [...collection.answers()];
    expect(answers.map((a) => [a.index, a.label, a.files.length, a.skippedFiles])).toEqual([
      [
        0,
        'export/ann/',
        1,
        [{ label: 'export/ann/draft.odt', reason: expect.stringMatching(/^unsupported file type for export\/ann\/draft\.odt/) }],
      ],
      [2, 'export/cy/', 1, undefined],
    ]);
    expect(collection.skipped.map((row) => [row.index, row.label, row.keyName, row.studentId, row.status])).toEqual([
      [1, 'export/bo/', 'bo', 'bo', 'SKIPPED'],
    ]);
    expect(collection.skipped[0].reason).toMatch(
      /^none of its 2 files can be sent: .*empty\.txt is empty.*; unsupported file type for .*scan\.odt/,
    );
    expect(collection.rows).toBe(3);
    expect(table.filter((row) => row[1] === 'skip')).toEqual([
      ['export/ann/draft.odt', 'skip', 'export/ann', 'ann', 'ann', 'unsupported'],
      ['export/bo/empty.txt', 'skip', 'export/bo', 'bo', 'bo', 'empty'],
      ['export/bo/scan.odt', 'skip', 'export/bo', 'bo', 'bo', 'unsupported'],
    ]);
    expect(collection.notes.join('\n')).toMatch(
      /skipping 3 files \(.*\) that cannot be sent \(--skip-unsupported\); 2 are listed as SKIPPED, 1 named in the message of the answer it belongs to/,
    );
  });

  it("--pages --skip-unsupported: a page that cannot be sent is named in the one answer's row", async () => {
    const root = makeTree({ 'p1.png': 'png', 'p2.odt': 'x', 'p3.png': 'png' });
    const { collection } = await rows(root, ['p1.png', 'p2.odt', 'p3.png'], { pages: true, skipUnsupported: true });
    const [answer] = [...collection.answers()];
    expect(answer.files.map((f) => f.name)).toEqual(['p1.png', 'p3.png']);
    expect(answer.skippedFiles?.map((f) => f.label)).toEqual(['p2.odt']);
    expect(collection).toMatchObject({ rows: 1, count: 1, skipped: [], shape: 'record' });
  });

  it.runIf(process.platform === 'linux')(
    'a file whose name is not UTF-8 (Latin-1 bytes): said so, not "removed while the folder was read"',
    async () => {
      const root = makeTree({ 'class/ok.txt': TEXT });
      // "Zoë.txt" in Latin-1: 0xEB is not UTF-8 on its own, and Node reads it as U+FFFD
      writeFileSync(Buffer.concat([Buffer.from(join(root, 'class', 'Zo')), Buffer.from([0xeb]), Buffer.from('.txt')]), TEXT);
      const error = (await rows(root, ['class']).catch((e: unknown) => e)) as UsageError;
      expect(error.message).toContain('class/Zo\uFFFD.txt: its name is not valid UTF-8');
      expect(error.message).not.toContain('removed while the folder was read');
      expect(error.suggestion).toContain('convmv');
      const { collection } = await rows(root, ['class'], { skipUnsupported: true });
      expect([...collection.answers()].map((a) => a.keyName)).toEqual(['ok.txt']);
      expect(collection.skipped.map((s) => s.reason)).toEqual([expect.stringContaining('its name is not valid UTF-8')]);
    },
  );

  it.runIf(process.platform === 'linux')(
    'a student folder whose name is not UTF-8 is said so, not "cannot read the folder (ENOENT)"',
    async () => {
      const root = makeTree({ 'class/Ann/essay.txt': TEXT });
      const folder = Buffer.concat([Buffer.from(join(root, 'class', 'Jos')), Buffer.from([0xe9])]);
      mkdirSync(folder);
      writeFileSync(Buffer.concat([folder, Buffer.from('/essay.txt')]), TEXT);
      const error = (await rows(root, ['class'], { groupBy: 'folder' }).catch((e: unknown) => e)) as UsageError;
      expect(error.message).toContain('class/Jos\uFFFD/: its name is not valid UTF-8');
      expect(error.message).not.toContain('ENOENT');
    },
  );

  it('a folder of only subfolders points to --recursive', async () => {
    const root = makeTree({ 'export/s1/essay.pdf': '%PDF' });
    const error = (await rows(root, ['export']).catch((e: unknown) => e)) as UsageError;
    expect(error.message).toContain('holds no answer files');
    expect(error.suggestion).toContain('--recursive');
  });

  it('a link back to a folder already walked is not followed twice, and said so', async () => {
    const root = makeTree({ 'answers/a1.txt': TEXT });
    symlinkSync(join(root, 'answers'), join(root, 'answers', 'loop'));
    const { collection, table } = await rows(root, ['answers'], { recursive: true });
    expect([...collection.answers()].map((a) => a.keyName)).toEqual(['a1.txt']);
    expect(table).toContainEqual([
      'answers/loop',
      'loop',
      undefined,
      undefined,
      undefined,
      `the same folder as ${realpathSync(join(root, 'answers'))}, already walked: not walked again`,
    ]);
    expect(collection.leftOut.loops).toBe(1);
    expect(collection.notes.join('\n')).toMatch(/walked once: 1 folder .*answers\/loop/);
  });

  it('a Moodle student who submitted nothing is a row: EMPTY, with the reason and her id', async () => {
    const root = makeTree({
      'export/Ann Lee_1111_assignsubmission_file_/essay.txt': TEXT,
      'export/Bo Chen_3333_assignsubmission_file_/.DS_Store': 'x',
    });
    mkdirSync(join(root, 'export', 'Eve Kim_2222_assignsubmission_file_'));
    const { collection } = await rows(root, ['export'], { recursive: true, studentIdFrom: 'folder', groupBy: 'folder' });
    expect(collection.count).toBe(1);
    expect(collection.skipped.map(({ label, studentId, status, reason }) => [label, studentId, status, reason])).toEqual([
      [
        'export/Bo Chen_3333_assignsubmission_file_/',
        'Bo Chen_3333',
        'EMPTY',
        'nothing to mark in this folder: 1 hidden, system or Markdown file (never sent from a folder)',
      ],
      ['export/Eve Kim_2222_assignsubmission_file_/', 'Eve Kim_2222', 'EMPTY', 'empty folder: nothing submitted'],
    ]);
    expect(collection.rows).toBe(3);
    expect(collection.notes.join('\n')).toContain('nothing to send in 2 folders');
  });

  it('a class of empty student folders stops with each one named, nothing sent', async () => {
    const root = makeTree({});
    mkdirSync(join(root, 'export', 'Eve Kim_2222_assignsubmission_file_'), { recursive: true });
    await expect(rows(root, ['export'], { recursive: true })).rejects.toThrow(
      /nothing to mark[\s\S]*Eve Kim_2222_assignsubmission_file_.*EMPTY \(empty folder: nothing submitted\)/,
    );
  });
});

/** Collects a learning platform's download (a folder, or a zip written by the test) as one-pass does. */
async function fromDownload(input: string, options: Omit<AnswerSources, 'inputs' | 'download'> = {}) {
  const found = downloadInput([input], { groupBy: 'student' });
  if (!found) throw new Error(`${input} is not read as a download`);
  const download = await openDownload(found);
  try {
    const collection = await collectAnswers({ studentIdFrom: 'name', ...options, inputs: [input], download }, io, { explain: true });
    return { collection, root: download.root, answers: [...collection.answers()] };
  } finally {
    await download.cleanup();
  }
}

describe('a Moodle or Canvas download: one answer per student, every student a row', () => {
  const MOODLE = {
    'dl/Ada Lovelace_101_assignsubmission_file_/Essay final.docx': 'PK docx',
    'dl/Ada Lovelace_101_assignsubmission_onlinetext_/onlinetext.html':
      '<!DOCTYPE html><html><head><meta charset="UTF-8"></head><body><p>My <b>online</b> part &amp; more.</p></body></html>',
    'dl/Bo Chen_102_assignsubmission_onlinetext_/onlinetext.html':
      '<!DOCTYPE html><html><head><meta charset="UTF-8"></head><body><p>Uniforms should not be compulsory.</p><p>Second paragraph.</p></body></html>',
    'dl/O\'Brien, Seán_103_assignsubmission_file_/essay, "final".txt': TEXT,
    'dl/Cy Blank_105_assignsubmission_onlinetext_/onlinetext.html': '<!DOCTYPE html><html><head></head><body><p> </p></body></html>',
    'dl/__MACOSX/._x': 'x',
    'dl/Grades.csv': 'Identifier,Grade',
  };

  it('Moodle, folders on: files and online text together, online text alone as text, an empty folder and a blank text EMPTY, all with id and name', async () => {
    const root = makeTree(MOODLE);
    mkdirSync(join(root, 'dl', 'Eve Kim_104_assignsubmission_file_'));
    const { collection, answers } = await fromDownload(join(root, 'dl'));
    const dl = join(root, 'dl');
    expect(answers.map((a) => [a.index, a.label, a.keyName, a.studentId, a.studentName, a.files.map((f) => f.name), a.text])).toEqual([
      [0, `${dl}/Ada Lovelace (101)`, 'moodle:101', '101', 'Ada Lovelace', ['Essay final.docx', 'onlinetext.txt'], undefined],
      [1, `${dl}/Bo Chen (102)`, 'moodle:102', '102', 'Bo Chen', [], 'Uniforms should not be compulsory.\n\nSecond paragraph.'],
      [4, `${dl}/O'Brien, Seán (103)`, 'moodle:103', '103', "O'Brien, Seán", ['essay, "final".txt'], undefined],
    ]);
    // the online text beside files is a page of plain text, held in memory
    expect(Buffer.from(answers[0].files[1].data!).toString()).toBe('My online part & more.');
    // a student's several parts are one answer's pages: said, so drafts handed in beside the final one are seen
    expect(collection.notes).toContain(
      '1 student handed in more than one file or text, sent together as the pages of one answer (Ada Lovelace: Essay final.docx, onlinetext.html): if some are drafts, leave them out of the download and run again',
    );
    expect(collection.skipped.map((s) => [s.index, s.label, s.studentId, s.studentName, s.status, s.reason])).toEqual([
      [2, `${dl}/Cy Blank (105)`, '105', 'Cy Blank', 'EMPTY', 'empty submission: the online text is empty'],
      [3, `${dl}/Eve Kim (104)`, '104', 'Eve Kim', 'EMPTY', 'empty submission: nothing submitted'],
    ]);
    expect(collection).toMatchObject({ count: 3, rows: 5, textCount: 1, shape: 'list' });
    expect(collection.studentNameAt?.(3)).toBe('Eve Kim');
    expect(collection.download).toEqual({
      platform: 'moodle',
      input: dl,
      students: ['Ada Lovelace', 'Bo Chen', 'Cy Blank', 'Eve Kim', "O'Brien, Seán"].map((name, i) => ({
        participantId: ['101', '102', '105', '104', '103'][i],
        name,
      })),
    });
    // the worksheet saved beside it and macOS's metadata are no student's: counted, and said
    expect(collection.leftOut.ignored).toBe(2);
    expect(collection.notes.join('\n')).toMatch(/a Moodle download of 5 students: 3 answers to mark, 2 with nothing submitted \(EMPTY\)/);
    expect(collection.notes.join('\n')).toContain(`not a student's submission, not sent: ${dl}/Grades.csv`);
    const entry = (path: string) => collection.entries.find((e) => e.path === `${dl}/${path}`);
    expect(entry('Eve Kim_104_assignsubmission_file_/')).toMatchObject({
      action: 'empty',
      answer: `${dl}/Eve Kim (104)`,
      studentId: '104',
    });
    expect(entry('Cy Blank_105_assignsubmission_onlinetext_/onlinetext.html')).toMatchObject({ action: 'empty' });
    expect(entry('Grades.csv')).toMatchObject({ action: 'ignore' });
  });

  it.runIf(process.platform === 'linux')(
    'a student folder whose name is not UTF-8 is said so: refused before sending, or SKIPPED, never "nothing submitted"',
    async () => {
      const root = makeTree({ 'dl/Ada Lovelace_101_assignsubmission_file_/essay.txt': TEXT });
      // "José P" in Latin-1: Node reads 0xE9 as U+FFFD, and no folder has that name
      const folder = Buffer.concat([
        Buffer.from(join(root, 'dl', 'Jos')),
        Buffer.from([0xe9]),
        Buffer.from(' P_302_assignsubmission_file_'),
      ]);
      mkdirSync(folder);
      writeFileSync(Buffer.concat([folder, Buffer.from('/essay.txt')]), TEXT);
      const error = (await fromDownload(join(root, 'dl')).catch((e: unknown) => e)) as UsageError;
      expect(error.message).toContain('Jos\uFFFD P_302_assignsubmission_file_/: its name is not valid UTF-8');
      const { collection, answers } = await fromDownload(join(root, 'dl'), { skipUnsupported: true });
      expect(answers.map((a) => a.studentId)).toEqual(['101']);
      expect(collection.skipped.map((s) => [s.studentId, s.status])).toEqual([['302', 'SKIPPED']]);
      expect(collection.skipped[0].reason).toContain('its name is not valid UTF-8');
    },
  );

  it('blind marking: "Participant N" names every student; the same download re-read keeps every identity', async () => {
    const root = makeTree({
      'dl/Participant_9002_assignsubmission_file_/b.txt': TEXT,
      'dl/Participant_9001_assignsubmission_file_/a.txt': TEXT,
    });
    const first = await fromDownload(join(root, 'dl'));
    expect(first.answers.map((a) => [a.label.split('/').pop(), a.studentId, a.studentName, a.keyName])).toEqual([
      ['Participant 9001', '9001', 'Participant 9001', 'moodle:9001'],
      ['Participant 9002', '9002', 'Participant 9002', 'moodle:9002'],
    ]);
  });

  it('a file that cannot be sent stops the run, named as in the download; --skip-unsupported: still one row per student, which names it', async () => {
    const root = makeTree({
      ...MOODLE,
      'dl/Bo Chen_102_assignsubmission_file_/draft.odt': 'x',
      'dl/Dee Odt_106_assignsubmission_file_/essay.odt': 'x',
      'dl/Dee Odt_106_assignsubmission_file_/blank.txt': '',
    });
    const dl = join(root, 'dl');
    await expect(fromDownload(dl)).rejects.toThrow(
      new RegExp(
        `Bo Chen \\(102\\): unsupported file type for ${dl}/Bo Chen_102_assignsubmission_file_/draft.odt[\\s\\S]*Nothing was sent`,
      ),
    );
    const { collection, answers } = await fromDownload(dl, { skipUnsupported: true });
    // Bo's online text is marked without the file, and his one row says so
    const bo = answers.find((a) => a.studentId === '102')!;
    expect(bo.text).toContain('Uniforms');
    expect(bo.skippedFiles).toEqual([
      {
        label: `${dl}/Bo Chen_102_assignsubmission_file_/draft.odt`,
        reason: expect.stringMatching(/^unsupported file type for .*draft\.odt/),
      },
    ]);
    expect(skippedFilesNote(bo.skippedFiles)).toMatch(/^marked without a file that cannot be sent: unsupported file type for .*draft\.odt/);
    // Dee has nothing that can be sent: one SKIPPED row, naming both files
    expect(collection.skipped.filter((s) => s.status === 'SKIPPED')).toEqual([
      expect.objectContaining({
        label: `${dl}/Dee Odt (106)`,
        studentId: '106',
        studentName: 'Dee Odt',
        reason: expect.stringMatching(/^none of its 2 files can be sent: .*blank\.txt is empty.*; unsupported file type for .*essay\.odt/),
      }),
    ]);
    expect(collection.rows).toBe(collection.download!.students.length);
    expect(collection.notes[0]).toMatch(
      /3 answers to mark \(1 without a file that cannot be sent, named in its row\), 1 with nothing submitted \(EMPTY\), 1 SKIPPED/,
    );
    const entry = (path: string) => collection.entries.find((e) => e.path === `${dl}/${path}`);
    expect(entry('Bo Chen_102_assignsubmission_file_/draft.odt')).toMatchObject({
      action: 'skip',
      answer: `${dl}/Bo Chen (102)`,
      reason: 'unsupported',
    });
    expect(entry('Dee Odt_106_assignsubmission_file_/blank.txt')).toMatchObject({
      action: 'skip',
      answer: `${dl}/Dee Odt (106)`,
      reason: 'empty',
    });
  });

  it('Canvas, zipped: files grouped by user id, LATE read, a text entry as text, a URL submission SKIPPED with its reason', async () => {
    const root = makeTree({});
    const zipPath = join(root, 'submissions.zip');
    writeFileSync(
      zipPath,
      zip([
        { name: 'doejane_301_9001_Essay final.docx', content: asNamed('x.docx', 'docx') as Buffer },
        { name: 'doejane_301_9002_refs.txt', content: Buffer.from(TEXT) },
        { name: 'ngbo_LATE_302_9003_essay.txt', content: Buffer.from(`${TEXT} late`) },
        { name: 'okafor_304_text.html', content: Buffer.from('<html><body><p>Typed in Canvas.</p></body></html>') },
        { name: 'li_305_link.html', content: Buffer.from('<html><body><a href="https://example.org">x</a></body></html>') },
      ]),
    );
    const { collection, answers } = await fromDownload(zipPath);
    expect(answers.map((a) => [a.label, a.studentId, a.files.map((f) => f.name), a.text])).toEqual([
      [`${zipPath}/doejane (301)`, '301', ['Essay final.docx', 'refs.txt'], undefined],
      [`${zipPath}/ngbo (302)`, '302', ['essay.txt'], undefined],
      [`${zipPath}/okafor (304)`, '304', [], 'Typed in Canvas.'],
    ]);
    expect(collection.skipped.map((s) => [s.label, s.studentId, s.status])).toEqual([[`${zipPath}/li (305)`, '305', 'SKIPPED']]);
    expect(collection.skipped[0].reason).toMatch(/^a URL submission/);
    expect(collection.notes.join('\n')).toContain('late (as Canvas names them): 1 student (ngbo)');
  });

  it("a zip is always a download; a folder when its names are all a download's, or when asked; a download is named alone and takes no folder flags", async () => {
    const root = makeTree({
      'plain/a1.txt': TEXT,
      'dl/Ada_101_assignsubmission_file_/a.txt': TEXT,
      'dl/.DS_Store': 'x',
      'wrapped/Essay 1-12345/Bo_102_assignsubmission_file_/b.txt': TEXT,
      'mixed/Ada_101_assignsubmission_file_/a.txt': TEXT,
      'mixed/Bo_102_assignsubmission_file_/b.txt': TEXT,
      'mixed/notes.txt': TEXT,
      'beside/submissions/Ada_101_assignsubmission_file_/a.txt': TEXT,
      'beside/submissions/Bo_102_assignsubmission_file_/b.txt': TEXT,
      'beside/Grades.csv': 'Identifier,Grade',
      'sorted/Ada/adamsamy_5001_96001_essay.txt': TEXT,
      'sorted/Ben/brownben_5002_96002_essay.txt': TEXT,
      'one/Ada/adamsamy_5001_96001_essay.txt': TEXT,
    });
    writeFileSync(join(root, 'x.zip'), zip([{ name: 'a1.txt', content: Buffer.from(TEXT) }]));
    expect(downloadInput([join(root, 'dl')], {})).toEqual({ input: join(root, 'dl'), kind: 'folder' });
    expect(downloadInput([join(root, 'wrapped')], {})).toEqual({ input: join(root, 'wrapped'), kind: 'folder' });
    expect(downloadInput([join(root, 'plain')], {})).toBeUndefined();
    // a folder with something else in it is no download as it came; one that mostly looks like one is
    // refused unasked, with how to read it as one, or file by file
    expect(downloadInput([join(root, 'mixed')], {})).toBeUndefined();
    expect(() => checkLookalike([join(root, 'mixed')], new FolderLooks())).toThrow(
      /mixed looks like a Moodle download \(but not its file notes\.txt\): read by the folder rules, .* Nothing was sent/,
    );
    expect(() => checkLookalike([join(root, 'mixed')], new FolderLooks())).toThrow(
      expect.objectContaining({
        suggestion: expect.stringMatching(/^Add --group-by student, .* name the files: kct one-pass .*mixed\/\* --model <id>\.$/),
      }),
    );
    expect(() => checkLookalike([join(root, 'plain')], new FolderLooks())).not.toThrow();
    // one level down: the only subfolder, beside the worksheet; never a class folder's student folders
    expect(downloadWithin([join(root, 'beside')], new FolderLooks())).toEqual({
      path: join(root, 'beside', 'submissions'),
      platform: 'moodle',
      asIs: true,
    });
    expect(downloadWithin([join(root, 'plain')], new FolderLooks())).toBeUndefined();
    expect(downloadWithin([join(root, 'sorted')], new FolderLooks())).toBeUndefined();
    expect(downloadWithin([join(root, 'one')], new FolderLooks())).toBeUndefined();
    expect(downloadInput([join(root, 'mixed')], { groupBy: 'student' })).toEqual({ input: join(root, 'mixed'), kind: 'folder' });
    expect(() => downloadInput([join(root, 'dl'), join(root, 'plain')], {})).toThrow(
      /dl is a Moodle download \(its names say so\), marked as a whole: name it alone/,
    );
    await expect(fromDownload(join(root, 'dl'), { groupBy: 'folder' })).rejects.toThrow(
      /--group-by folder does not apply to .*dl, a Moodle download \(its names say so\): each/,
    );
    expect(() => downloadInput([join(root, 'x.zip'), join(root, 'plain')], {})).toThrow(/marked as a whole: name it alone/);
    expect(() => downloadInput([join(root, 'plain', 'a1.txt')], { groupBy: 'student' })).toThrow(
      /--group-by student reads one Moodle or Canvas download/,
    );
    await expect(openDownload({ input: join(root, 'x.zip'), kind: 'zip' })).rejects.toThrow(/is not a Moodle or Canvas download/);
    await expect(fromDownload(join(root, 'dl'), { exclude: ['*.txt'] })).rejects.toThrow(
      /--exclude does not apply to .*, a Moodle download/,
    );
    // what --exclude is reached for there, files kct cannot send, is --skip-unsupported
    await expect(fromDownload(join(root, 'dl'), { exclude: ['*.odt'] })).rejects.toMatchObject({
      suggestion: expect.stringContaining('add --skip-unsupported'),
    });
    await expect(fromDownload(join(root, 'dl'), { studentIdFrom: 'folder' })).rejects.toThrow(/--student-id-from folder does not apply/);
    await expect(collectAnswers({ inputs: [join(root, 'dl')], groupBy: 'student' }, io)).rejects.toThrow(
      /--group-by student reads a Moodle or Canvas download/,
    );
  });
});
