// The walk over what a user names: files, folders (one at a time, names only, natural order) and
// glob patterns the shell did not expand, each thing found yielded with the folder's rules applied
// (hidden, system and Markdown files ignored, --exclude, subfolders entered only when recursive).
// What becomes of each thing found is decided by plan.ts.

import { opendirSync, readdirSync, realpathSync, type Stats, statSync } from 'node:fs';
import { join, normalize, sep } from 'node:path';
import { UsageError } from '../../api/errors.js';
import { isPlainName, naturalOrder, plainOrder } from './natural-order.js';

/** What the walk yields: a file to check, or something left out with its reason. */
export interface Found {
  path: string;
  /** `folder`: a subfolder is entered (its contents follow); `empty` says it holds nothing at all. */
  kind: 'file' | 'ignore' | 'exclude' | 'not-entered' | 'folder' | 'loop';
  /** For a folder entered: it holds nothing at all. */
  empty?: boolean;
  reason?: string;
  /** Relative to its folder argument (posix separators), or the argument as given: what names it in a key (Answer.keyName). */
  keyName: string;
  /** Index of the folder or glob argument it came from; undefined for a file named directly. */
  root?: number;
  /** It came from a glob pattern (its path is as the glob gave it, not its folder joined to its key name). */
  glob?: boolean;
  /** The first folder level under that argument, for --student-id-from folder and --group-by folder. */
  group?: string;
  info?: Stats;
  /** A link, found in a folder, to a file that does not exist. */
  dangling?: boolean;
  /** A subfolder that cannot be read, and why (its error code): a thing that cannot be sent, as an unreadable file is. */
  unreadable?: string;
}

const MARKDOWN = /\.(md|markdown)$/i;
/** Files an operating system or an editor leaves in folders: never answers. */
const SYSTEM_FILES = new Set(['thumbs.db', 'desktop.ini', 'ehthumbs.db', 'icon\r']);
const SYSTEM_FOLDERS = new Set(['__macosx']);
const GLOB_MAGIC = /[*?[\]{}]/;

const FILE = 0;
const FOLDER = 1;
const LINK = 2;

const posix = (path: string) => path.split(sep).join('/');

/** Matches of a glob pattern under a folder: files, and folders (ending with "/") the pattern itself matches. */
export type GlobSync = (pattern: string, cwd: string) => string[];

export interface WalkOptions {
  recursive: boolean;
  /** With `recursive`: the deepest folder level entered (1: the folders directly in the one named); all when absent. */
  depth?: number;
  /** Whether a path relative to its folder argument (or as given) matches --exclude. */
  exclude: (path: string, isFolder: boolean) => boolean;
}

/**
 * Walks what was named, in order: a file is itself; a folder is its files by name (natural
 * order), entering subfolders only when recursive; an argument that does not exist but holds
 * glob characters is expanded. Folders are read one at a time, so a huge class holds only names.
 * Each folder or glob argument is pushed to `roots` as it is reached (Found.root is its index).
 */
export function* walkInputs(inputs: string[], options: WalkOptions & { roots: string[]; globSync?: GlobSync }): Generator<Found> {
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
    const keyName = posix(normalize(input));
    yield options.exclude(keyName, false)
      ? { path: input, kind: 'exclude', reason: 'matched --exclude', keyName }
      : { path: input, kind: 'file', keyName, info };
  }
}

function* walkFolder(folder: string, rel: string, root: number, options: WalkOptions, visited: Set<string>): Generator<Found> {
  const here = join(folder, rel);
  const group = (name: string) => (rel === '' ? name : rel.split('/')[0]);
  const real = realOrUndefined(here);
  if (real !== undefined && visited.has(real)) {
    // a link back into a folder already walked (or a folder named twice): said, never silent
    yield {
      path: `${here}${sep}`,
      kind: 'loop',
      reason: `the same folder as ${real}, already walked: not walked again`,
      keyName: rel === '' ? posix(normalize(folder)) : rel,
      root,
      group: rel === '' ? undefined : group(rel),
    };
    return;
  }
  if (real !== undefined) visited.add(real);
  const read = readNames(here, rel === '');
  if ('unreadable' in read) {
    // a subfolder that cannot be read is one thing that cannot be sent (plan.ts), not the end of the run
    yield { path: `${here}${sep}`, kind: 'folder', keyName: rel, root, group: group(rel), empty: false };
    yield { path: `${here}${sep}`, kind: 'file', keyName: rel, root, group: group(rel), unreadable: read.unreadable };
    return;
  }
  const { names, kinds } = read;
  // a subfolder entered is itself an outcome: a student folder with nothing to send is a row
  if (rel !== '') yield { path: `${here}${sep}`, kind: 'folder', keyName: rel, root, group: group(rel), empty: names.length === 0 };
  const compare = names.every(isPlainName) ? plainOrder : naturalOrder;
  const order = Array.from(names.keys()).sort((a, b) => compare(names[a], names[b]));
  const subfolders: string[] = [];
  for (const index of order) {
    const name = names[index];
    const keyName = rel === '' ? name : `${rel}/${name}`;
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
    const base = { path, keyName, root, group: rel === '' && !isFolder ? undefined : group(name), ...(dangling ? { dangling } : {}) };
    const rule = folderRule(name, isFolder, keyName, options);
    if (rule === 'enter') subfolders.push(keyName);
    else yield { ...base, ...rule };
  }
  for (const sub of subfolders) yield* walkFolder(folder, sub, root, options, visited);
}

function realOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined; // unreadable: readNames says why
  }
}

/**
 * A folder's names and kinds only: a folder of 100,000 answers holds its names, not 100,000 Dirents.
 * A folder named by the user that cannot be read stops the run; a subfolder found in it is `unreadable`.
 */
function readNames(here: string, named: boolean): { names: string[]; kinds: Uint8Array } | { unreadable: string } {
  try {
    // read a few entries at a time (readdir would hold every entry at once, natively and in JS)
    const dir = opendirSync(here, { bufferSize: 256 });
    const kinds: number[] = [];
    const names: string[] = [];
    try {
      for (let entry = dir.readSync(); entry !== null; entry = dir.readSync()) {
        names.push(entry.name);
        kinds.push(entry.isDirectory() ? FOLDER : entry.isSymbolicLink() ? LINK : FILE);
      }
    } finally {
      dir.closeSync();
    }
    return { names, kinds: Uint8Array.from(kinds) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    if (!named) return { unreadable: code };
    throw new UsageError(`cannot read the folder ${here} (${code})`, { suggestion: 'Check its permissions.' });
  }
}

/** A folder's rules for one thing in it: left out (with the reason), entered, or a file to check. */
function folderRule(name: string, isFolder: boolean, keyName: string, options: WalkOptions): Pick<Found, 'kind' | 'reason'> | 'enter' {
  if (name.startsWith('.')) return { kind: 'ignore', reason: isFolder ? 'hidden folder' : 'hidden file' };
  if (isFolder && SYSTEM_FOLDERS.has(name.toLowerCase())) return { kind: 'ignore', reason: 'system folder' };
  if (!isFolder && (SYSTEM_FILES.has(name.toLowerCase()) || name.startsWith('~$'))) return { kind: 'ignore', reason: 'system file' };
  if (options.exclude(keyName, isFolder)) return { kind: 'exclude', reason: 'matched --exclude' };
  if (isFolder)
    return options.recursive && (options.depth === undefined || keyName.split('/').length <= options.depth)
      ? 'enter'
      : { kind: 'not-entered', reason: 'subfolder (pass --recursive)' };
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
  for (const match of matches.sort(naturalOrder)) {
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
        yield { ...found, keyName: posix(found.path), glob: true };
    } else {
      yield { path, keyName: posix(path), root, glob: true, ...rule };
    }
  }
}

/** The glob expander, when a named input is a pattern the shell did not expand (Windows shells, quotes); picomatch loads only then. */
export async function globberFor(named: readonly string[], exists: (path: string) => boolean): Promise<GlobSync | undefined> {
  if (!named.some((input) => GLOB_MAGIC.test(input) && !exists(input))) return undefined;
  return globber((await import('picomatch')).default);
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
      const real = realOrUndefined(folder);
      if (real === undefined || walked.has(real)) return;
      walked.add(real);
      for (const { name, folder: isFolder } of globNames(folder)) {
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

/** A folder's entries for a glob, links followed (a link to nothing is left out); none when it cannot be read. */
function globNames(folder: string): { name: string; folder: boolean }[] {
  try {
    return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
      if (!entry.isSymbolicLink()) return [{ name: entry.name, folder: entry.isDirectory() }];
      try {
        return [{ name: entry.name, folder: statSync(join(folder, entry.name)).isDirectory() }];
      } catch {
        return [];
      }
    });
  } catch {
    return [];
  }
}

/** The --exclude test, built once; picomatch loads only when there are patterns. */
export async function excluder(patterns: string[]): Promise<WalkOptions['exclude']> {
  if (patterns.length === 0) return () => false;
  for (const pattern of patterns) {
    // a negation would leave out everything else: what to keep is what is named, not what is excluded
    if (pattern.startsWith('!'))
      throw new UsageError(`--exclude ${pattern}: a pattern that starts with ! would leave out everything it does not match`, {
        suggestion: 'Name the folder to mark instead (kct one-pass class/9B), or exclude what to leave out (--exclude "drafts/**").',
      });
  }
  // the folder given is the root: "/drafts/**" and "./drafts/**" mean "drafts/**"; Windows users type \ for /
  const rooted = patterns.map((pattern) => (sep === '\\' ? pattern.replaceAll('\\', '/') : pattern).replace(/^(?:\.?\/)+/, ''));
  const { default: picomatch } = await import('picomatch');
  // a pattern without a slash matches a name at any depth ("*.docx"); "drafts" also leaves out the
  // folder. One with a slash matches the path from the folder given ("West/10C/**"): picomatch's
  // basename option would match it against nothing, so the two kinds are matched apart.
  const names = rooted.filter((pattern) => !pattern.includes('/'));
  const paths = rooted.filter((pattern) => pattern.includes('/'));
  const byName = names.length > 0 ? picomatch(names, { dot: true, basename: true }) : () => false;
  const byPath = paths.length > 0 ? picomatch(paths, { dot: true }) : () => false;
  const match = (path: string) => byName(path) || byPath(path);
  return (path, isFolder) => match(path) || (isFolder && match(`${path}/`));
}
