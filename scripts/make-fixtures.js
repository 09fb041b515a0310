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
const MIDDLING = join(src, 'essay-middling.txt');
const GRADED = join(src, 'graded');
const SELF = fileURLToPath(import.meta.url);
const graded = (set, name) => join(GRADED, set, `${name}.txt`);

/** Paragraphs of the essay in essay-opening.png, after its title (test/unit/extract.test.ts reads the same). */
const OPENING = 2;

/** Each output, the sources it is made from, and how. Order matters: a scanned PDF uses its PNG. */
const TARGETS = [
  { name: 'essay.pdf', from: [ESSAY], make: makeEssayPdf },
  { name: 'essay.docx', from: [ESSAY], make: makeEssayDocx },
  { name: 'essay.rtf', from: [ESSAY], make: makeEssayRtf },
  { name: 'essay-latin1.txt', from: [ESSAY], make: makeLatin1 },
  { name: 'essay.png', from: [ESSAY], make: makeEssayPng },
  { name: 'scanned.pdf', from: [join(out, 'essay.png')], make: () => makeScannedPdf('essay.png') },
  // The essay's title and first two paragraphs: what the OCR tests read (a third of the page's time);
  // the whole page stays for bench/ocr.js.
  { name: 'essay-opening.png', from: [ESSAY], make: () => makeEssayPng(OPENING) },
  { name: 'scanned-opening.pdf', from: [join(out, 'essay-opening.png')], make: () => makeScannedPdf('essay-opening.png') },
  { name: 'blank.pdf', from: [], make: makeBlankPdf },
  { name: 'corrupt.pdf', from: [], make: makeCorruptPdf },
  // Answers of the labelled set laid out as a student's word processor would save them.
  { name: 'graded-strong.pdf', from: [graded('persuasive', 'strong-1')], make: () => makeLetterPdf(graded('persuasive', 'strong-1')) },
  { name: 'graded-ragged.pdf', from: [graded('mice-and-men', 'strong-1')], make: () => makeRaggedPdf(graded('mice-and-men', 'strong-1')) },
  {
    name: 'graded-middling.docx',
    from: [graded('persuasive', 'middling-1')],
    make: () => makeGradedDocx(graded('persuasive', 'middling-1')),
  },
  // A student's Word essay with 17 misspelt words in 206 (issue 35): the slips the grader counts.
  { name: 'misspelt-uniforms.docx', from: [join(src, 'real', 'misspelt-uniforms.txt')], make: makeMisspeltDocx },
  // A student's Word essay with a pros/cons table: 212 words, every one of them marked (issue 21).
  { name: 'essay-middling.docx', from: [MIDDLING], make: makeMiddlingDocx },
  {
    name: 'graded-paragraphs.rtf',
    from: [graded('persuasive', 'middling-3')],
    make: () => makeGradedRtf(graded('persuasive', 'middling-3')),
  },
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
    sections: [
      {
        children: [
          new Paragraph({ heading: HeadingLevel.HEADING_1, children: [new TextRun(title)] }),
          ...paragraphs.map((p) => new Paragraph({ children: [new TextRun(p)] })),
        ],
      },
    ],
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
  const head =
    '{\\rtf1\\ansi\\ansicpg1252\\deff0' +
    '{\\fonttbl{\\f0\\froman\\fcharset0 Times New Roman;}{\\f1\\fswiss\\fcharset0 Arial;}}' +
    '{\\colortbl;\\red0\\green0\\blue0;\\red192\\green0\\blue0;}' +
    '{\\*\\generator kct make-fixtures;}' +
    '{\\info{\\title School uniforms}{\\author A. Student}}' +
    '\\viewkind4\\uc1\\pard\\f0\\fs24\n';
  const body = [`{\\f1\\b\\fs32 ${rtfEscape(title)}\\par}`, ...paragraphs.map((p) => `${rtfEscape(p)}\\par`)].join('\n\\par\n');
  return Buffer.from(`${head}${body}\n}\n`, 'latin1');
}

/** A labelled answer: its first block is a title when it is one short line without a full stop. */
async function answer(path) {
  const blocks = (await readFile(path, 'utf8'))
    .replace(/\r\n?/g, '\n')
    .trim()
    .split(/\n\s*\n/)
    .map((b) => b.trim());
  const titled = !blocks[0].includes('\n') && blocks[0].split(' ').length <= 10 && !/[.,]$/.test(blocks[0]);
  return { title: titled ? blocks[0] : undefined, paragraphs: titled ? blocks.slice(1) : blocks };
}

/**
 * Two pages as a word processor prints them: a running header and "Page n of m" on every page,
 * first-line indents and no space between paragraphs, justified, so only the indents and the
 * short last lines say where a paragraph ends; one paragraph runs on over the page break.
 */
async function makeLetterPdf(path) {
  const { paragraphs } = await answer(path);
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A5',
    margins: { top: 60, bottom: 60, left: 50, right: 50 },
    bufferPages: true,
    info: { CreationDate: new Date(Date.UTC(2024, 0, 1)) },
  });
  const chunks = [];
  doc.on('data', (c) => chunks.push(c));
  const done = new Promise((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  doc.font('Times-Bold').fontSize(15).text('Keep Our Uniform', { align: 'center' });
  doc.moveDown(0.8);
  doc.font('Times-Roman').fontSize(11);
  for (const p of paragraphs) {
    // A letter's salutation and sign-off keep their own lines.
    if (p.includes('\n') || p.length < 60) doc.text(p, { align: 'left' });
    else doc.text(p, { align: 'justify', indent: 22 });
  }
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // Drawn last, as word processors often do: furniture is found by position, not by order.
    doc.page.margins.bottom = 0;
    doc.font('Helvetica').fontSize(8);
    doc.text('Priya Sharma - Year 9 English - Persuasive writing', 50, 30, { lineBreak: false });
    doc.text(`Page ${i + 1} of ${range.count}`, 50, doc.page.height - 40, {
      align: 'center',
      width: doc.page.width - 100,
      lineBreak: false,
    });
  }
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

/** Left-aligned, no indents, no space between paragraphs: the short last line is the only sign. */
async function makeRaggedPdf(path) {
  const { paragraphs } = await answer(path);
  return pdfToBuffer((doc) => {
    doc.font('Helvetica').fontSize(11);
    for (const p of paragraphs) doc.text(p, { align: 'left' });
  });
}

/** Title style, a header and a footer with the page number, a footnote, and a sign-off with line breaks. */
/** A plain Word document, one paragraph per block of the text, as a student types it. */
async function makeMisspeltDocx() {
  const { paragraphs } = await answer(join(src, 'real', 'misspelt-uniforms.txt'));
  const { Document, Packer, Paragraph, TextRun } = await import('docx');
  const doc = new Document({
    creator: 'kct fixtures',
    sections: [{ children: paragraphs.map((p) => new Paragraph({ children: [new TextRun(p)] })) }],
  });
  return Packer.toBuffer(doc);
}

async function makeGradedDocx(path) {
  const { title, paragraphs } = await answer(path);
  const d = await import('docx');
  const lines = (text) => text.split('\n').map((line, i) => new d.TextRun({ text: line, break: i > 0 ? 1 : 0 }));
  const body = paragraphs.map(
    (p, i) =>
      new d.Paragraph({
        children: i === 2 ? [...lines(p), new d.FootnoteReferenceRun(1)] : lines(p),
      }),
  );
  const doc = new d.Document({
    creator: 'kct fixtures',
    footnotes: { 1: { children: [new d.Paragraph("My cousin's school in Leeds.")] } },
    sections: [
      {
        headers: { default: new d.Header({ children: [new d.Paragraph('Year 9 English: persuasive writing')] }) },
        footers: {
          default: new d.Footer({
            children: [new d.Paragraph({ children: [new d.TextRun('Page '), new d.TextRun({ children: [d.PageNumber.CURRENT] })] })],
          }),
        },
        children: [
          new d.Paragraph({ style: 'Title', children: [new d.TextRun(title ?? 'Essay')] }),
          new d.Paragraph({ heading: d.HeadingLevel.HEADING_2, children: [new d.TextRun('My view')] }),
          ...body,
        ],
      },
    ],
  });
  return d.Packer.toBuffer(doc);
}

/** Paragraphs, and a table for each block of "| a | b |" lines, its first row the header. */
async function makeMiddlingDocx() {
  const blocks = (await readFile(MIDDLING, 'utf8'))
    .replace(/\r\n?/g, '\n')
    .trim()
    .split(/\n\s*\n/);
  const d = await import('docx');
  const cell = (text) => new d.TableCell({ children: [new d.Paragraph(text)] });
  const children = blocks.map((b) => {
    if (!b.startsWith('|')) return new d.Paragraph(b.replace(/\s*\n\s*/g, ' '));
    const rows = b.split('\n').map((line) => line.replace(/^\|\s*|\s*\|$/g, '').split(/\s*\|\s*/));
    return new d.Table({ rows: rows.map((cells, i) => new d.TableRow({ tableHeader: i === 0, children: cells.map(cell) })) });
  });
  return d.Packer.toBuffer(new d.Document({ creator: 'kct fixtures', sections: [{ children }] }));
}

/**
 * RTF as a word processor writes it: one \par per paragraph (no empty ones between), spacing from
 * \sa, a bold 16 pt title, a heading style in the stylesheet, a page-number footer.
 */
async function makeGradedRtf(path) {
  const { title, paragraphs } = await answer(path);
  const head =
    '{\\rtf1\\ansi\\ansicpg1252\\deff0' +
    '{\\fonttbl{\\f0\\froman\\fcharset0 Times New Roman;}}' +
    '{\\stylesheet{\\s0 Normal;}{\\s1\\b\\fs28 heading 1;}}' +
    '{\\footer\\pard\\qc Page {\\field{\\*\\fldinst PAGE}{\\fldrslt 1}}\\par}' +
    '\\uc1\\pard\\sa200\\f0\\fs24\n';
  const body = [
    `{\\pard\\s1\\b\\fs32 ${rtfEscape(title ?? 'Essay')}\\par}`,
    ...paragraphs.map((p) => `\\pard\\sa200 ${rtfEscape(p)}\\par`),
  ].join('\n');
  return Buffer.from(`${head}${body}\n}\n`, 'latin1');
}

async function makeLatin1() {
  const iconv = require('iconv-lite');
  return iconv.encode(`${(await essay()).text.replace(/\n/g, '\r\n')}\r\n`, 'windows-1252');
}

/** A TrueType font: one shipped in an npm package if there is one, else a common system font. */
function findFont() {
  const candidates = [];
  try {
    candidates.push(join(dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts', 'LiberationSans-Regular.ttf'));
  } catch {
    /* pdfjs-dist is not installed */
  }
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

async function makeEssayPng(count = Infinity) {
  const { createCanvas, GlobalFonts } = await import('@napi-rs/canvas');
  GlobalFonts.registerFromPath(findFont(), 'FixtureSans');
  const { title, paragraphs: all } = await essay();
  const paragraphs = all.slice(0, count);
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
  for (const [i, line] of lines.entries()) ctx.fillText(line, margin, margin + i * lineHeight);
  return canvas.encode('png');
}

async function makeScannedPdf(name) {
  const png = await readFile(join(out, name));
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
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
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
  console.log(
    made === 0
      ? `fixtures: ${TARGETS.length} up to date in test/fixtures/generated (${ms} ms)`
      : `fixtures: built ${made} of ${TARGETS.length} in test/fixtures/generated (${ms} ms)`,
  );
}

main().catch((err) => {
  console.error(`fixtures: failed: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
});
