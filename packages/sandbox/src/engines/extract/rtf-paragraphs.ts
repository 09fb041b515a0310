// Paragraphs of an RTF document as its reader walks it: each `\par` ends one, and the type it was
// set in (bold throughout, larger than the body, a heading style or outline level) says whether it
// is a heading. The rows of a table (`\intbl`) are one block; a list's item is a block of its own.
import { type Block, classify } from './structure.js';

type Kind = 'table' | 'list';

interface Paragraph {
  lines: string[];
  chars: number;
  boldChars: number;
  sizes: Map<number, number>;
  headingStyle: boolean;
  kind?: Kind;
}

export class RtfParagraphs {
  private readonly done: Paragraph[] = [];
  private current: Paragraph = RtfParagraphs.empty();

  private static empty(): Paragraph {
    return { lines: [''], chars: 0, boldChars: 0, sizes: new Map(), headingStyle: false };
  }

  /** Text of the current paragraph, with the character formatting it was set in. */
  add(text: string, format: { bold: boolean; size: number }): void {
    const p = this.current;
    p.lines[p.lines.length - 1] += text;
    const n = text.replace(/\s/g, '').length;
    if (n === 0) return;
    p.chars += n;
    if (format.bold) p.boldChars += n;
    p.sizes.set(format.size, (p.sizes.get(format.size) ?? 0) + n);
  }

  /** `\line`: a new line in the same paragraph. */
  lineBreak(): void {
    this.current.lines.push('');
  }

  /** `\par` (and section, page and row ends): the paragraph is complete. */
  end(headingStyle: boolean, kind?: Kind): void {
    const p = this.current;
    this.current = RtfParagraphs.empty();
    if (p.chars === 0) return;
    const last = this.done[this.done.length - 1];
    if (kind === 'table' && last?.kind === kind) {
      // The next row of the table.
      last.lines.push(...p.lines);
      last.chars += p.chars;
      last.boldChars += p.boldChars;
      for (const [size, n] of p.sizes) last.sizes.set(size, (last.sizes.get(size) ?? 0) + n);
      return;
    }
    p.headingStyle = headingStyle;
    if (kind !== undefined) p.kind = kind;
    this.done.push(p);
  }

  blocks(): Block[] {
    this.end(false);
    const sizes = new Map<number, number>();
    for (const p of this.done) for (const [s, n] of p.sizes) sizes.set(s, (sizes.get(s) ?? 0) + n);
    let body = 24;
    let most = -1;
    for (const [s, n] of sizes) if (n > most) [body, most] = [s, n];
    return classify(
      this.done.map((p) => {
        const smallest = Math.min(...p.sizes.keys());
        const emphasised = p.boldChars / p.chars > 0.9 || smallest > body * 1.12;
        return { lines: p.lines, hints: { headingStyle: p.headingStyle, emphasised, ...(p.kind ? { kind: p.kind } : {}) } };
      }),
    );
  }
}
