// The answer-collection rules, in one place: what the files, folders, globs, --files-from, - and
// --text a user names yield; each answer's identity (for idempotency keys) and student id; and
// every file left out, with the reason. Nothing is sent before the whole collection is checked.
// The folder walk is a generator that holds one folder's names at a time; the check keeps, per
// answer file, only its name relative to its folder and its size (answer-list.ts), and a run
// then builds each answer when it needs it: a class of 100,000 files holds 100,000 names.
import { existsSync, opendirSync, readdirSync, readFileSync, realpathSync, type Stats, statSync } from 'node:fs';
import { basename, extname, join, normalize, sep } from 'node:path';
import { UsageError } from '../../api/errors.js';
import { ANSWER_MIME_TYPES, MAX_FILES_PER_REQUEST } from '../../api/limits.js';
import { checkLocalFile, type FileProblem, isFileProblem, type LocalFile } from '../../client/files.js';
import { cliWords } from '../core/hints.js';
import type { IO } from '../core/io.js';
import { readStdinText } from '../core/stdin.js';
import { AnswerList } from './answer-list.js';
import { collectDownload, type Download, type DownloadStudentInfo } from './download.js';
import { LMS_FOLDER_SUFFIX, studentIdOf } from './student-id.js';

export interface Answer {
  /** Its row in the output: answers and skipped files numbered in the order they were found. */
  index: number;
  /** How the answer is named in output: the path as given (a folder's files joined to it), "-" for stdin, "--text". */
  label: string;
  /** What ties a user's --idempotency-key to this answer: its path relative to its folder (or as given), or its student id. */
  identity: string;
  /** One file, or the pages of one answer (--pages, --group-by folder), sent in one request. */
  files: LocalFile[];
  text?: string;
  studentId?: string;
  /** The student's name, when a learning platform's download gives one (the student id is then the platform's participant id). */
  studentName?: string;
}

/**
 * Something found that is not sent but may be a student's work, so it is a row in every format:
 * a file that cannot be sent (SKIPPED, under --skip-unsupported), a subfolder not entered
 * (NOT_ENTERED, without --recursive) or a student folder with nothing to send (EMPTY).
 */
export interface SkippedAnswer {
  /** Its row in the output (see Answer.index). */
  index: number;
  label: string;
  identity: string;
  studentId?: string;
  /** The student's name, when a learning platform's download gives one. */
  studentName?: string;
  status: UnsentStatus;
  reason: string;
}

type UnsentStatus = 'SKIPPED' | 'NOT_ENTERED' | 'EMPTY';

type StudentIdSource = 'name' | 'folder' | 'none';

export interface AnswerSources {
  inputs: string[];
  text?: string;
  filesFrom?: string;
  studentId?: string;
  studentIdFrom?: StudentIdSource;
  /** All files are the pages of one answer. */
  pages?: boolean;
  /**
   * folder: each first-level folder of a folder argument is one answer (its files are the pages);
   * implies recursive. student: each student of a learning platform's download (`download`).
   */
  groupBy?: 'folder' | 'student';
  /** A Moodle or Canvas download, opened (cli/answers/download.ts): its students are the answers, and it is the only input. */
  download?: Download;
  recursive?: boolean;
  exclude?: string[];
  /** Leave out files that cannot be sent (type, empty, size, unreadable) instead of stopping the run. */
  skipUnsupported?: boolean;
  /** The MIME types this command sends (default: every answer type); `kct batch` sends text only. */
  accepted?: readonly string[];
  /** What to do with an answer file of a type the service takes but this command does not. */
  elsewhere?: string;
}

/** What happened to each thing found: the table the unit test checks. */
export type Action = 'send' | 'skip' | 'ignore' | 'exclude' | 'duplicate' | 'not-entered' | 'empty' | 'loop';

/** Things found and left out without a row of their own: counted in the notes, the summary and the report. */
export interface LeftOutCounts {
  /** Hidden, system and Markdown files and folders. */
  ignored: number;
  /** Paths matching --exclude. */
  excluded: number;
  /** Files reached twice (a link, a folder and one of its files): marked once. */
  duplicates: number;
  /** Folders reached twice through a link: walked once. */
  loops: number;
  /** Empty folders inside a student folder that has answers (an empty student folder is an EMPTY row). */
  emptyFolders: number;
}

export interface Entry {
  /** The path as kct reached it. */
  path: string;
  action: Action;
  /** The answer it belongs to (its label), for send and skip. */
  answer?: string;
  identity?: string;
  studentId?: string;
  reason?: string;
}

export interface Collection {
  /** How many answers will be sent (skipped files not counted). */
  count: number;
  /** How many rows a run prints: answers and skipped files. */
  rows: number;
  /** How many answers are plain text (one .txt file, stdin or --text): what --via batch can send. */
  textCount: number;
  /** The answers in the order found, each built when asked for: only names are held. */
  answers(): Generator<Answer>;
  /** The answer printed in row `index` (to resubmit or report it later). */
  answerAt(index: number): Answer | undefined;
  /** Rows of things not sent (SKIPPED, NOT_ENTERED, EMPTY), in the order found. */
  skipped: SkippedAnswer[];
  /** What was left out without a row, by kind. */
  leftOut: LeftOutCounts;
  /** One record for a single named answer; a list for a folder, a glob, --files-from or several inputs (docs/guides/marking-a-class.md, "Output shapes"). */
  shape: 'record' | 'list';
  /** Lines for stderr about what was left out or merged (never silent). */
  notes: string[];
  /** Every path found and what became of it; only when asked for (`explain`), as it holds one entry per file. */
  entries: Entry[];
  /** The student's name of row `index`, when the answers come from a learning platform's download. */
  studentNameAt?(index: number): string | undefined;
  /** The learning platform's download the answers come from: its platform and every student in it. */
  download?: { platform: 'moodle' | 'canvas'; input: string; students: DownloadStudentInfo[] };
}

/** What the walk yields: a file to check, or something left out with its reason. */
interface Found {
  path: string;
  /** `folder`: a subfolder is entered (its contents follow); `empty` says it holds nothing at all. */
  kind: 'file' | 'ignore' | 'exclude' | 'not-entered' | 'folder' | 'loop';
  /** For a folder entered: it holds nothing at all. */
  empty?: boolean;
  reason?: string;
  /** Relative to its folder argument (posix separators), or the argument as given. */
  identity: string;
  /** Index of the folder or glob argument it came from; undefined for a file named directly. */
  root?: number;
  /** It came from a glob pattern (its path is as the glob gave it, not its folder joined to its identity). */
  glob?: boolean;
  /** The first folder level under that argument, for --student-id-from folder and --group-by folder. */
  group?: string;
  info?: Stats;
  /** A link, found in a folder, to a file that does not exist. */
  dangling?: boolean;
}

const MARKDOWN = /\.(md|markdown)$/i;
/** Files an operating system or an editor leaves in folders: never answers. */
const SYSTEM_FILES = new Set(['thumbs.db', 'desktop.ini', 'ehthumbs.db', 'icon\r']);
const SYSTEM_FOLDERS = new Set(['__macosx']);
const GLOB_MAGIC = /[*?[\]{}]/;
/** Moodle names a student's folder "Full Name_1234_assignsubmission_file_": the student id is "Full Name_1234". */

// One collator for the whole sort: localeCompare with options builds one per comparison.
const byNaturalOrder = new Intl.Collator('en', { numeric: true }).compare;
const FILE = 0;
const FOLDER = 1;
const LINK = 2;

const posix = (path: string) => path.split(sep).join('/');

/** Matches of a glob pattern under a folder: files, and folders (ending with "/") the pattern itself matches. */
type GlobSync = (pattern: string, cwd: string) => string[];

interface WalkOptions {
  recursive: boolean;
  /** Whether a path relative to its folder argument (or as given) matches --exclude. */
  exclude: (path: string, isFolder: boolean) => boolean;
}

export async function collectAnswers(sources: AnswerSources, io: IO, options: { explain?: boolean } = {}): Promise<Collection> {
  if (sources.download) return { ...collectDownload(sources.download, sources, options.explain === true), shape: 'list' };
  if (sources.groupBy === 'student') {
    throw new UsageError('--group-by student reads a Moodle or Canvas download: name its zip, or the folder it unzips to', {
      suggestion: 'For a folder of student folders, use --group-by folder.',
    });
  }
  const exclude = await excluder(sources.exclude ?? []);
  const recursive = Boolean(sources.recursive || sources.groupBy === 'folder');
  const textAnswers: Answer[] = [];
  const named: string[] = [];
  let stdinUsed = false;
  let fromList = false;
  if (sources.filesFrom !== undefined) {
    fromList = true;
    const listing = sources.filesFrom === '-' ? await readStdinText(io) : readListing(sources.filesFrom);
    stdinUsed = sources.filesFrom === '-';
    named.push(
      ...listing
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter((line) => line !== '' && !line.startsWith('#')),
    );
  }
  for (const input of sources.inputs) {
    if (input !== '-') {
      named.push(input);
      continue;
    }
    if (stdinUsed) {
      throw new UsageError(
        sources.filesFrom === '-'
          ? 'standard input is already used by --files-from -'
          : '- is given more than once: standard input holds one answer',
        {
          suggestion: 'Read one answer from standard input, or save the others to files.',
        },
      );
    }
    stdinUsed = true;
    textAnswers.push({ index: textAnswers.length, label: '-', identity: 'stdin', files: [], text: await readStdinText(io) });
  }
  if (sources.text !== undefined)
    textAnswers.push({ index: textAnswers.length, label: '--text', identity: 'text', files: [], text: sources.text });
  for (const answer of textAnswers) {
    if (answer.text!.trim() === '') throw new UsageError(`the answer ${answer.label === '-' ? 'on standard input' : 'text'} is empty`);
  }

  // picomatch loads only for a pattern the shell did not expand (Windows shells, quotes)
  const globSync = named.some((input) => GLOB_MAGIC.test(input) && !existsSync(input))
    ? globber((await import('picomatch')).default)
    : undefined;
  const roots: string[] = [];
  const collection = planAnswers(
    walkInputs(named, { recursive, exclude, roots, globSync }),
    textAnswers,
    roots,
    sources,
    options.explain === true,
  );
  const single = !fromList && roots.length === 0 && sources.inputs.length + (sources.text === undefined ? 0 : 1) === 1;
  const pagesOfOne = Boolean(sources.pages) && roots.length === 0 && !fromList && textAnswers.length === 0;
  return { ...collection, shape: single || pagesOfOne ? 'record' : 'list' };
}

/**
 * Walks what was named, in order: a file is itself; a folder is its files by name (natural
 * order), entering subfolders only when recursive; an argument that does not exist but holds
 * glob characters is expanded. Folders are read one at a time, so a huge class holds only names.
 */
function* walkInputs(inputs: string[], options: WalkOptions & { roots: string[]; globSync?: GlobSync }): Generator<Found> {
  const visited = new Set<string>();
  for (const input of inputs) {
    let info: Stats | undefined;
    try {
      info = statSync(input);
    } catch {
      info = undefined;
    }
    if (!info && options.globSync && GLOB_MAGIC.test(input)) {
      const root = options.roots.push(input) - 1;
      yield* walkGlob(input, root, options as WalkOptions & { globSync: GlobSync }, visited);
      continue;
    }
    if (info?.isDirectory()) {
      const root = options.roots.push(input) - 1;
      yield* walkFolder(input, '', root, options, visited);
      continue;
    }
    const identity = posix(normalize(input));
    yield options.exclude(identity, false)
      ? { path: input, kind: 'exclude', reason: 'matched --exclude', identity }
      : { path: input, kind: 'file', identity, info };
  }
}

function* walkFolder(folder: string, rel: string, root: number, options: WalkOptions, visited: Set<string>): Generator<Found> {
  const here = join(folder, rel);
  const group = (name: string) => (rel === '' ? name : rel.split('/')[0]);
  try {
    const real = realpathSync(here);
    if (visited.has(real)) {
      // a link back into a folder already walked (or a folder named twice): said, never silent
      yield {
        path: `${here}${sep}`,
        kind: 'loop',
        reason: `the same folder as ${real}, already walked: not walked again`,
        identity: rel === '' ? posix(normalize(folder)) : rel,
        root,
        group: rel === '' ? undefined : group(rel),
      };
      return;
    }
    visited.add(real);
  } catch {
    // unreadable: readdir below says why
  }
  // names and kinds only: a folder of 100,000 answers holds its names, not 100,000 Dirents
  let names: string[];
  let kinds: Uint8Array;
  try {
    // read a few entries at a time (readdir would hold every entry at once, natively and in JS)
    const dir = opendirSync(here, { bufferSize: 256 });
    const kindList: number[] = [];
    names = [];
    try {
      for (let entry = dir.readSync(); entry !== null; entry = dir.readSync()) {
        names.push(entry.name);
        kindList.push(entry.isDirectory() ? FOLDER : entry.isSymbolicLink() ? LINK : FILE);
      }
    } finally {
      dir.closeSync();
    }
    kinds = Uint8Array.from(kindList);
  } catch (error) {
    throw new UsageError(`cannot read the folder ${here} (${(error as NodeJS.ErrnoException).code ?? String(error)})`, {
      suggestion: 'Check its permissions.',
    });
  }
  // a subfolder entered is itself an outcome: a student folder with nothing to send is a row
  if (rel !== '') yield { path: `${here}${sep}`, kind: 'folder', identity: rel, root, group: group(rel), empty: names.length === 0 };
  const order = Array.from(names.keys()).sort((a, b) => byNaturalOrder(names[a], names[b]));
  const subfolders: string[] = [];
  for (const index of order) {
    const name = names[index];
    const identity = rel === '' ? name : `${rel}/${name}`;
    const path = join(here, name);
    let isFolder = kinds[index] === FOLDER;
    let dangling = false;
    if (kinds[index] === LINK) {
      try {
        isFolder = statSync(path).isDirectory();
      } catch {
        dangling = true; // a broken link: a file of the folder that cannot be sent (a row, not a typo)
      }
    }
    const base = { path, identity, root, group: rel === '' && !isFolder ? undefined : group(name), ...(dangling ? { dangling } : {}) };
    const rule = folderRule(name, isFolder, identity, options);
    if (rule === 'enter') subfolders.push(identity);
    else yield { ...base, ...rule };
  }
  for (const sub of subfolders) yield* walkFolder(folder, sub, root, options, visited);
}

/** A folder's rules for one thing in it: left out (with the reason), entered, or a file to check. */
function folderRule(name: string, isFolder: boolean, identity: string, options: WalkOptions): Pick<Found, 'kind' | 'reason'> | 'enter' {
  if (name.startsWith('.')) return { kind: 'ignore', reason: isFolder ? 'hidden folder' : 'hidden file' };
  if (isFolder && SYSTEM_FOLDERS.has(name.toLowerCase())) return { kind: 'ignore', reason: 'system folder' };
  if (!isFolder && (SYSTEM_FILES.has(name.toLowerCase()) || name.startsWith('~$'))) return { kind: 'ignore', reason: 'system file' };
  if (options.exclude(identity, isFolder)) return { kind: 'exclude', reason: 'matched --exclude' };
  if (isFolder) return options.recursive ? 'enter' : { kind: 'not-entered', reason: 'subfolder (pass --recursive)' };
  // Markdown is sent as text when named, but in a class folder a .md file is far more likely
  // a README or the teacher's notes than an answer: left out, so it is never marked and charged.
  if (MARKDOWN.test(name)) return { kind: 'ignore', reason: 'Markdown (name it to send it)' };
  return { kind: 'file' };
}

/**
 * A glob is a folder walk limited to what the pattern matches: the folder before its first
 * wildcard is the folder, its rules apply to each match (hidden, system, Markdown, subfolders),
 * and each path keeps the prefix the user wrote (never rewritten relative to the cwd).
 */
function* walkGlob(pattern: string, root: number, options: WalkOptions & { globSync: GlobSync }, visited: Set<string>): Generator<Found> {
  const magic = pattern.search(GLOB_MAGIC);
  const cut = Math.max(pattern.lastIndexOf('/', magic), sep === '\\' ? pattern.lastIndexOf('\\', magic) : -1);
  const prefix = pattern.slice(0, cut + 1);
  // dot: hidden matches are found to be named as ignored; the insides of hidden folders are not walked
  const matches = options.globSync(pattern.slice(cut + 1), prefix === '' ? '.' : prefix);
  // a folder the pattern itself goes into (e.g. "**") is walked by the pattern, not by the folder rule
  const walked = new Set(matches.map((match) => match.replace(/\/?[^/]*\/?$/, '')));
  for (const match of matches.sort(byNaturalOrder)) {
    const isFolder = match.endsWith('/');
    const rel = isFolder ? match.slice(0, -1) : match;
    if (isFolder && walked.has(rel)) continue;
    const path = prefix + rel;
    const names = rel.split('/');
    const inHidden = names.slice(0, -1).some((name) => name.startsWith('.'));
    const rule = inHidden
      ? { kind: 'ignore' as const, reason: 'in a hidden folder' }
      : folderRule(names[names.length - 1], isFolder, rel, options);
    if (rule === 'enter') {
      for (const found of walkFolder(prefix === '' ? '.' : prefix, rel, root, options, visited))
        yield { ...found, identity: posix(found.path), glob: true };
    } else {
      yield { path, identity: posix(path), root, glob: true, ...rule };
    }
  }
}

/**
 * A glob over a folder with picomatch: walks it (into subfolders only as deep as the pattern can
 * reach, never inside hidden folders or through a link twice) and keeps what the pattern matches.
 * Hidden names match (they are then named as ignored); a link to nothing is not found.
 */
function globber(picomatch: typeof import('picomatch')): GlobSync {
  return (pattern, cwd) => {
    const isMatch = picomatch(pattern, { dot: true });
    const depth = pattern.includes('**') ? Infinity : pattern.split('/').length;
    const matches: string[] = [];
    const walked = new Set<string>();
    const visit = (rel: string, level: number) => {
      const folder = join(cwd, rel);
      let names: { name: string; folder: boolean }[];
      try {
        const real = realpathSync(folder);
        if (walked.has(real)) return;
        walked.add(real);
        names = readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
          if (!entry.isSymbolicLink()) return [{ name: entry.name, folder: entry.isDirectory() }];
          try {
            return [{ name: entry.name, folder: statSync(join(folder, entry.name)).isDirectory() }];
          } catch {
            return [];
          }
        });
      } catch {
        return;
      }
      for (const { name, folder: isFolder } of names) {
        const path = rel === '' ? name : `${rel}/${name}`;
        if (!isFolder) {
          if (isMatch(path)) matches.push(path);
          continue;
        }
        if (isMatch(path) || isMatch(`${path}/`)) matches.push(`${path}/`);
        if (!name.startsWith('.') && level + 1 < depth) visit(path, level + 1);
      }
    };
    visit('', 0);
    return matches;
  };
}

/** The --exclude test, built once; picomatch loads only when there are patterns. */
async function excluder(patterns: string[]): Promise<WalkOptions['exclude']> {
  if (patterns.length === 0) return () => false;
  for (const pattern of patterns) {
    if (pattern.trim() === '') throw new UsageError('--exclude needs a pattern, e.g. --exclude "drafts/**" or --exclude "*.docx"');
  }
  const { default: picomatch } = await import('picomatch');
  // a pattern without a slash matches a name at any depth ("*.docx"); "drafts" also leaves out the folder
  const match = picomatch(patterns, { dot: true, basename: true });
  return (path, isFolder) => match(path) || (isFolder && match(`${path}/`));
}

/** Names left out, by kind: a count and the first few names (what the notes show). */
type LeftOut = Record<'ignore' | 'exclude' | 'not-entered' | 'loop' | 'empty', { count: number; first: string[] }>;

/** A first-level folder of a folder argument being walked: a student folder, a row when nothing in it is sent. */
interface OpenFolder {
  key: string;
  item: Found;
  position: number;
  /** Something in it is an answer or a SKIPPED row. */
  hasRow: boolean;
  /** What was found in it and left out, for the EMPTY row's reason. */
  ignored: number;
  excluded: number;
}

/**
 * Checks every file found, removes duplicates, groups pages, gives each answer its identity and
 * student id, and numbers the rows; keeps names and sizes only (AnswerList). Every path found
 * lands in exactly one outcome: an answer, a row not sent (SKIPPED, NOT_ENTERED, EMPTY), or a
 * count of what is left out without a row (ignored, excluded, duplicates, loops, empty folders).
 */
function planAnswers(
  found: Iterable<Found>,
  textAnswers: Answer[],
  roots: string[],
  sources: AnswerSources,
  explain: boolean,
): Omit<Collection, 'shape'> {
  const list = new AnswerList(roots, textAnswers, sources);
  const refused: FileProblem[] = [];
  const tally = () => ({ count: 0, first: [] as string[] });
  const left: LeftOut = { ignore: tally(), exclude: tally(), 'not-entered': tally(), loop: tally(), empty: tally() };
  let duplicates = 0;
  const notes: string[] = [];
  /** Files seen, by device and inode, to the file (or skipped file, as -1 - its number) first seen there. */
  const seen = new Map<number, Map<number, number>>();
  const skippedPaths: string[] = [];
  const skippedFiles: { item: Found; problem: FileProblem; position: number }[] = [];
  const unsentFolders: { row: Omit<SkippedAnswer, 'index'>; position: number }[] = [];
  const explained: Explained[] = [];
  let position = 0;
  let sendable = 0;
  let group: { key: string; answer: number } | undefined;
  let folder: OpenFolder | undefined;
  const keyOf = (item: Found) => `${item.root}\u0000${item.group}`;
  const inFolder = (item: Found) => folder !== undefined && !item.glob && item.root !== undefined && keyOf(item) === folder.key;
  const closeFolder = () => {
    if (folder && !folder.hasRow) {
      const { item } = folder;
      unsentFolders.push({
        row: {
          label: item.path,
          identity: item.identity,
          studentId: folderStudentId(item, sources),
          status: 'EMPTY',
          reason: emptyReason(folder),
        },
        position: folder.position,
      });
      if (explain) explained.push({ item, folderRow: 'EMPTY' });
    }
    folder = undefined;
  };
  const note = (kind: keyof LeftOut, name: string) => {
    left[kind].count += 1;
    if (left[kind].first.length < 5) left[kind].first.push(name);
  };

  for (const item of found) {
    position += 1;
    if (item.kind === 'folder') {
      const studentFolder = !item.glob && item.root !== undefined && !item.identity.includes('/');
      if (studentFolder) {
        closeFolder();
        folder = { key: keyOf(item), item, position, hasRow: false, ignored: 0, excluded: 0 };
      } else if (item.empty) {
        note('empty', `${item.identity}/`);
        if (explain) explained.push({ item, leftOut: 'empty' });
      }
      continue;
    }
    if (item.kind === 'loop') {
      note('loop', item.path);
      if (explain) explained.push({ item, leftOut: 'loop' });
      continue;
    }
    if (item.kind === 'not-entered') {
      note('not-entered', `${item.identity}/`);
      if (inFolder(item)) folder!.hasRow = true;
      unsentFolders.push({
        row: {
          label: `${item.path}${sep}`,
          identity: item.identity,
          studentId: folderStudentId(item, sources),
          status: 'NOT_ENTERED',
          reason: `subfolder not entered: pass --recursive to mark the answers in it (or --exclude "${item.identity}" to leave it out)`,
        },
        position,
      });
      if (explain) explained.push({ item, folderRow: 'NOT_ENTERED' });
      continue;
    }
    if (item.kind !== 'file') {
      note(item.kind, item.identity);
      if (inFolder(item)) folder![item.kind === 'ignore' ? 'ignored' : 'excluded'] += 1;
      if (explain) explained.push({ item });
      continue;
    }
    let info = item.info;
    if (!info) {
      try {
        info = statSync(item.path);
      } catch {
        info = undefined;
      }
    }
    if (info) {
      let byInode = seen.get(info.dev);
      if (!byInode) seen.set(info.dev, (byInode = new Map()));
      const earlier = byInode.get(info.ino);
      if (earlier !== undefined) {
        const earlierPath = earlier >= 0 ? list.filePath(earlier) : skippedPaths[-1 - earlier];
        duplicates += 1;
        notes.push(`${item.path} is the same file as ${earlierPath}: it is marked once`);
        if (explain) explained.push({ item, duplicateOf: earlierPath });
        continue;
      }
      byInode.set(info.ino, list.files);
    }
    if (inFolder(item)) folder!.hasRow = true;
    const checked = foundProblem(item, info) ?? checkLocalFile(item.path, sources.accepted, info);
    if (isFileProblem(checked)) {
      if (checked.kind === 'unsupported' && sources.elsewhere && ANSWER_MIME_TYPES.includes(checked.type ?? ''))
        checked.suggestion = sources.elsewhere;
      if (info) seen.get(info.dev)!.set(info.ino, -1 - skippedPaths.length);
      skippedPaths.push(item.path);
      // a missing path is a typo, never an "unsupported" file to skip
      if (sources.skipUnsupported && checked.kind !== 'missing') {
        skippedFiles.push({ item, problem: checked, position });
        if (explain) explained.push({ item, skipKind: checked.kind });
      } else {
        refused.push(checked);
      }
      continue;
    }
    sendable += 1;
    if (refused.length > 0) continue; // the run stops anyway: only the problems matter now
    const file = list.addFile(item, checked.size);
    if (explain) explained.push({ item, file });
    // which answer it belongs to: its own, all of --pages, or its student folder's (--group-by folder)
    if (sources.pages) {
      if (textAnswers.length > 0) throw new UsageError('--pages sends files as one answer: it cannot be combined with - or --text');
      if (list.count === 0) list.openAnswer(file, 'pages', position);
      else list.extendAnswer();
      continue;
    }
    if (sources.groupBy === 'folder' && item.root !== undefined && item.group !== undefined && !item.glob) {
      const key = keyOf(item);
      if (group?.key === key) {
        list.extendAnswer();
        continue;
      }
      closeGroup(list, group, sources);
      group = { key, answer: list.openAnswer(file, 'group', position) };
      continue;
    }
    closeGroup(list, group, sources);
    group = undefined;
    list.openAnswer(file, 'file', position);
  }
  closeFolder();
  const leftOutNotes = (): string[] => {
    const lines: string[] = [];
    if (left.ignore.count > 0)
      lines.push(
        `ignored: ${listOf(left.ignore, 'file')} (hidden, system and Markdown files in folders are never sent; name one to send it)`,
      );
    if (left.exclude.count > 0) lines.push(`excluded by --exclude: ${listOf(left.exclude, 'path')}`);
    if (left['not-entered'].count > 0)
      lines.push(
        `not entered: ${listOf(left['not-entered'], 'subfolder')}; pass --recursive to mark the answers in them (or --exclude to leave them out); they are listed as NOT_ENTERED`,
      );
    if (left.loop.count > 0) lines.push(`walked once: ${listOf(left.loop, 'folder')} reached again through a link`);
    if (left.empty.count > 0) lines.push(`empty: ${listOf(left.empty, 'folder')} inside student folders`);
    return lines;
  };
  if (refused.length > 0) throw refusal(refused, sendable + textAnswers.length + skippedFiles.length > 0, leftOutNotes());
  closeGroup(list, sources.pages && list.count > 0 ? { answer: 0 } : group, sources);
  for (const { item, problem, position: at } of skippedFiles) {
    list.addSkipped(
      {
        label: item.path,
        identity: item.identity,
        studentId: studentIdOf(item, sources),
        status: 'SKIPPED',
        reason: `${problem.message}. ${cliWords(problem.suggestion)}`,
      },
      at,
    );
  }
  for (const { row, position: at } of unsentFolders) list.addSkipped(row, at);

  if (sources.studentId !== undefined) {
    if (list.count + textAnswers.length > 1)
      throw new UsageError(
        '--student-id names one answer; with several, ids come from the file names (--student-id-from name) or the student folders (--student-id-from folder)',
      );
    list.setStudentId(sources.studentId);
  }
  if (list.count + textAnswers.length === 0) {
    const rows = list.skipped.filter((row) => row.status !== 'NOT_ENTERED');
    if (rows.length > 0) {
      const lines = [...list.skipped].sort((a, b) => a.position - b.position).map((row) => `${row.label}: ${row.status} (${row.reason})`);
      throw new UsageError(`nothing to mark: no answer can be sent:\n  ${lines.join('\n  ')}`, {
        suggestion:
          left['not-entered'].count > 0
            ? 'Pass --recursive to mark the answers in subfolders.'
            : 'Check the folder: add the answers, or name the files to send.',
      });
    }
    throw noAnswers(roots, left);
  }
  // two folders holding the same names: only then can identities collide (one folder's are its relative paths)
  if (roots.length + list.directFiles + textAnswers.length > 1) list.qualifyCollidingIdentities();
  list.numberRows();

  notes.push(...leftOutNotes());
  const skippedFileRows = list.skipped.filter((row) => row.status === 'SKIPPED');
  if (skippedFileRows.length > 0)
    notes.push(
      `skipping ${listOf({ count: skippedFileRows.length, first: skippedFileRows.slice(0, 5).map((s) => s.label) }, 'file')} that cannot be sent (--skip-unsupported); they are listed as SKIPPED`,
    );
  const empties = list.skipped.filter((row) => row.status === 'EMPTY');
  if (empties.length > 0)
    notes.push(
      `nothing to send in ${listOf({ count: empties.length, first: empties.slice(0, 5).map((s) => s.label) }, 'folder')}; listed as EMPTY`,
    );
  notes.push(...sharedStudentIds(list.studentIdCounts(), sources));

  const entries = explain ? explainEntries(explained, list, textAnswers) : [];
  return {
    count: list.count + textAnswers.length,
    rows: list.rows,
    textCount: list.textCount,
    answers: () => list.answers(),
    answerAt: (index) => list.answerAt(index),
    skipped: list.skipped,
    leftOut: {
      ignored: left.ignore.count,
      excluded: left.exclude.count,
      duplicates,
      loops: left.loop.count,
      emptyFolders: left.empty.count,
    },
    notes,
    entries,
  };
}

/** The student id of a folder row: the folder's, when ids come from folders; none otherwise. */
function folderStudentId(item: Found, sources: AnswerSources): string | undefined {
  if (sources.studentIdFrom === 'none' || (sources.studentIdFrom !== 'folder' && sources.groupBy !== 'folder')) return undefined;
  const name = item.identity.split('/')[0];
  return name.replace(LMS_FOLDER_SUFFIX, '') || undefined;
}

/** Why a student folder has no row of its own: nothing in it, or only what is never sent. */
function emptyReason(folder: OpenFolder): string {
  if (folder.ignored + folder.excluded === 0) return 'empty folder: nothing submitted';
  const parts: string[] = [];
  if (folder.ignored)
    parts.push(`${folder.ignored} hidden, system or Markdown file${folder.ignored === 1 ? '' : 's'} (never sent from a folder)`);
  if (folder.excluded) parts.push(`${folder.excluded} path${folder.excluded === 1 ? '' : 's'} excluded by --exclude`);
  return `nothing to mark in this folder: ${parts.join(', ')}`;
}

/** A file found in a folder that is gone by the time it is read: a file that cannot be sent, not a mistyped path. */
function foundProblem(item: Found, info: Stats | undefined): FileProblem | undefined {
  if (info || item.root === undefined) return undefined;
  const what = item.dangling ? 'a link to a file that does not exist' : 'no longer there (removed while the folder was read)';
  return {
    kind: 'unreadable',
    path: item.path,
    message: `${item.path}: ${what}`,
    suggestion: item.dangling ? 'Remove the link, or restore the file it points to.' : 'Run again once the folder has settled.',
  };
}

/** An answer of a student folder's files is complete: more than 10 is refused, or skipped with --skip-unsupported. */
function closeGroup(list: AnswerList, group: { answer: number } | undefined, sources: AnswerSources): void {
  if (!group) return;
  const files = list.fileCount(group.answer);
  if (files <= MAX_FILES_PER_REQUEST) return;
  const label = list.labelOf(group.answer);
  const message = `${files} files in one answer (${label}); the limit is ${MAX_FILES_PER_REQUEST} files per answer`;
  if (!sources.skipUnsupported) {
    throw new UsageError(message, {
      suggestion: 'The files of one answer go in one request: merge the pages into one PDF, or send fewer.',
    });
  }
  list.dropLastAnswerAsSkipped(message);
}

/** What the check recorded of one path, for the entry table. */
interface Explained {
  item: Found;
  file?: number;
  skipKind?: FileProblem['kind'];
  duplicateOf?: string;
  /** A folder that is a row of its own. */
  folderRow?: 'EMPTY' | 'NOT_ENTERED';
  /** Left out without a row. */
  leftOut?: 'empty' | 'loop';
}

/** The table of what became of every path (the unit test's view), built from what the check recorded. */
function explainEntries(explained: Explained[], list: AnswerList, textAnswers: Answer[]): Entry[] {
  const entries: Entry[] = textAnswers.map((answer) => ({
    path: answer.label,
    action: 'send',
    answer: answer.label,
    identity: answer.identity,
  }));
  for (const { item, file, skipKind, duplicateOf, folderRow, leftOut } of explained) {
    if (folderRow !== undefined) {
      const row = list.skipped.find(
        (s) => s.status === folderRow && s.identity === item.identity && (s.label === item.path || s.label === `${item.path}${sep}`),
      )!;
      entries.push({
        path: item.path,
        action: folderRow === 'EMPTY' ? 'empty' : 'not-entered',
        answer: row.label,
        identity: row.identity,
        studentId: row.studentId,
        reason: row.reason,
      });
    } else if (leftOut !== undefined)
      entries.push({ path: item.path, action: leftOut, reason: leftOut === 'empty' ? 'empty folder' : item.reason });
    else if (item.kind !== 'file') entries.push({ path: item.path, action: item.kind as Action, reason: item.reason });
    else if (duplicateOf !== undefined) entries.push({ path: item.path, action: 'duplicate', reason: `the same file as ${duplicateOf}` });
    else if (file !== undefined) entries.push({ path: item.path, ...list.entryOfFile(file) });
    else if (skipKind !== undefined) {
      const row = list.skippedOfPath(item.path)!;
      entries.push({
        path: item.path,
        action: 'skip',
        answer: row.label,
        identity: row.identity,
        studentId: row.studentId,
        reason: skipKind,
      });
    }
  }
  return entries;
}

function sharedStudentIds(byId: Map<string, number>, sources: AnswerSources): string[] {
  const shared = [...byId].filter(([, count]) => count > 1);
  if (shared.length === 0) return [];
  const hint =
    sources.studentIdFrom === 'folder'
      ? "add --group-by folder to send each student's files as one answer"
      : 'with a folder per student, use --student-id-from folder';
  return [
    `note: several answers share a student id (${shared
      .slice(0, 3)
      .map(([id, n]) => `"${id}" ${n} times`)
      .join(', ')}${shared.length > 3 ? ', ...' : ''}); ${hint}`,
  ];
}

function listOf(names: { count: number; first: string[] }, noun: string): string {
  const shown = names.first.slice(0, 5).join(', ');
  return `${names.count} ${noun}${names.count === 1 ? '' : 's'} (${shown}${names.count > 5 ? `, and ${names.count - 5} more` : ''})`;
}

/** Files that cannot be sent stop the run: each named with its reason, a hint per kind, and the way out. */
function refusal(problems: FileProblem[], others: boolean, leftOut: string[]): UsageError {
  const missing = problems.some((p) => p.kind === 'missing');
  const topic: Partial<Record<FileProblem['kind'], string>> = {
    empty: 'empty files',
    'too-big': 'files over the size limit',
    unreadable: 'unreadable files',
    special: 'special files',
  };
  const hints = [
    ...new Set(
      problems.map((p) => {
        if (problems.length === 1) return p.suggestion;
        const about = p.kind === 'unsupported' ? extname(p.path).toLowerCase() || basename(p.path) : topic[p.kind];
        return about ? `${about}: ${p.suggestion}` : p.suggestion;
      }),
    ),
  ];
  if (missing) hints.push('To send the answer text from standard input, pass - instead of a file.');
  const canSkip = others && problems.some((p) => p.kind !== 'missing');
  if (canSkip) hints.push('Or pass --skip-unsupported to mark the others and list these as SKIPPED.');
  const message =
    problems.length === 1
      ? problems[0].message
      : `${problems.length} answer files cannot be sent:\n  ${problems.map((p) => p.message).join('\n  ')}`;
  // what else was found and left out is said too: a first run that stops must not hide the subfolders it did not enter
  const also = leftOut.length > 0 ? `\nAlso found: ${leftOut.join('\n  ')}` : '';
  return new UsageError(`${message}${problems.length === 1 && !others ? '' : '\nNothing was sent.'}${also}`, {
    suggestion: hints.join('\n  '),
  });
}

function noAnswers(roots: string[], left: LeftOut): UsageError {
  if (roots.length === 0) {
    return new UsageError('no answers given', {
      suggestion: 'Pass answer files or folders, - for text on stdin, --text "<answer>", or --files-from <list>.',
    });
  }
  const folder = roots.length > 1 || existsSync(roots[0]);
  const where = roots.length === 1 ? `${folder ? 'the folder' : 'the pattern'} ${roots[0]}` : `the folders ${roots.join(', ')}`;
  const subfolders = left['not-entered'].count;
  return new UsageError(
    `${where} ${roots.length > 1 ? 'hold' : folder ? 'holds' : 'matches'} no answer files (PDF, DOCX, RTF, TXT or images)`,
    {
      suggestion:
        subfolders > 0
          ? `It holds ${subfolders} subfolder${subfolders === 1 ? '' : 's'}: pass --recursive (a learning platform's export puts each student in a folder; add --student-id-from folder).`
          : 'Check the folder; Markdown, hidden and excluded files are never sent from a folder.',
    },
  );
}

function readListing(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read --files-from ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
}
