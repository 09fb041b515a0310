// Reading a zip a teacher downloaded, safely: every entry's name, size, ratio and flags are
// checked from the central directory before a single byte is inflated, and while inflating no
// entry may grow past the size it declared. Any refusal is a UsageError naming the entry.
//
// yauzl's public API only (thejoshwolfe/yauzl 3.x): names are decoded with getFileNameLowLevel in
// strict mode, so a backslash is seen and refused rather than silently turned into '/'.
import { createWriteStream } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type Entry, getFileNameLowLevel, openPromise, type ZipFile } from 'yauzl';
import { UsageError } from '../api/errors.js';

export interface ZipLimits {
  /** Most entries a zip may hold. */
  maxEntries: number;
  /** Most bytes all entries may declare together, uncompressed. */
  maxTotalBytes: number;
  /** Highest uncompressed-to-compressed ratio of one entry larger than `ratioFloorBytes`. */
  maxRatio: number;
  ratioFloorBytes: number;
}

/** A class of 300 with a few files each fits well inside these; a zip bomb does not. */
const ZIP_LIMITS: Readonly<ZipLimits> = {
  maxEntries: 10_000,
  maxTotalBytes: 1024 ** 3,
  maxRatio: 100,
  ratioFloorBytes: 1024 ** 2,
};

export interface ZipEntryInfo {
  /** The entry's name: '/'-separated, a folder ends with '/'. */
  path: string;
  directory: boolean;
  /** Uncompressed size the zip declares. */
  size: number;
  compressedSize: number;
  /** Why the entry is not extracted (macOS metadata), when it is not. */
  skipped?: string;
}

export interface ExtractedZip {
  /** The private folder (mode 0700) holding the extracted entries under their own paths. */
  root: string;
  entries: ZipEntryInfo[];
  /** Removes `root` and everything in it. */
  cleanup(): Promise<void>;
}

const WHAT_TO_DO =
  'Download the submissions again from the platform and give kct that zip as it came; if it came that way, unzip it yourself and give kct the folder.';

/** The zip's entries, all checked against `limits`; nothing is inflated. */
export async function listZipEntries(zipPath: string, limits: Partial<ZipLimits> = {}): Promise<ZipEntryInfo[]> {
  const zip = await openZip(zipPath);
  try {
    return (await inspect(zip, zipPath, { ...ZIP_LIMITS, ...limits })).map(({ info }) => info);
  } finally {
    zip.close();
  }
}

/**
 * Extracts the zip into a new private folder under `tempDir` (default: the system's), after
 * checking every entry. Folders are created (an empty student folder stays visible); macOS
 * metadata (`__MACOSX/`) is listed but not extracted. On any refusal nothing is left behind.
 */
export async function extractZip(zipPath: string, options: { limits?: Partial<ZipLimits>; tempDir?: string } = {}): Promise<ExtractedZip> {
  const zip = await openZip(zipPath);
  let root: string | undefined;
  try {
    const entries = await inspect(zip, zipPath, { ...ZIP_LIMITS, ...options.limits });
    root = await mkdtemp(join(options.tempDir ?? tmpdir(), 'kct-zip-'));
    await chmod(root, 0o700);
    for (const { info, entry } of entries) {
      if (info.skipped) continue;
      const target = resolve(root, info.path);
      if (target !== root && !target.startsWith(root + sep)) throw refusal(zipPath, info.path, 'would be written outside the folder');
      if (info.directory) {
        await mkdir(target, { recursive: true, mode: 0o700 });
        continue;
      }
      await mkdir(resolve(target, '..'), { recursive: true, mode: 0o700 });
      await extractEntry(zip, entry, info, target, zipPath);
    }
    const extractedRoot = root;
    return {
      root: extractedRoot,
      entries: entries.map(({ info }) => info),
      cleanup: () => rm(extractedRoot, { recursive: true, force: true }),
    };
  } catch (error) {
    if (root) await rm(root, { recursive: true, force: true });
    throw error;
  } finally {
    zip.close();
  }
}

async function openZip(zipPath: string): Promise<ZipFile> {
  try {
    return await openPromise(zipPath, {
      lazyEntries: true,
      autoClose: false,
      decodeStrings: false,
      validateEntrySizes: true,
      strictFileNames: true,
    });
  } catch (error) {
    throw new UsageError(`${zipPath} could not be read as a zip: ${(error as Error).message.replace(/\.+$/, '')}.`, {
      suggestion: WHAT_TO_DO,
      cause: error,
    });
  }
}

/** Reads the central directory entry by entry, refusing at the first entry that breaks a rule. */
async function inspect(zip: ZipFile, zipPath: string, limits: ZipLimits): Promise<{ info: ZipEntryInfo; entry: Entry }[]> {
  if (zip.entryCount > limits.maxEntries) {
    throw new UsageError(`${zipPath} holds ${zip.entryCount} entries; kct reads at most ${limits.maxEntries}.`, { suggestion: WHAT_TO_DO });
  }
  const checked: { info: ZipEntryInfo; entry: Entry }[] = [];
  const files = new Set<string>();
  const folders = new Set<string>();
  let total = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      const path = entryName(entry);
      const unsafe = unsafeName(path);
      if (unsafe) throw refusal(zipPath, path, `has ${unsafe}, which could write outside the folder it is extracted to`);
      if (entry.isEncrypted() || (entry.generalPurposeBitFlag & 0x40) !== 0) throw refusal(zipPath, path, 'is encrypted');
      const directory = path.endsWith('/');
      if (isSymlink(entry)) throw refusal(zipPath, path, 'is a symbolic link');
      if (!directory && entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
        throw refusal(zipPath, path, `uses compression method ${entry.compressionMethod}, which kct cannot read`);
      }
      const size = entry.uncompressedSize;
      if (!directory && size > limits.ratioFloorBytes && (entry.compressedSize === 0 || size / entry.compressedSize > limits.maxRatio)) {
        throw refusal(
          zipPath,
          path,
          `would inflate ${entry.compressedSize} bytes to ${size} (more than ${limits.maxRatio} to 1): a zip bomb`,
        );
      }
      total += size;
      if (total > limits.maxTotalBytes) {
        throw new UsageError(
          `${zipPath} declares more than ${limits.maxTotalBytes} bytes once unzipped (reached at "${path}"); kct refuses it.`,
          { suggestion: WHAT_TO_DO },
        );
      }
      const key = directory ? path.slice(0, -1) : path;
      if (files.has(key) || (!directory && folders.has(key)))
        throw refusal(zipPath, path, 'appears twice, or both as a file and as a folder');
      (directory ? folders : files).add(key);
      for (let at = key.indexOf('/'); at >= 0; at = key.indexOf('/', at + 1)) {
        const parent = key.slice(0, at);
        if (files.has(parent)) throw refusal(zipPath, path, `is inside "${parent}", which is a file`);
        folders.add(parent);
      }
      const skipped = /^__MACOSX(\/|$)/.test(path) ? 'macOS metadata' : undefined;
      checked.push({ info: { path, directory, size, compressedSize: entry.compressedSize, ...(skipped ? { skipped } : {}) }, entry });
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const message = (error as Error).message;
    if (/encryption/i.test(message))
      throw new UsageError(`${zipPath} holds an encrypted entry (${message}); kct refuses it.`, { suggestion: WHAT_TO_DO, cause: error });
    throw new UsageError(`${zipPath} is damaged or not a plain zip: ${message.replace(/\.+$/, '')}.`, {
      suggestion: WHAT_TO_DO,
      cause: error,
    });
  }
  return checked;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The entry's name. rubyzip (Canvas's zips) sets the UTF-8 flag only when Zip.unicode_names is on;
 * without it the format says CP437 ("józef" would read "j├│zef"), so a name that is valid UTF-8 is
 * read as UTF-8, as 7-Zip and Info-ZIP do. Strict mode keeps backslashes for unsafeName to see.
 */
function entryName(entry: Entry): string {
  const flagged = (entry.generalPurposeBitFlag & 0x800) !== 0 || entry.extraFields.some((field) => field.id === 0x7075);
  if (!flagged && entry.fileNameRaw.some((byte) => byte >= 0x80)) {
    try {
      return UTF8.decode(entry.fileNameRaw);
    } catch {
      // not UTF-8: CP437, as the flag says
    }
  }
  return getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, true);
}

/** Why `path` is unsafe to extract, or undefined. */
function unsafeName(path: string): string | undefined {
  if (path === '') return 'an empty name';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(path)) return 'control characters in its name';
  if (path.includes('\\')) return 'a backslash in its name';
  if (path.startsWith('/')) return 'an absolute path';
  if (/^[A-Za-z]:/.test(path)) return 'a drive letter';
  const segments = (path.endsWith('/') ? path.slice(0, -1) : path).split('/');
  if (segments.includes('..')) return 'a ".." in its path';
  if (segments.some((s) => s === '' || s === '.')) return 'an empty or "." folder in its path';
  return undefined;
}

/** A Unix symbolic link: made on Unix (version made by, high byte 3) with the S_IFLNK file type. */
function isSymlink(entry: Entry): boolean {
  return entry.versionMadeBy >> 8 === 3 && ((entry.externalFileAttributes >>> 16) & 0o170000) === 0o120000;
}

async function extractEntry(zip: ZipFile, entry: Entry, info: ZipEntryInfo, target: string, zipPath: string): Promise<void> {
  let written = 0;
  const guard = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      written += chunk.length;
      if (written > info.size)
        done(refusal(zipPath, info.path, `holds more than the ${info.size} bytes it declares: a zip bomb or a damaged zip`));
      else done(null, chunk);
    },
  });
  try {
    const stream = await zip.openReadStreamPromise(entry);
    await pipeline(stream, guard, createWriteStream(target, { flags: 'wx', mode: 0o600 }));
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const message = (error as Error).message;
    if (/too many bytes/.test(message))
      throw refusal(zipPath, info.path, `holds more than the ${info.size} bytes it declares: a zip bomb or a damaged zip`);
    throw refusal(zipPath, info.path, `could not be extracted (${message})`);
  }
}

function refusal(zipPath: string, entryPath: string, what: string): UsageError {
  return new UsageError(`${zipPath}: the entry "${entryPath}" ${what}; kct refuses the zip.`, { suggestion: WHAT_TO_DO });
}
