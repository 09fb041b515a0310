// A document model (document-model.ts) written as a student's word processor would save it:
// DOCX with the `docx` package, PDF with `pdfkit`, RTF and plain text by hand.
import * as d from 'docx';
import { type DocModel, modelText } from './document-model.js';

export async function writeDocx(m: DocModel): Promise<Buffer> {
  const para = (text: string) => new d.Paragraph({ children: [new d.TextRun(text)] });
  const footnotes: Record<number, { children: d.Paragraph[] }> = {};
  const children: (d.Paragraph | d.Table | d.Textbox)[] = [];
  if (m.title !== undefined) children.push(new d.Paragraph({ style: 'Title', children: [new d.TextRun(m.title)] }));
  children.push(...m.cover.map(para));
  for (const e of m.elements) {
    if (e.kind === 'paragraph') children.push(para(e.text));
    else if (e.kind === 'heading') children.push(new d.Paragraph({ heading: d.HeadingLevel.HEADING_2, children: [new d.TextRun(e.text)] }));
    else if (e.kind === 'table')
      children.push(
        new d.Table({ rows: e.rows.map((r) => new d.TableRow({ children: r.map((c) => new d.TableCell({ children: [para(c)] })) })) }),
      );
    else if (e.kind === 'list')
      children.push(
        ...e.items.map(
          (text) => new d.Paragraph(e.ordered ? { text, numbering: { reference: 'numbers', level: 0 } } : { text, bullet: { level: 0 } }),
        ),
      );
    else if (e.kind === 'textbox') children.push(new d.Textbox({ children: [para(e.text)], style: { width: '200pt', height: 'auto' } }));
    else {
      const id = Object.keys(footnotes).length + 1;
      footnotes[id] = { children: [para(e.note)] };
      children.push(new d.Paragraph({ children: [new d.TextRun(e.text), new d.FootnoteReferenceRun(id)] }));
    }
  }
  const doc = new d.Document({
    creator: 'kct property tests',
    footnotes,
    numbering: {
      config: [
        { reference: 'numbers', levels: [{ level: 0, format: d.LevelFormat.DECIMAL, text: '%1.', alignment: d.AlignmentType.START }] },
      ],
    },
    sections: [
      {
        ...(m.header !== undefined ? { headers: { default: new d.Header({ children: [para(m.header)] }) } } : {}),
        // The page number is a field with no text written: Word computes it when it shows the page.
        ...(m.footer !== undefined
          ? {
              footers: {
                default: new d.Footer({
                  children: [
                    new d.Paragraph({ children: [new d.TextRun(`${m.footer} `), new d.TextRun({ children: [d.PageNumber.CURRENT] })] }),
                  ],
                }),
              },
            }
          : {}),
        children,
      },
    ],
  });
  return d.Packer.toBuffer(doc);
}

/** The pdfkit calls used here (pdfkit ships no types of its own; extract-limits.test.ts does the same). */
interface PdfKitDoc {
  page: { width: number; height: number; margins: { bottom: number } };
  x: number;
  y: number;
  on(event: string, listener: (...args: any[]) => void): void;
  font(name: string): PdfKitDoc;
  fontSize(size: number): PdfKitDoc;
  text(text: string, x?: number | object, y?: number, options?: object): PdfKitDoc;
  moveDown(lines?: number): PdfKitDoc;
  rect(x: number, y: number, w: number, h: number): PdfKitDoc;
  stroke(): PdfKitDoc;
  addPage(): PdfKitDoc;
  bufferedPageRange(): { start: number; count: number };
  switchToPage(n: number): PdfKitDoc;
  end(): void;
}
const PDFKIT = 'pdfkit';

/**
 * Pages of A6 (small, so that a document runs over several) with a bold title, paragraphs that wrap, bold headings, tables as cells set side by
 * side in columns (a cell may wrap), lists with bullets or numbers, a boxed text, footnotes at the
 * end, and on every page the header at the top and "Page n of m" at the bottom when the model has one.
 */
export async function writePdf(m: DocModel): Promise<Buffer> {
  const { default: PDFDocument } = (await import(PDFKIT)) as { default: new (options: object) => PdfKitDoc };
  const doc = new PDFDocument({
    size: 'A6',
    margins: { top: 40, bottom: 40, left: 30, right: 30 },
    bufferPages: true,
    info: { CreationDate: new Date(Date.UTC(2024, 0, 1)) },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const left = 30;
  const width = doc.page.width - 60;
  const bottom = () => doc.page.height - 40;
  const body = (size = 10) => doc.font('Helvetica').fontSize(size);
  const notes: string[] = [];
  if (m.title !== undefined) doc.font('Helvetica-Bold').fontSize(16).text(m.title).moveDown(0.5);
  for (const line of m.cover) body().text(line);
  if (m.cover.length > 0) doc.moveDown(0.5);
  for (const e of m.elements) {
    if (e.kind === 'paragraph') body().text(e.text).moveDown(0.5);
    else if (e.kind === 'heading') doc.font('Helvetica-Bold').fontSize(12).text(e.text).moveDown(0.3);
    else if (e.kind === 'list') {
      body();
      e.items.forEach((item, i) => doc.text(`${e.ordered ? `${i + 1}.` : '•'} ${item}`));
      doc.moveDown(0.5);
    } else if (e.kind === 'table') {
      body();
      const column = width / e.rows[0].length;
      for (const row of e.rows) {
        if (doc.y + 40 > bottom()) doc.addPage();
        const top = doc.y;
        let end = top;
        row.forEach((c, i) => {
          if (c === '') return;
          doc.text(c, left + i * column, top, { width: column - 8 });
          end = Math.max(end, doc.y);
        });
        doc.x = left;
        doc.y = end + 2;
      }
      doc.moveDown(0.5);
    } else if (e.kind === 'textbox') {
      body();
      if (doc.y + 60 > bottom()) doc.addPage();
      const top = doc.y;
      doc.text(e.text, left + 20, top + 6, { width: width - 40 });
      doc.rect(left + 10, top, width - 20, doc.y - top + 6).stroke();
      // Space below the box, as a word processor leaves: pressed against the next line, a box's
      // one full line and a short line after it read as one wrapped paragraph (the reader sees
      // text, not the box's rectangle).
      doc.x = left;
      doc.y += 18;
    } else {
      notes.push(e.note);
      body().text(`${e.text}`).moveDown(0.5);
    }
  }
  for (const note of notes) body(8).text(note);
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    doc.page.margins.bottom = 0;
    body(8);
    if (m.header !== undefined) doc.text(m.header, left, 15, { lineBreak: false });
    if (m.footer !== undefined) doc.text(`Page ${i + 1} of ${range.count}`, left, doc.page.height - 25, { lineBreak: false });
  }
  doc.end();
  return done;
}

/** RTF text: ASCII as is; anything else as \uN with a "?" fallback, or as a windows-1252 byte \'XX. */
function rtfEscape(s: string, codePage: boolean): string {
  let r = '';
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (ch === '\\' || ch === '{' || ch === '}') r += `\\${ch}`;
    else if (code < 128) r += ch;
    else if (codePage && code < 256) r += `\\'${code.toString(16)}`;
    else r += `\\u${code > 32767 ? code - 65536 : code}?`;
  }
  return r;
}

/**
 * RTF as Word writes it: a stylesheet with Title and heading styles, a header and a footer (with a
 * PAGE field), tables of \intbl cells, list items with their \listtext number or bullet, footnotes
 * where they are referenced, a text box as a shape (its text in \shptxt, and again in the
 * \shprslt fallback that readers without shapes show). Returns the file and the words a reader
 * should find: the model's, and the list numbers the file spells out.
 */
export function writeRtf(m: DocModel, codePage: boolean): { rtf: string; words: string } {
  const esc = (s: string) => rtfEscape(s, codePage);
  const numbers: string[] = [];
  const out = [
    '{\\rtf1\\ansi\\ansicpg1252\\deff0{\\fonttbl{\\f0\\froman\\fcharset0 Times New Roman;}}',
    '{\\stylesheet{\\s0 Normal;}{\\s1\\b\\fs28 heading 2;}{\\s2\\fs40 Title;}}',
    '\\uc1\\pard\\f0\\fs24',
  ];
  if (m.header !== undefined) out.push(`{\\header\\pard\\plain ${esc(m.header)}\\par}`);
  if (m.footer !== undefined) out.push(`{\\footer\\pard\\plain ${esc(m.footer)} {\\field{\\*\\fldinst PAGE}{\\fldrslt }}\\par}`);
  if (m.title !== undefined) out.push(`{\\pard\\s2\\fs40 ${esc(m.title)}\\par}`);
  for (const line of m.cover) out.push(`\\pard\\plain ${esc(line)}\\par`);
  for (const e of m.elements) {
    if (e.kind === 'paragraph') out.push(`\\pard\\plain ${esc(e.text)}\\par`);
    else if (e.kind === 'heading') out.push(`{\\pard\\s1\\b\\fs28 ${esc(e.text)}\\par}`);
    else if (e.kind === 'table') {
      for (const row of e.rows)
        out.push(
          `\\trowd${row.map((_, i) => `\\cellx${(i + 1) * 2000}`).join('')}\\pard\\intbl ${row.map((c) => `${esc(c)}\\cell`).join(' ')}\\row`,
        );
      out.push('\\pard');
    } else if (e.kind === 'list') {
      e.items.forEach((item, i) => {
        if (e.ordered) numbers.push(String(i + 1));
        out.push(`\\pard\\ls1\\fi-360\\li720 {\\listtext\\plain ${e.ordered ? `${i + 1}.` : "\\'b7"}\\tab}${esc(item)}\\par`);
      });
      out.push('\\pard');
    } else if (e.kind === 'textbox') {
      out.push(
        `{\\shp{\\*\\shpinst\\shpleft0\\shptop0\\shpright3000\\shpbottom600{\\sp{\\sn shapeType}{\\sv 202}}{\\shptxt \\pard\\plain ${esc(e.text)}\\par}}` +
          `{\\shprslt{\\pard\\plain ${esc(e.text)}\\par}}}`,
      );
    } else {
      out.push(`\\pard\\plain ${esc(e.text)}{\\super\\chftn}{\\footnote\\pard\\plain{\\super\\chftn} ${esc(e.note)}}\\par`);
    }
  }
  out.push('}');
  return { rtf: out.join('\n'), words: [modelText(m), ...numbers].join('\n') };
}

export interface TextLayout {
  /** Wrap paragraphs at this many characters, or keep each on one line. */
  wrap: number | undefined;
  /** A blank line between blocks, or none. */
  blankLines: boolean;
  crlf: boolean;
  /** How a table's cells are set apart on its lines. */
  cells: ' | ' | '\t';
}

function hardWrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line];
}

/** Plain text as typed: the title and cover lines, then each element; footnotes as "[n]" and their notes at the end. */
export function writeTxt(m: DocModel, layout: TextLayout): string {
  const blocks: string[][] = [];
  const notes: string[] = [];
  const paragraph = (text: string) => (layout.wrap === undefined ? [text] : hardWrap(text, layout.wrap));
  if (m.title !== undefined) blocks.push([m.title]);
  if (m.cover.length > 0) blocks.push(m.cover);
  for (const e of m.elements) {
    if (e.kind === 'table') blocks.push(e.rows.map((r) => r.join(layout.cells)));
    else if (e.kind === 'list') blocks.push(e.items.map((item, i) => `${e.ordered ? `${i + 1}.` : '-'} ${item}`));
    else if (e.kind === 'footnoted') {
      notes.push(`[${notes.length + 1}] ${e.note}`);
      blocks.push(paragraph(`${e.text} [${notes.length}]`));
    } else blocks.push(paragraph(e.text));
  }
  if (notes.length > 0) blocks.push(notes);
  return blocks
    .map((b) => b.join('\n'))
    .join(layout.blankLines ? '\n\n' : '\n')
    .replace(/\n/g, layout.crlf ? '\r\n' : '\n');
}
