// The answer-collection rules, as a table: an input tree and the flags in; for every path found,
// (answer, identity, student_id, action, reason) out, plus the shape and the notes for stderr.
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../packages/kct/src/api/errors.js';
import { collectAnswers, type AnswerSources } from '../../packages/kct/src/cli/answers.js';
import type { IO } from '../../packages/kct/src/cli/io.js';

const io: IO = {
  stdin: new PassThrough(),
  stdout: new PassThrough(),
  stderr: new PassThrough(),
  stdinIsTTY: false,
  stdoutIsTTY: false,
  stderrIsTTY: false,
  color: false,
  columns: 100,
  noPrompt: true,
};

const TEXT = 'An answer about school uniforms.';

/** A tree: path -> content ('' makes an empty file). */
function makeTree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'kct-collect-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
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
    const table: Row[] = collection.entries.map((e) => [rel(e.path)!, e.action, rel(e.answer), e.identity, e.studentId, e.reason]);
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
  const cases: { name: string; tree: Record<string, string>; inputs: string[]; options?: Omit<AnswerSources, 'inputs'>; expected: Row[]; shape?: 'record' | 'list'; notes?: RegExp[] }[] = [
    {
      name: 'a folder: its answer files; hidden, system and Markdown files ignored; a subfolder not entered, and said so',
      tree: CLASS,
      inputs: ['answers'],
      expected: [
        dsStore, lockFile, a1, a2,
        ['answers/late', 'not-entered', 'answers/late', 'late', undefined, 'subfolder not entered: pass --recursive to mark the answers in it (or --exclude "late" to leave it out)'],
        readme, thumbs,
      ],
      shape: 'list',
      notes: [/^ignored: 4 files \(\.DS_Store, ~\$a2\.docx, README\.md, Thumbs\.db\)/, /^not entered: 1 subfolder \(late\/\); pass --recursive/],
    },
    {
      name: '--recursive: subfolders too, identities relative to the folder',
      tree: CLASS,
      inputs: ['answers'],
      options: { recursive: true },
      expected: [
        dsStore, lockFile, a1, a2, readme, thumbs,
        ['answers/late/a3.txt', 'send', 'answers/late/a3.txt', 'late/a3.txt', 'a3'],
      ],
    },
    {
      name: '--exclude: a folder by name and a pattern at any depth',
      tree: { ...CLASS, 'answers/late/draft.docx': 'x', 'answers/b.docx': 'x' },
      inputs: ['answers'],
      options: { recursive: true, exclude: ['late', '*.docx'] },
      expected: [
        dsStore, lockFile, a1, a2,
        ['answers/b.docx', 'exclude', undefined, undefined, undefined, 'matched --exclude'],
        ['answers/late', 'exclude', undefined, undefined, undefined, 'matched --exclude'],
        readme, thumbs,
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
        ['export/Jane Doe_1234_assignsubmission_file_/essay.pdf', 'send', 'export/Jane Doe_1234_assignsubmission_file_/essay.pdf', 'Jane Doe_1234_assignsubmission_file_/essay.pdf', 'Jane Doe_1234'],
        ['export/Omar Ali_1240_assignsubmission_file_/my essay.docx', 'send', 'export/Omar Ali_1240_assignsubmission_file_/my essay.docx', 'Omar Ali_1240_assignsubmission_file_/my essay.docx', 'Omar Ali_1240'],
        ['export/Omar Ali_1240_assignsubmission_file_/notes/plan.txt', 'send', 'export/Omar Ali_1240_assignsubmission_file_/notes/plan.txt', 'Omar Ali_1240_assignsubmission_file_/notes/plan.txt', 'Omar Ali_1240'],
      ],
      notes: [/several answers share a student id \("Omar Ali_1240" 2 times\); add --group-by folder/],
    },
    {
      name: '--group-by folder: a student folder\'s files are the pages of one answer (in name order); loose files stay answers',
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
        ['export/Jane Doe_1234_assignsubmission_file_/page 2.png', 'send', 'export/Jane Doe_1234_assignsubmission_file_', 'Jane Doe_1234_assignsubmission_file_', 'Jane Doe_1234'],
        ['export/Jane Doe_1234_assignsubmission_file_/page 10.png', 'send', 'export/Jane Doe_1234_assignsubmission_file_', 'Jane Doe_1234_assignsubmission_file_', 'Jane Doe_1234'],
        ['export/Omar Ali_1240_assignsubmission_file_/essay.pdf', 'send', 'export/Omar Ali_1240_assignsubmission_file_', 'Omar Ali_1240_assignsubmission_file_', 'Omar Ali_1240'],
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
      name: 'a glob the shell did not expand: its matches, like a folder\'s files',
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
    expect([...collection.answers()].map((a) => a.identity)).toEqual(['a1.txt']);
    expect(table).toContainEqual(['answers/loop', 'loop', undefined, undefined, undefined, `the same folder as ${realpathSync(join(root, 'answers'))}, already walked: not walked again`]);
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
      ['export/Bo Chen_3333_assignsubmission_file_/', 'Bo Chen_3333', 'EMPTY', 'nothing to mark in this folder: 1 hidden, system or Markdown file (never sent from a folder)'],
      ['export/Eve Kim_2222_assignsubmission_file_/', 'Eve Kim_2222', 'EMPTY', 'empty folder: nothing submitted'],
    ]);
    expect(collection.rows).toBe(3);
    expect(collection.notes.join('\n')).toContain('nothing to send in 2 folders');
  });

  it('a class of empty student folders stops with each one named, nothing sent', async () => {
    const root = makeTree({});
    mkdirSync(join(root, 'export', 'Eve Kim_2222_assignsubmission_file_'), { recursive: true });
    await expect(rows(root, ['export'], { recursive: true })).rejects.toThrow(/nothing to mark[\s\S]*Eve Kim_2222_assignsubmission_file_.*EMPTY \(empty folder: nothing submitted\)/);
  });
});
