#!/usr/bin/env node
// Builds the example question paper and rubric in examples/ as PDF and DOCX from their committed
// text sources (examples/question-paper.txt, examples/rubric.txt). The generated files are
// committed too (the demo and the tests use them); run this after editing a text source:
//   node scripts/make-examples.js            rebuild all
//   node scripts/make-examples.js --check    exit 1 when an output is missing or older than its source
// Needs the devDependencies pdfkit and docx.
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = join(root, 'examples');
const SOURCES = ['question-paper', 'rubric'];
// A fixed date keeps the PDFs byte-for-byte the same from one build to the next.
const FIXED_DATE = new Date(Date.UTC(2025, 0, 6));

/** Lines of a source: the first is the title; an empty line separates blocks. */
async function lines(name) {
  const text = (await readFile(join(dir, `${name}.txt`), 'utf8')).replace(/\r\n?/g, '\n').trim();
  return text.split('\n').map((l) => l.trimEnd());
}

/** Headings are set in bold: the title, "Instructions", "Section A: ...", and numbered criteria of the rubric. */
function isHeading(line, index, name) {
  if (index === 0) return true;
  if (/^(?:Instructions|Section [A-Z]\b)/.test(line)) return true;
  return name === 'rubric' && /^\d+\.\s.+\(\d+ marks?\)$/.test(line);
}

async function makePdf(name) {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: 64,
    info: { CreationDate: FIXED_DATE, ModDate: FIXED_DATE, Title: name, Producer: 'kct make-examples', Creator: 'kct make-examples' },
  });
  const chunks = [];
  doc.on('data', (c) => chunks.push(c));
  const done = new Promise((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  const all = await lines(name);
  all.forEach((line, i) => {
    if (line === '') {
      doc.moveDown(0.8);
      return;
    }
    if (i === 0) doc.font('Helvetica-Bold').fontSize(15);
    else if (isHeading(line, i, name)) doc.font('Helvetica-Bold').fontSize(11.5);
    else doc.font('Helvetica').fontSize(11);
    const bullet = /^- /.test(line);
    doc.text(line, { indent: bullet ? 14 : 0, paragraphGap: 2 });
  });
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

async function makeDocx(name) {
  const { Document, Packer, Paragraph, HeadingLevel, TextRun } = await import('docx');
  const all = await lines(name);
  const children = [];
  all.forEach((line, i) => {
    if (line === '') return;
    if (i === 0) children.push(new Paragraph({ heading: HeadingLevel.HEADING_1, children: [new TextRun(line)] }));
    else if (isHeading(line, i, name)) children.push(new Paragraph({ heading: HeadingLevel.HEADING_2, children: [new TextRun(line)] }));
    else children.push(new Paragraph({ children: [new TextRun(line)], ...(/^- /.test(line) ? { indent: { left: 360 } } : {}) }));
  });
  const doc = new Document({ creator: 'kct make-examples', title: all[0], sections: [{ children }] });
  return Packer.toBuffer(doc);
}

const mtime = (p) => (existsSync(p) ? statSync(p).mtimeMs : -1);

async function main() {
  const check = process.argv.includes('--check');
  const stale = [];
  for (const name of SOURCES) {
    const source = join(dir, `${name}.txt`);
    for (const [ext, make] of [
      ['pdf', makePdf],
      ['docx', makeDocx],
    ]) {
      const target = join(dir, `${name}.${ext}`);
      if (check) {
        if (mtime(target) < mtime(source)) stale.push(`${name}.${ext}`);
        continue;
      }
      writeFileSync(target, await make(name));
      console.log(`examples: wrote examples/${name}.${ext}`);
    }
  }
  if (check && stale.length > 0) {
    console.error(`examples: out of date: ${stale.join(', ')} (run node scripts/make-examples.js)`);
    process.exit(1);
  }
}

main().catch((err) => {
  console.error(`examples: failed: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
});
