// A plain zip writer (deflate, no data descriptors) and DOCX packages built with it: enough for
// the extraction limits (extract-limits.test.ts) and the hostile files of the reliability suite,
// including archives that lie about their sizes.
import { crc32, deflateRawSync } from 'node:zlib';

export interface ZipPart {
  name: string;
  content: Buffer;
  /** The uncompressed size written in the headers (default: the real one). */
  declare?: number;
  stored?: boolean;
  /** General purpose bit flags (bit 0: encrypted, bit 6: strong encryption, bit 11: UTF-8 name). */
  flags?: number;
  /** A Unix mode (e.g. 0o120777 for a symbolic link), written as made on Unix. */
  unixMode?: number;
  /** The name's bytes as written, instead of `name` in UTF-8 (a CP437 name). */
  rawName?: Buffer;
}

/** A plain zip (deflate, no data descriptors): enough for the limit checks and for jszip. */
export function zip(parts: ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const p of parts) {
    const name = p.rawName ?? Buffer.from(p.name);
    const data = p.stored ? p.content : deflateRawSync(p.content);
    const size = p.declare ?? p.content.length;
    const crc = crc32(p.content);
    const method = p.stored ? 0 : 8;
    const flags = p.flags ?? 0;
    const madeBy = p.unixMode === undefined ? 20 : (3 << 8) | 20;
    const external = p.unixMode === undefined ? 0 : p.unixMode * 0x10000;
    const local = header(30, [
      [32, 0, 0x04034b50],
      [16, 4, 20],
      [16, 6, flags],
      [16, 8, method],
      [32, 14, crc],
      [32, 18, data.length],
      [32, 22, size],
      [16, 26, name.length],
    ]);
    const central = header(46, [
      [32, 0, 0x02014b50],
      [16, 4, madeBy],
      [16, 6, 20],
      [16, 8, flags],
      [16, 10, method],
      [32, 16, crc],
      [32, 20, data.length],
      [32, 24, size],
      [16, 28, name.length],
      [32, 38, external],
      [32, 42, offset],
    ]);
    locals.push(local, name, data);
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
  }
  const cd = Buffer.concat(centrals);
  const end = header(22, [
    [32, 0, 0x06054b50],
    [16, 8, parts.length],
    [16, 10, parts.length],
    [32, 12, cd.length],
    [32, 16, offset],
  ]);
  return Buffer.concat([...locals, cd, end]);
}

const CONTENT_TYPES = Buffer.from(
  `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
);
const RELS = Buffer.from(
  `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
);
/** word/document.xml with one paragraph of `text`, padded with `padding` bytes of whitespace. */
export const documentXml = (text: string, padding = 0) =>
  Buffer.concat([
    Buffer.from(
      `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>${text}</w:t></w:r></w:p>`,
    ),
    Buffer.alloc(padding, 0x20),
    Buffer.from('</w:body></w:document>'),
  ]);
export const docx = (document: Buffer, extra: ZipPart[] = [], declare?: number) =>
  zip([
    { name: '[Content_Types].xml', content: CONTENT_TYPES },
    { name: '_rels/.rels', content: RELS },
    { name: 'word/document.xml', content: document, ...(declare !== undefined ? { declare } : {}) },
    ...extra,
  ]);

/** A zip header of `size` bytes with each field (16 or 32 bits, little-endian) at its offset. */
function header(size: number, fields: [bits: 16 | 32, offset: number, value: number][]): Buffer {
  const out = Buffer.alloc(size);
  for (const [bits, offset, value] of fields) {
    if (bits === 16) out.writeUInt16LE(value, offset);
    else out.writeUInt32LE(value, offset);
  }
  return out;
}
