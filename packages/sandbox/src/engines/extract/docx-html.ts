// Blocks of a Word document from mammoth's HTML, which keeps what its raw text loses: which
// paragraphs are headings or the title (Word's styles), which runs are bold, and tables and lists.
// A table is one block, a row per line with its cells joined by " | "; a list item is a block, as
// in a PDF or a text file; footnotes and endnotes are paragraphs at the end, without their marks.
import { type Block, type BlockHints, classify } from './structure.js';

const PARAGRAPH_TAGS = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'caption']);
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
const TITLE_CLASS = 'kct-title';

/** Text of HTML or XML with its character references and the common named entities replaced. */
export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}

/** Mammoth's style map plus Word's Title and Subtitle styles, which it leaves as plain paragraphs. */
export const DOCX_STYLE_MAP = [`p[style-name='Title'] => h1.${TITLE_CLASS}:fresh`, `p[style-name='Subtitle'] => h2.${TITLE_CLASS}:fresh`];

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

type Raw = { lines: string[]; hints: BlockHints };

/** Walks the HTML's tags in order; a table, with any table or list inside it, is gathered whole. */
class Reader {
  readonly raw: Raw[] = [];
  // The paragraph being read.
  private lines: string[] = [''];
  private heading = false;
  private title = false;
  private chars = 0;
  private boldChars = 0;
  private bold = 0;
  // Footnote markers ("[1]") and the back-links of the notes ("↑") are not the writer's words.
  private skipping = 0;
  // The outermost table: its rows so far, the row and the cell being read.
  private tables = 0;
  private rows: string[] = [];
  private row: string[] = [];
  private cell = '';
  // The outermost list's items, nested lists' included. The notes mammoth appends are a list of paragraphs.
  private lists = 0;
  private items: string[] = [];
  private notes = false;

  text(t: string): void {
    if (this.skipping > 0) return;
    if (this.tables > 0) {
      this.cell += t;
    } else if (this.lists > 0 && !this.notes) {
      this.toItem(t);
    } else {
      this.lines[this.lines.length - 1] += t;
      const n = t.replace(/\s/g, '').length;
      this.chars += n;
      if (this.bold > 0) this.boldChars += n;
    }
  }

  tag(closing: boolean, tag: string, attrs: string): void {
    if (tag === 'a' && !closing && /href="#(?:footnote|endnote|comment)-/.test(attrs)) this.skipping++;
    else if (tag === 'a' && closing && this.skipping > 0) this.skipping--;
    else if (tag === 'strong' || tag === 'b') this.bold += closing ? -1 : 1;
    else if (tag === 'table') this.table(closing);
    else if (this.tables > 0) this.inTable(closing, tag);
    else if (tag === 'ul' || tag === 'ol') this.list(closing);
    else if (tag === 'li') this.item(closing, attrs);
    else if (this.lists > 0 && !this.notes) this.inList(tag);
    else if (tag === 'br') this.lines.push('');
    else if (PARAGRAPH_TAGS.has(tag)) {
      this.flush();
      this.heading = !closing && /^h[1-6]$/.test(tag);
      this.title = !closing && attrs.includes(TITLE_CLASS);
    }
  }

  private table(closing: boolean): void {
    if (!closing) {
      if (this.tables++ === 0) this.flush();
      return;
    }
    if (this.tables === 0 || --this.tables > 0) return;
    this.endRow();
    this.push(this.rows, { kind: 'table' });
    this.rows = [];
  }

  /** Inside a table only the outermost one's cells and rows count; anything else is a space in the cell. */
  private inTable(closing: boolean, tag: string): void {
    if (this.tables > 1 || !(tag === 'td' || tag === 'th' || tag === 'tr')) {
      this.cell += ' ';
    } else if (tag === 'tr') {
      this.endRow();
    } else if (closing) {
      this.row.push(squash(this.cell));
      this.cell = '';
    }
  }

  private endRow(): void {
    if (squash(this.cell) !== '') this.row.push(squash(this.cell));
    if (this.row.some((c) => c !== '')) this.rows.push(this.row.join(' | '));
    this.row = [];
    this.cell = '';
  }

  private list(closing: boolean): void {
    if (!closing) {
      if (this.lists++ === 0) this.flush();
      return;
    }
    if (this.lists === 0 || --this.lists > 0) return;
    if (this.notes) this.flush();
    else for (const item of this.items) this.push([item], { kind: 'list' });
    this.items = [];
    this.notes = false;
  }

  private item(closing: boolean, attrs: string): void {
    if (this.lists === 0) return;
    if (!closing && /id="(?:footnote|endnote)-/.test(attrs)) this.notes = true;
    if (this.notes) this.flush();
    else if (!closing) this.items.push('');
  }

  /** A paragraph or a line break inside a list item: the item goes on, after a space. */
  private inList(tag: string): void {
    if (tag === 'br' || PARAGRAPH_TAGS.has(tag)) this.toItem(' ');
  }

  private toItem(t: string): void {
    if (this.items.length === 0) this.items.push('');
    this.items[this.items.length - 1] += t;
  }

  private push(lines: string[], hints: BlockHints): void {
    const kept = lines.map(squash).filter((l) => l !== '');
    if (kept.length > 0) this.raw.push({ lines: kept, hints });
  }

  flush(): void {
    const emphasised = this.chars > 0 && this.boldChars / this.chars > 0.9;
    this.push(this.lines, { headingStyle: this.heading, emphasised, ...(this.title ? { kind: 'title' } : {}) });
    this.lines = [''];
    this.chars = 0;
    this.boldChars = 0;
  }
}

export function docxBlocks(html: string): Block[] {
  const reader = new Reader();
  const tokens = /<(\/?)([a-zA-Z0-9]+)([^>]*)>|([^<]+)/g;
  for (let m = tokens.exec(html); m; m = tokens.exec(html)) {
    const [, closing, tagName, attrs, text] = m;
    if (text !== undefined) reader.text(decodeEntities(text));
    else reader.tag(closing === '/', tagName.toLowerCase(), attrs);
  }
  reader.flush();
  return classify(reader.raw);
}
