#!/usr/bin/env node
// Builds the binary test fixtures in test/fixtures/generated/ (git-ignored) from the committed text
// in test/fixtures/. Runs before every `npm test`: when every output is newer than its sources it
// only compares timestamps, and generator libraries are imported only when something is rebuilt.
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'test', 'fixtures');
const out = join(src, 'generated');
const require = createRequire(join(root, 'package.json'));

const ESSAY = join(src, 'essay.txt');
const SELF = fileURLToPath(import.meta.url);

/** Each output, the sources it is made from, and how. Order matters: scanned.pdf uses essay.png. */
const TARGETS = [
  { name: 'essay.pdf', from: [ESSAY], make: makeEssayPdf },
  { name: 'essay.docx', from: [ESSAY], make: makeEssayDocx },
  { name: 'essay.rtf', from: [ESSAY], make: makeEssayRtf },
  { name: 'essay-latin1.txt', from: [ESSAY], make: makeLatin1 },
  { name: 'essay.png', from: [ESSAY], make: makeEssayPng },
  { name: 'scanned.pdf', from: [join(out, 'essay.png')], make: makeScannedPdf },
  { name: 'blank.pdf', from: [], make: makeBlankPdf },
  { name: 'corrupt.pdf', from: [], make: makeCorruptPdf },
];

function mtime(path) {
  return existsSync(path) ? statSync(path).mtimeMs : -1;
}

async function essay() {
  const text = (await readFile(ESSAY, 'utf8')).replace(/\r\n?/g, '\n').trim();
  const [title, ...paragraphs] = text.split(/\n\s*\n/).map((p) => p.replace(/\s*\n\s*/g, ' ').trim());
  return { text, title, paragraphs };
}

async function pdfToBuffer(build) {
  const { default: PDFDocument } = await import('pdfkit');
  // A fixed date keeps the file the same from one build to the next.
  const doc = new PDFDocument({ size: 'A4', margin: 56, info: { CreationDate: new Date(Date.UTC(2024, 0, 1)) } });
  const chunks = [];
  doc.on('data', (c) => chunks.push(c));
  const done = new Promise((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  build(doc);
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

async function makeEssayPdf() {
  const { title, paragraphs } = await essay();
  return pdfToBuffer((doc) => {
    doc.info.Title = title;
    doc.font('Helvetica-Bold').fontSize(16).text(title);
    doc.moveDown();
    doc.font('Helvetica').fontSize(12);
    for (const p of paragraphs) {
      doc.text(p, { align: 'left' });
      doc.moveDown();
    }
  });
}

async function makeEssayDocx() {
  const { title, paragraphs } = await essay();
  const { Document, Packer, Paragraph, HeadingLevel, TextRun } = await import('docx');
  const doc = new Document({
    creator: 'kct fixtures',
    title,
    sections: [{
      children: [
        new Paragraph({ heading: HeadingLevel.HEADING_1, children: [new TextRun(title)] }),
        ...paragraphs.map((p) => new Paragraph({ children: [new TextRun(p)] })),
      ],
    }],
  });
  return Packer.toBuffer(doc);
}

/** RTF text: ASCII as is, everything else as \uN (a signed 16-bit code unit) with a "?" fallback. */
function rtfEscape(s) {
  let r = '';
  for (let i = 0; i < s.length; i++) {
    const code = s.charCodeAt(i);
    const ch = s[i];
    if (ch === '\\' || ch === '{' || ch === '}') r += `\\${ch}`;
    else if (code < 128) r += ch;
    else r += `\\u${code > 32767 ? code - 65536 : code}?`;
  }
  return r;
}

async function makeEssayRtf() {
  const { title, paragraphs } = await essay();
  // Header groups a naive reader would print as text: font and colour tables, generator, info.
  const head = '{\\rtf1\\ansi\\ansicpg1252\\deff0'
    + '{\\fonttbl{\\f0\\froman\\fcharset0 Times New Roman;}{\\f1\\fswiss\\fcharset0 Arial;}}'
    + '{\\colortbl;\\red0\\green0\\blue0;\\red192\\green0\\blue0;}'
    + '{\\*\\generator kct make-fixtures;}'
    + '{\\info{\\title School uniforms}{\\author A. Student}}'
    + '\\viewkind4\\uc1\\pard\\f0\\fs24\n';
  const body = [`{\\f1\\b\\fs32 ${rtfEscape(title)}\\par}`, ...paragraphs.map((p) => `${rtfEscape(p)}\\par`)].join('\n\\par\n');
  return Buffer.from(`${head}${body}\n}\n`, 'latin1');
}

async function makeLatin1() {
  const iconv = require('iconv-lite');
  return iconv.encode((await essay()).text.replace(/\n/g, '\r\n') + '\r\n', 'windows-1252');
}

/** A TrueType font: one shipped in an npm package if there is one, else a common system font. */
function findFont() {
  const candidates = [];
  try {
    candidates.push(join(dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts', 'LiberationSans-Regular.ttf'));
  } catch { /* pdfjs-dist is not installed */ }
  candidates.push(
    '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
    '/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf',
    '/usr/share/fonts/TTF/DejaVuSans.ttf',
    '/usr/share/fonts/dejavu/DejaVuSans.ttf',
    '/System/Library/Fonts/Supplemental/Arial.ttf',
    'C:\\Windows\\Fonts\\arial.ttf',
  );
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error('no TrueType font found for essay.png (on Debian: apt-get install fonts-dejavu-core)');
  return found;
}

async function makeEssayPng() {
  const { createCanvas, GlobalFonts } = await import('@napi-rs/canvas');
  GlobalFonts.registerFromPath(findFont(), 'FixtureSans');
  const { title, paragraphs } = await essay();
  const width = 1400;
  const margin = 60;
  const size = 26;
  const lineHeight = Math.round(size * 1.45);
  const measure = createCanvas(10, 10).getContext('2d');
  measure.font = `${size}px FixtureSans`;
  const lines = [];
  for (const p of [title, ...paragraphs]) {
    let line = '';
    for (const word of p.split(' ')) {
      const next = line ? `${line} ${word}` : word;
      if (line && measure.measureText(next).width > width - 2 * margin) {
        lines.push(line);
        line = word;
      } else line = next;
    }
    lines.push(line, '');
  }
  lines.pop();
  const canvas = createCanvas(width, 2 * margin + lines.length * lineHeight);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = '#111111';
  ctx.font = `${size}px FixtureSans`;
  ctx.textBaseline = 'top';
  lines.forEach((line, i) => ctx.fillText(line, margin, margin + i * lineHeight));
  return canvas.encode('png');
}

async function makeScannedPdf() {
  const png = await readFile(join(out, 'essay.png'));
  // Nothing but the picture: no text operators at all, as a scanner would make it.
  return pdfToBuffer((doc) => doc.image(png, 56, 56, { fit: [doc.page.width - 112, doc.page.height - 112] }));
}

async function makeBlankPdf() {
  return pdfToBuffer(() => {});
}

async function makeCorruptPdf() {
  // Fixed pseudo-random bytes behind a plausible header: the reader must fail on the body.
  const bytes = Buffer.alloc(4096);
  let x = 0x2545f491;
  for (let i = 0; i < bytes.length; i++) {
    x ^= x << 13; x ^= x >>> 17; x ^= x << 5;
    bytes[i] = x & 0xff;
  }
  return Buffer.concat([Buffer.from('%PDF-1.7\n%garbage follows\n'), bytes]);
}

async function main() {
  const started = Date.now();
  mkdirSync(out, { recursive: true });
  const selfTime = mtime(SELF);
  let made = 0;
  for (const t of TARGETS) {
    const target = join(out, t.name);
    const newest = Math.max(selfTime, ...t.from.map(mtime));
    if (mtime(target) >= newest) continue;
    writeFileSync(target, await t.make());
    made++;
  }
  const ms = Date.now() - started;
  console.log(made === 0
    ? `fixtures: ${TARGETS.length} up to date in test/fixtures/generated (${ms} ms)`
    : `fixtures: built ${made} of ${TARGETS.length} in test/fixtures/generated (${ms} ms)`);
}

main().catch((err) => {
  console.error(`fixtures: failed: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
});
