// Paragraphs of a PDF from where its text sits on the page: pdf.js gives positioned runs of text,
// and a PDF has no paragraph marks, so line gaps, first-line indents, type size and how full a
// line is decide (see structure.ts `assemble`). Page numbers and repeated headers are left out,
// and returned to be named.
import { furniture } from './page-furniture.js';
import { assemble, type Block, classify, type LayoutLine } from './structure.js';

/** The parts of a pdf.js text item this reads. */
export interface PdfTextItem {
  str: string;
  transform: number[];
  width: number;
  height: number;
  fontName: string;
  hasEOL?: boolean;
}

export interface PdfLine {
  text: string;
  left: number;
  right: number;
  /** Baseline, in PDF units (up is larger). */
  y: number;
  size: number;
  font: string;
}

/** A gap on a line wider than this many times the type size sets two columns apart, not two words. */
const COLUMN_GAP = 2;

/** Lines of one page from its text items, in reading order as the file gives them. */
export function pageLines(items: PdfTextItem[]): PdfLine[] {
  const lines: PdfLine[] = [];
  let line:
    | { parts: string[]; left: number; right: number; y: number; type: number; sizes: Map<number, number>; fonts: Map<string, number> }
    | undefined;
  const flush = () => {
    if (!line) return;
    const text = line.parts.join('').replace(/\s+/g, ' ').trim();
    if (text !== '')
      lines.push({ text, left: line.left, right: line.right, y: line.y, size: dominant(line.sizes), font: dominant(line.fonts) });
    line = undefined;
  };
  for (const item of items) {
    const x = Number(item.transform[4]);
    const y = Number(item.transform[5]);
    const height = item.height || Math.hypot(Number(item.transform[2]), Number(item.transform[3])) || 1;
    if (item.str === '') {
      if (item.hasEOL) flush();
      continue;
    }
    // pdf.js fills the room between runs of one line with a blank item as wide as the room.
    if (line && item.str.trim() === '' && Math.abs(line.y - y) <= 0.5 * line.type) {
      line.parts.push(item.width > COLUMN_GAP * line.type ? ' | ' : item.str);
      line.right = Math.max(line.right, x + (item.width || 0));
      if (item.hasEOL) flush();
      continue;
    }
    // A new line when the baseline moves by more than half a line (sub- and superscripts stay).
    if (line && Math.abs(line.y - y) > 0.5 * Math.max(height, 1)) flush();
    if (!line) {
      line = { parts: [], left: x, right: x, y, type: Math.max(height, 1), sizes: new Map(), fonts: new Map() };
    } else if (x - line.right > COLUMN_GAP * height) {
      // Cells of a table, or columns, side by side: kept apart as a table's row is ("a | b").
      line.parts.push(' | ');
    } else if (x - line.right > 0.2 * height && !/\s$/.test(line.parts[line.parts.length - 1] ?? '') && !/^\s/.test(item.str)) {
      // Runs set apart by space on the page, with no space character between them.
      line.parts.push(' ');
    }
    line.parts.push(item.str);
    line.left = Math.min(line.left, x);
    line.right = Math.max(line.right, x + (item.width || 0));
    line.type = Math.max(height, 1);
    const chars = item.str.trim().length;
    const size = Math.round(height * 2) / 2;
    line.sizes.set(size, (line.sizes.get(size) ?? 0) + chars);
    line.fonts.set(item.fontName, (line.fonts.get(item.fontName) ?? 0) + chars);
    if (item.hasEOL) flush();
  }
  flush();
  return lines;
}

function dominant<K>(counts: Map<K, number>): K {
  let best: K | undefined;
  let most = -1;
  for (const [k, n] of counts) if (n > most) [best, most] = [k, n];
  return best as K;
}

export interface PdfPageLines {
  lines: PdfLine[];
  /** Page width, in the units of the lines. */
  width: number;
}

/**
 * Blocks of a run of text-layer pages. Body metrics (type size, font, line pitch, right margin)
 * come from the whole run, so a page with little on it is read like the others.
 */
export function pdfBlocks(pages: PdfPageLines[]): { blocks: Block[]; furniture: string[] } {
  const drop = furniture(pages.map((p) => p.lines));
  const kept = pages.map((page, p) => page.lines.filter((_, i) => !drop[p].has(i)));
  // Left out, but named: each occurrence, in page order.
  const left = pages.flatMap((page, p) => page.lines.filter((_, i) => drop[p].has(i)).map((l) => l.text));
  const all = kept.flat();
  if (all.length === 0) return { blocks: [], furniture: left };

  const sizes = new Map<number, number>();
  const fonts = new Map<string, number>();
  for (const l of all) {
    sizes.set(l.size, (sizes.get(l.size) ?? 0) + l.text.length);
    fonts.set(l.font, (fonts.get(l.font) ?? 0) + l.text.length);
  }
  const bodySize = dominant(sizes);
  const bodyFont = dominant(fonts);
  const isBody = (l: PdfLine) => Math.abs(l.size - bodySize) <= bodySize * 0.1;

  const pitches = new Map<number, number>();
  for (const lines of kept) {
    for (let i = 1; i < lines.length; i++) {
      const d = lines[i - 1].y - lines[i].y;
      if (isBody(lines[i]) && isBody(lines[i - 1]) && d > 0 && d < bodySize * 3) {
        const key = Math.round(d * 2) / 2;
        pitches.set(key, (pitches.get(key) ?? 0) + 1);
      }
    }
  }
  // One pair of lines is no measure of the spacing (two boxes one above the other): seen twice at least.
  // On a tie the smaller: paragraphs of two lines each have as many gaps between them as lines within.
  const usual = pitches.size > 0 ? dominant(new Map([...pitches].sort(([a], [b]) => a - b))) : undefined;
  const pitch = usual !== undefined && (pitches.get(usual) ?? 0) >= 2 ? usual : bodySize * 1.2;
  const bodyLines = all.filter(isBody);
  const reached = Math.max(...(bodyLines.length > 0 ? bodyLines : all).map((l) => l.right));
  // Where full lines end: as far as the text reaches, unless it never comes near a right margin as
  // wide as the left one (a page of short lines), when that margin is where lines would wrap.
  const margin = Math.max(...pages.map((p) => p.width)) - Math.min(...all.map((l) => l.left));
  const rightEdge = reached >= margin * 0.85 ? reached : margin;

  const layout: LayoutLine[] = [];
  for (const lines of kept) {
    lines.forEach((l, i) => {
      const before = lines[i - 1];
      const d = before ? before.y - l.y : 0;
      // Across a page break the text may run on; a jump upwards on a page is a new column. Lines
      // further apart than double spacing allows are never one paragraph's, whatever the pitch.
      const size = Math.max(l.size, before?.size ?? 0);
      const gapBefore = before !== undefined && (d < 0 || d > Math.min(Math.max(pitch * 1.4, size * 1.5), size * 2.6));
      layout.push({
        text: l.text,
        left: l.left,
        right: l.right,
        gapBefore,
        larger: l.size > bodySize * 1.12,
        otherFont: l.font !== bodyFont,
        charWidth: (l.right - l.left) / Math.max(1, l.text.length),
      });
    });
  }
  const blocks = assemble({ lines: layout, rightEdge, indent: bodySize * 0.9, slack: bodySize * 0.5, widthError: 0.25 });
  return {
    blocks: classify(blocks.map((b) => ({ lines: b.lines, hints: { emphasised: b.emphasised, wrapped: b.wrapped } }))),
    furniture: left,
  };
}
