// The promise "no student silently lost", as properties over generated class folders (fast-check,
// seeded, shrinking): every path of a generated tree lands in exactly one outcome, every student
// folder is a row or holds one (exactly one with --group-by folder), the counts add up, a refusal
// names what else it found, and an answer's key name never depends on the other files. Over
// generated Moodle and Canvas downloads: the zip and the folder it unzips to are the same rows,
// one per student, whatever files of theirs cannot be sent. KCT_PROPERTY_RUNS raises the number of runs.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/api/errors.js';
import { type AnswerSources, type Collection, collectAnswers, type Entry } from '../../src/cli/answers/answers.js';
import { downloadInput, FolderLooks, openDownload } from '../../src/cli/answers/download.js';
import { checkLookalike } from '../../src/cli/answers/download-lookalikes.js';
import { OwnFiles } from '../../src/cli/answers/own-files.js';
import { loneCanvasStudent } from '../../src/platforms/submissions.js';
import { unzipTo } from './platforms/fixtures.js';
import { generatedDownload, partsOf, statusOf } from './platforms/generated-downloads.js';
import { propertyRuns, propertySeed } from './property-runs.js';
import { quietIO } from './quiet-io.js';
import { zip } from './zip-writer.js';

const io = quietIO();

/** A generated tree: a folder's entries by name. */
type Node =
  | { kind: 'file'; content: 'text' | 'empty' | 'unsupported' | 'markdown' | 'pdf' }
  | { kind: 'folder'; children: Record<string, Node> }
  | { kind: 'link'; to: 'root' | 'parent' | 'sibling-file' | 'nowhere' };

/** Names students and platforms give: spaces, accents (both forms), quotes, &, Moodle's folder suffix. */
const STEMS = [
  'a1',
  'pupil-2',
  'pupil-10',
  'Ana',
  'Él',
  'E\u0301l',
  'essay with spaces & "quotes"',
  "O'Brien",
  'Eve Kim_2222_assignsubmission_file_',
  'late',
  'drafts',
  'notes',
];
const SPECIAL = ['.DS_Store', '.hidden', 'Thumbs.db', '~$essay.docx', '__MACOSX', 'README.md'];

const fileNode = fc.constantFrom<Node>(
  { kind: 'file', content: 'text' },
  { kind: 'file', content: 'text' },
  { kind: 'file', content: 'pdf' },
  { kind: 'file', content: 'empty' },
  { kind: 'file', content: 'unsupported' },
  { kind: 'file', content: 'markdown' },
);
const linkNode = fc.constantFrom<Node>(
  { kind: 'link', to: 'root' },
  { kind: 'link', to: 'parent' },
  { kind: 'link', to: 'sibling-file' },
  { kind: 'link', to: 'sibling-file' },
  { kind: 'link', to: 'nowhere' },
);
const name = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...STEMS) }, { weight: 1, arbitrary: fc.constantFrom(...SPECIAL) });

const tree: fc.Arbitrary<Record<string, Node>> = fc.letrec<{ folder: Record<string, Node>; node: Node }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 5, arbitrary: fileNode },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('folder' as const), children: tie('folder') }) },
    { weight: 2, arbitrary: linkNode },
  ),
  folder: fc.dictionary(name, tie('node'), { maxKeys: 5 }),
})).folder;

interface Flags {
  /** Files the command writes, made in the class folder (its --resume journal, its --report): never answers. */
  written: ('run.journal' | 'class.html')[];
  recursive: boolean;
  groupBy?: 'folder';
  studentIdFrom: 'name' | 'folder' | 'none';
  exclude: string[];
  skipUnsupported: boolean;
}
const flags: fc.Arbitrary<Flags> = fc.record({
  written: fc.subarray(['run.journal', 'class.html'] as const),
  recursive: fc.boolean(),
  groupBy: fc.constantFrom(undefined, 'folder' as const),
  studentIdFrom: fc.constantFrom('name' as const, 'folder' as const, 'none' as const),
  exclude: fc.subarray(['drafts', '*.odt', 'notes/**']),
  skipUnsupported: fc.boolean(),
});

const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const EXTENSION: Record<string, string> = { text: '.txt', empty: '.txt', unsupported: '.odt', markdown: '.md', pdf: '.pdf' };

/** Writes the tree under a new folder; returns the folder and every path in it (folders end with the separator). */
function write(root: Record<string, Node>): { dir: string; paths: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'kct-prop-'));
  made.push(dir);
  const top = join(dir, 'class');
  const paths: string[] = [];
  let n = 0;
  const put = (folder: string, children: Record<string, Node>) => {
    mkdirSync(folder, { recursive: true });
    const files = Object.keys(children).filter((key) => children[key].kind === 'file');
    for (const [key, node] of Object.entries(children)) {
      if (node.kind === 'folder') {
        const path = join(folder, key);
        paths.push(`${path}${sep}`);
        put(path, node.children);
      } else if (node.kind === 'file') {
        const path = join(folder, SPECIAL.includes(key) ? key : `${key}${EXTENSION[node.content]}`);
        if (paths.includes(path)) continue;
        const body =
          node.content === 'empty'
            ? ''
            : node.content === 'pdf'
              ? `%PDF-1.4\n% answer ${n++}\n`
              : `An answer about uniforms, number ${n++}.`;
        writeFileSync(path, body);
        paths.push(path);
      } else {
        // a link to a file is named as an answer is (a .txt), so it is read as one: the same file reached twice
        const path = join(folder, `${key}${node.to === 'sibling-file' ? '-link.txt' : '.link'}`);
        const target =
          node.to === 'root'
            ? top
            : node.to === 'parent'
              ? folder
              : node.to === 'nowhere'
                ? join(folder, 'missing.txt')
                : files.length > 0
                  ? join(folder, `${files[0]}${EXTENSION[(children[files[0]] as { content: string }).content]}`)
                  : join(folder, 'missing.txt');
        symlinkSync(target, path);
        paths.push(node.to === 'root' || node.to === 'parent' ? `${path}${sep}` : path);
      }
    }
  };
  put(top, root);
  return { dir, paths };
}

async function collect(top: string, { written, ...options }: Flags): Promise<Collection | UsageError> {
  const sources: AnswerSources = {
    inputs: [top],
    ...options,
    exclude: options.exclude,
    own: OwnFiles.of(
      written.map((name) => ({ path: join(top, name), what: name })),
      io,
    ),
  };
  try {
    return await collectAnswers(sources, io, { explain: true });
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
}

/** The entries that account for a path: its own, or a folder above it that was not walked. */
function coveringEntries(path: string, entries: Entry[]): Entry[] {
  const own = entries.filter((entry) => entry.path === path || `${entry.path}${sep}` === path);
  const above = entries.filter((entry) => {
    if (!['not-entered', 'exclude', 'ignore', 'loop'].includes(entry.action)) return false;
    const folder = entry.path.endsWith(sep) ? entry.path : `${entry.path}${sep}`;
    return path !== folder && path.startsWith(folder);
  });
  return [...own, ...above];
}

const runs = propertyRuns(60);

describe('collecting a class folder accounts for every path (properties)', () => {
  it('every path lands in exactly one outcome, and every student folder is a row or holds one', async () => {
    await fc.assert(
      fc.asyncProperty(tree, flags, async (root, options) => {
        const { dir, paths } = write(root);
        const top = join(dir, 'class');
        for (const name of options.written) {
          writeFileSync(join(top, name), 'written by kct');
          paths.push(join(top, name));
        }
        const result = await collect(top, options);
        if (result instanceof UsageError) return; // checked by the refusal property below
        // what the command writes is never an answer, and is said: one outcome of its own
        for (const name of options.written)
          expect(result.entries.find((entry) => entry.path === join(top, name))?.action, name).toBe('own');
        const entries = result.entries;
        // no path has two outcomes
        const seen = new Set<string>();
        for (const entry of entries) {
          const key = entry.path.endsWith(sep) ? entry.path : entry.path;
          expect(seen.has(key), `${entry.path} has two outcomes`).toBe(false);
          seen.add(key);
        }
        for (const path of paths) {
          // an entered folder is accounted for by what is in it, unless it is a row or empty
          const isFolder = path.endsWith(sep);
          const covering = coveringEntries(path, entries);
          if (isFolder && covering.length === 0) {
            const inside = entries.some((entry) => entry.path.startsWith(path));
            expect(inside, `${path} has no outcome and nothing in it has one`).toBe(true);
            continue;
          }
          expect(
            covering.length,
            `${path}: ${covering.length} outcomes (${covering.map((e) => e.action).join(', ')})`,
          ).toBeGreaterThanOrEqual(1);
          // only nested: a path under a folder left out is not also walked
          const own = covering.filter((entry) => entry.path === path || `${entry.path}${sep}` === path);
          expect(own.length).toBeLessThanOrEqual(1);
          if (own.length === 1) expect(covering.length - own.length, `${path} is also under a folder left out`).toBe(0);
        }
        // every first-level folder walked is a student: a row (EMPTY, NOT_ENTERED) or the answers in it
        if (options.recursive || options.groupBy === 'folder' || options.studentIdFrom === 'folder') {
          for (const path of paths.filter(
            (p) => p.endsWith(sep) && !p.slice(top.length + 1, -1).includes(sep) && !p.endsWith(`.link${sep}`),
          )) {
            const rows = entries.filter(
              (entry) =>
                entry.path.startsWith(path) &&
                ['send', 'skip', 'empty', 'not-entered'].includes(entry.action) &&
                (entry.answer !== undefined || entry.action === 'skip'),
            );
            const leftOut = coveringEntries(path, entries).some((entry) => ['exclude', 'ignore'].includes(entry.action));
            if (!leftOut) expect(rows.length, `the student folder ${path} is in no row`).toBeGreaterThanOrEqual(1);
            // with --group-by folder a student folder is one answer: one row, whatever of it cannot be sent
            const studentRows = new Set(rows.map((entry) => entry.answer));
            if (!leftOut && options.groupBy === 'folder') expect([...studentRows], `the student folder ${path}`).toHaveLength(1);
          }
        }
        // the counts add up
        const answers = new Set(entries.filter((entry) => entry.action === 'send').map((entry) => entry.answer));
        expect(answers.size).toBe(result.count);
        expect(result.rows).toBe(result.count + result.skipped.length);
        const count = (action: string) => entries.filter((entry) => entry.action === action && entry.answer === undefined).length;
        expect(result.leftOut.ignored).toBe(count('ignore'));
        expect(result.leftOut.excluded).toBe(count('exclude'));
        expect(result.leftOut.own).toBe(count('own'));
        expect(result.leftOut.duplicates).toBe(count('duplicate'));
        expect(result.leftOut.loops).toBe(count('loop'));
        expect(result.leftOut.emptyFolders).toBe(count('empty'));
        const rowsOf = (status: string) => result.skipped.filter((row) => row.status === status).length;
        expect(rowsOf('EMPTY')).toBe(entries.filter((entry) => entry.action === 'empty' && entry.answer !== undefined).length);
        expect(rowsOf('NOT_ENTERED')).toBe(entries.filter((entry) => entry.action === 'not-entered').length);
        // rows are numbered 0..rows-1, each once
        const indexes = [...[...result.answers()].map((answer) => answer.index), ...result.skipped.map((row) => row.index)].sort(
          (a, b) => a - b,
        );
        expect(indexes).toEqual(Array.from({ length: result.rows }, (_, i) => i));
      }),
      { numRuns: runs, seed: propertySeed(2126), verbose: 1 },
    );
  });

  it('a run that stops on files it cannot send names them, and what else it found', async () => {
    await fc.assert(
      fc.asyncProperty(tree, flags, async (root, options) => {
        const { dir } = write(root);
        const top = join(dir, 'class');
        const result = await collect(top, { ...options, skipUnsupported: false });
        if (!(result instanceof UsageError)) return;
        const withSkip = await collect(top, { ...options, skipUnsupported: true });
        const notEntered = withSkip instanceof UsageError ? 0 : withSkip.skipped.filter((row) => row.status === 'NOT_ENTERED').length;
        const text = `${result.message}\n${result.suggestion ?? ''}`;
        if (notEntered > 0) expect(text).toMatch(/not entered|--recursive/);
        if (!(withSkip instanceof UsageError)) {
          // each file it skips under --skip-unsupported is the reason it stopped: named, with the way past it
          for (const row of withSkip.skipped.filter((r) => r.status === 'SKIPPED').slice(0, 5)) expect(text).toContain(row.label);
          expect(text).toContain('--skip-unsupported');
        }
      }),
      { numRuns: runs, seed: propertySeed(2127) },
    );
  });

  it('an answer keeps its identity and student id whatever other files are added, removed or renamed', async () => {
    const change = fc.record({ add: fc.constantFrom(...STEMS), removeFirst: fc.boolean(), rename: fc.boolean() });
    await fc.assert(
      fc.asyncProperty(tree, flags, change, async (root, options, what) => {
        const before = await collect(join(write(root).dir, 'class'), { ...options, skipUnsupported: true });
        const changed = structuredClone(root);
        const keys = Object.keys(changed).filter((key) => changed[key].kind === 'file');
        if (what.removeFirst && keys.length > 0) delete changed[keys[0]];
        if (what.rename && keys.length > 1) {
          changed[`${keys[1]}-renamed`] = changed[keys[1]];
          delete changed[keys[1]];
        }
        changed[`${what.add}-new`] = { kind: 'file', content: 'text' };
        const after = await collect(join(write(changed).dir, 'class'), { ...options, skipUnsupported: true });
        if (before instanceof UsageError || after instanceof UsageError) return;
        const relative = (label: string) => label.slice(label.indexOf(`${sep}class${sep}`));
        const byLabel = new Map([...after.answers()].map((answer) => [relative(answer.label), answer]));
        for (const answer of before.answers()) {
          const again = byLabel.get(relative(answer.label));
          if (!again) continue; // removed or renamed itself
          expect(again.keyName).toBe(answer.keyName);
          expect(again.studentId).toBe(answer.studentId);
        }
      }),
      { numRuns: runs, seed: propertySeed(2128) },
    );
  });
});

const CONTENTS = {
  answer: (pick: number) => Buffer.from(`An answer about uniforms, number ${pick}.`),
  onlineText: (pick: number) => Buffer.from(`<html><body><p>Online text about uniforms, number ${pick}.</p></body></html>`),
};

/** A download's collection as a run reads it (files that cannot be sent skipped), in terms that do not depend on where it is. */
async function downloadRows(input: string, own?: OwnFiles) {
  const looks = new FolderLooks(own);
  let found = downloadInput([input], { looks });
  if (found === undefined && loneCanvasStudent(looks.of(input).recognised)) {
    // one Canvas student of several files, unzipped: read so when asked, not guessed (lone-canvas-student.test.ts)
    expect(() => checkLookalike([input], looks)).toThrow(UsageError);
    found = downloadInput([input], { groupBy: 'student', looks });
  }
  expect(found, `${input} is read as a download`).toBeDefined();
  const download = await openDownload(found!, own);
  try {
    const collection = await collectAnswers({ inputs: [input], download, skipUnsupported: true, own }, io, { explain: true });
    const here = (text: string) => text.replaceAll(`${input}/`, '<download>/').replaceAll(`${input}:`, '<download>:');
    return {
      count: collection.count,
      rows: collection.rows,
      answers: [...collection.answers()].map((a) => ({
        index: a.index,
        label: here(a.label),
        keyName: a.keyName,
        studentId: a.studentId,
        studentName: a.studentName,
        files: a.files.map((file) => [file.name, file.size]),
        text: a.text,
        skippedFiles: a.skippedFiles?.map((file) => ({ label: here(file.label), reason: here(file.reason) })),
      })),
      skipped: collection.skipped.map((row) => ({ ...row, label: here(row.label), reason: here(row.reason) })),
      notes: collection.notes.map(here),
      leftOut: collection.leftOut,
      students: collection.download?.students,
    };
  } finally {
    await download.cleanup();
  }
}

describe('a download zipped and unzipped (properties)', () => {
  it('is the same rows either way: one per student, a student with a file kct cannot send in one row that names it', async () => {
    await fc.assert(
      fc.asyncProperty(generatedDownload, async (d) => {
        const dir = mkdtempSync(join(tmpdir(), 'kct-prop-dl-'));
        made.push(dir);
        const parts = partsOf(d, CONTENTS);
        const zipPath = join(dir, 'submissions.zip');
        writeFileSync(zipPath, zip(parts));
        const folder = unzipTo(join(dir, 'submissions'), parts);
        const zipped = await downloadRows(zipPath);
        expect(await downloadRows(folder)).toEqual(zipped);
        // every student is exactly one row, with the status their submission gives
        expect(zipped.rows).toBe(d.students.length);
        const rows = [
          ...zipped.answers.map((a) => ({ id: a.studentId, status: 'SUCCESS', answer: a })),
          ...zipped.skipped.map((s) => ({ id: s.studentId, status: s.status, answer: undefined })),
        ];
        expect(rows.map((row) => row.id).sort()).toEqual(d.students.map((s) => String(s.id)).sort());
        for (const student of d.students) {
          const row = rows.find((r) => r.id === String(student.id))!;
          expect(row.status, `${student.kind}`).toBe(statusOf(student));
          // the file it could not send is named in the answer's own row
          const skippedFiles = row.answer?.skippedFiles?.map((file) => file.label) ?? [];
          expect(skippedFiles.length, `${student.kind}`).toBe(student.kind === 'files+bad' ? 1 : 0);
          if (student.kind === 'files+bad') expect(skippedFiles[0]).toMatch(/scan\.odt$/);
        }
      }),
      { numRuns: propertyRuns(40), seed: propertySeed(2129) },
    );
  });

  it(`with the command's own files in it (a journal, a report, its output) reads as without them: the same command again is the same run (seed ${propertySeed(2130)})`, async () => {
    await fc.assert(
      fc.asyncProperty(
        generatedDownload,
        fc.subarray(['run.journal', 'class.html', 'marks.ndjson'], { minLength: 1 }),
        async (d, names) => {
          const dir = mkdtempSync(join(tmpdir(), 'kct-prop-own-'));
          made.push(dir);
          const parts = partsOf(d, CONTENTS);
          const folder = unzipTo(join(dir, 'submissions'), parts);
          const before = await downloadRows(folder);
          // what the first run wrote beside the students: its journal, its report, `> marks.ndjson`
          for (const name of names) writeFileSync(join(folder, name), `written by kct: ${name}`);
          const own = OwnFiles.of(
            names.map((name) => ({ path: join(folder, name), what: name })),
            io,
          );
          const after = await downloadRows(folder, own);
          expect({
            ...after,
            notes: after.notes.filter((note) => !note.startsWith('not answers:')),
            leftOut: { ...after.leftOut, own: 0 },
          }).toEqual(before);
          expect(after.leftOut.own).toBe(names.length);
        },
      ),
      { numRuns: propertyRuns(30), seed: propertySeed(2130) },
    );
  });
});
