// How big a zip (a .docx) is once unpacked, found before anything unpacks it in memory. The
// central directory gives every entry's declared size; each entry is then inflated as a stream
// that is counted and thrown away, so an archive that lies about its sizes is caught too, in
// constant memory, before mammoth (through jszip) inflates the parts it reads into memory.
import { createInflateRaw, inflateRawSync } from 'node:zlib';

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

/** Why a zip cannot be read as one; the caller words it for the sender. */
class ZipFormatError extends Error {}

export class ZipLimitError extends Error {}

const EOCD_SIG = 0x06054b50;
const ZIP64_LOCATOR_SIG = 0x07064b50;
const ZIP64_EOCD_SIG = 0x06064b50;
const CENTRAL_SIG = 0x02014b50;
const LOCAL_SIG = 0x04034b50;
const MAX_EOCD_SEARCH = 22 + 0xffff;
const STORED = 0;
const DEFLATED = 8;

function u64(buf: Buffer, at: number): number {
  const value = buf.readBigUInt64LE(at);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new ZipFormatError('a ZIP64 size or offset is out of range');
  return Number(value);
}

function need(buf: Buffer, at: number, length: number, what: string): void {
  if (at < 0 || at + length > buf.length) throw new ZipFormatError(`the ${what} lies outside the file`);
}

/** Where the central directory is and how many entries it lists (ZIP64 included). */
function directory(buf: Buffer): { offset: number; entries: number } {
  const floor = Math.max(0, buf.length - MAX_EOCD_SEARCH);
  let eocd = -1;
  for (let i = buf.length - 22; i >= floor; i--) {
    if (buf.readUInt32LE(i) === EOCD_SIG) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new ZipFormatError('it is not a zip archive (no end of central directory)');
  let entries = buf.readUInt16LE(eocd + 10);
  let offset = buf.readUInt32LE(eocd + 16);
  if (entries === 0xffff || offset === 0xffffffff) {
    const locator = eocd - 20;
    need(buf, locator, 20, 'ZIP64 locator');
    if (buf.readUInt32LE(locator) !== ZIP64_LOCATOR_SIG) throw new ZipFormatError('its ZIP64 locator is missing');
    const record = u64(buf, locator + 8);
    need(buf, record, 56, 'ZIP64 directory record');
    if (buf.readUInt32LE(record) !== ZIP64_EOCD_SIG) throw new ZipFormatError('its ZIP64 directory record is damaged');
    entries = u64(buf, record + 32);
    offset = u64(buf, record + 48);
  }
  return { offset, entries };
}

/**
 * The entries of a zip held in memory, as its central directory declares them. Refuses more
 * than `maxEntries` entries before reading them.
 */
function zipEntries(buf: Buffer, maxEntries: number): ZipEntry[] {
  const { offset, entries: count } = directory(buf);
  if (count > maxEntries) throw new ZipLimitError(`it holds ${count} parts, over the limit of ${maxEntries}`);
  const entries: ZipEntry[] = [];
  let at = offset;
  for (let n = 0; n < count; n++) {
    need(buf, at, 46, 'central directory');
    if (buf.readUInt32LE(at) !== CENTRAL_SIG) throw new ZipFormatError('its central directory is damaged');
    const method = buf.readUInt16LE(at + 10);
    let compressedSize = buf.readUInt32LE(at + 20);
    let uncompressedSize = buf.readUInt32LE(at + 24);
    const nameLength = buf.readUInt16LE(at + 28);
    const extraLength = buf.readUInt16LE(at + 30);
    const commentLength = buf.readUInt16LE(at + 32);
    let localHeaderOffset = buf.readUInt32LE(at + 42);
    need(buf, at + 46, nameLength + extraLength, 'central directory');
    const name = buf.toString('utf8', at + 46, at + 46 + nameLength);
    // ZIP64: a field at its maximum is in the 0x0001 extra field, in this order, when present.
    if (uncompressedSize === 0xffffffff || compressedSize === 0xffffffff || localHeaderOffset === 0xffffffff) {
      const extra = buf.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength);
      for (let e = 0; e + 4 <= extra.length; ) {
        const id = extra.readUInt16LE(e);
        const size = extra.readUInt16LE(e + 2);
        if (id === 0x0001) {
          let p = e + 4;
          const next = () => {
            need(extra, p, 8, 'ZIP64 extra field');
            const v = u64(extra, p);
            p += 8;
            return v;
          };
          if (uncompressedSize === 0xffffffff) uncompressedSize = next();
          if (compressedSize === 0xffffffff) compressedSize = next();
          if (localHeaderOffset === 0xffffffff) localHeaderOffset = next();
          break;
        }
        e += 4 + size;
      }
    }
    entries.push({ name, method, compressedSize, uncompressedSize, localHeaderOffset });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** The compressed bytes of an entry (after its local header). */
function compressedData(buf: Buffer, entry: ZipEntry): Buffer {
  const at = entry.localHeaderOffset;
  need(buf, at, 30, `local header of "${entry.name}"`);
  if (buf.readUInt32LE(at) !== LOCAL_SIG) throw new ZipFormatError(`the local header of "${entry.name}" is damaged`);
  const start = at + 30 + buf.readUInt16LE(at + 26) + buf.readUInt16LE(at + 28);
  need(buf, start, entry.compressedSize, `data of "${entry.name}"`);
  return buf.subarray(start, start + entry.compressedSize);
}

/**
 * How many bytes an entry really inflates to, counting at most `limit`: inflation stops (and
 * this resolves `limit + 1`) as soon as the output goes past it. Nothing is kept.
 */
function inflatedSize(data: Buffer, limit: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let size = 0;
    let over = false;
    const inflate = createInflateRaw();
    inflate.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit && !over) {
        over = true;
        inflate.destroy();
        resolve(limit + 1);
      }
    });
    inflate.on('error', (err) => {
      if (!over) reject(new ZipFormatError(`a part cannot be inflated (${err.message})`));
    });
    inflate.on('end', () => resolve(size));
    inflate.end(data);
  });
}

export interface UnpackedLimits {
  /** Parts in the archive. */
  entries: number;
  /** Bytes of all parts once inflated. */
  totalBytes: number;
  /** Bytes of one named part once inflated. */
  partBytes?: { name: string; bytes: number };
}

const mb = (bytes: number) => `${Math.ceil(bytes / (1024 * 1024))} MB`;

/**
 * Throws a ZipLimitError naming the limit when the archive would unpack past one (by its
 * declared sizes, or by what its parts really inflate to), or a ZipFormatError when it is not a
 * readable zip. Parts stored with a method other than store/deflate are left to the reader.
 */
export async function checkUnpackedSize(buf: Buffer, limits: UnpackedLimits): Promise<void> {
  const entries = zipEntries(buf, limits.entries);
  const partLimit = (e: ZipEntry) => (limits.partBytes && e.name === limits.partBytes.name ? limits.partBytes.bytes : Infinity);
  // A declared size is exact; a counted one stops just past the limit.
  const size = (bytes: number, limit: number, declared: boolean) => (declared ? mb(bytes) : `more than ${mb(limit)}`);
  const partOver = (e: ZipEntry, bytes: number, declared: boolean) =>
    new ZipLimitError(`its part ${e.name} unpacks to ${size(bytes, partLimit(e), declared)}, over the limit of ${mb(partLimit(e))}`);
  const totalOver = (bytes: number, declared: boolean) =>
    new ZipLimitError(`its parts unpack to ${size(bytes, limits.totalBytes, declared)} in all, over the limit of ${mb(limits.totalBytes)}`);

  let declared = 0;
  for (const e of entries) {
    if (e.uncompressedSize > partLimit(e)) throw partOver(e, e.uncompressedSize, true);
    declared += e.uncompressedSize;
  }
  if (declared > limits.totalBytes) throw totalOver(declared, true);

  // The declared sizes may lie: count what each part really inflates to.
  let actual = 0;
  for (const e of entries) {
    const data = compressedData(buf, e);
    let real: number;
    if (e.method === STORED) real = data.length;
    else if (e.method === DEFLATED) real = await inflatedSize(data, Math.min(partLimit(e), limits.totalBytes - actual));
    else continue;
    if (real > partLimit(e)) throw partOver(e, real, false);
    actual += real;
    if (actual > limits.totalBytes) throw totalOver(actual, false);
  }
}

/**
 * The parts whose names `wanted` accepts, inflated. Call it after `checkUnpackedSize`, which
 * bounds what they inflate to; parts stored with another method than store/deflate are skipped.
 */
export function readParts(buf: Buffer, wanted: (name: string) => boolean, maxEntries: number): { name: string; data: Buffer }[] {
  return zipEntries(buf, maxEntries)
    .filter((e) => wanted(e.name) && (e.method === STORED || e.method === DEFLATED))
    .map((e) => {
      const data = compressedData(buf, e);
      return { name: e.name, data: e.method === STORED ? data : inflateRawSync(data) };
    });
}
