// The walk over an RTF document's tokens (rtf.ts streams them in): it keeps the body's text,
// reads headers, footers and notes apart, and decodes 8-bit runs with the code page in force.
import iconv from 'iconv-lite';
import { type Rendered, render } from './marked.js';
import { RtfParagraphs } from './rtf-paragraphs.js';
import {
  APART,
  CHARSETS,
  CONTROL,
  codepage,
  type Destination,
  GROUP_END,
  GROUP_START,
  LINE_BREAKS,
  PARAGRAPH_ENDS,
  SKIPPED,
  SYMBOLS,
  TEXT,
  type Token,
} from './rtf-vocabulary.js';

interface Group {
  skip: boolean;
  /** Where its text goes. */
  destination: Destination;
  fontTable: boolean;
  styleSheet: boolean;
  uc: number;
  font: number | undefined;
  bold: boolean;
  /** Type size in half-points (\fsN); 24 is RTF's default 12 pt. */
  size: number;
}

/** A walk over the tokens that keeps only body text, decoding 8-bit runs with the right code page. */
export class Walker {
  private group: Group = {
    skip: false,
    destination: 'body',
    fontTable: false,
    styleSheet: false,
    uc: 1,
    font: undefined,
    bold: false,
    size: 24,
  };
  private readonly stack: Group[] = [];
  private readonly sinks: Record<Destination, RtfParagraphs> = {
    body: new RtfParagraphs(),
    furniture: new RtfParagraphs(),
    notes: new RtfParagraphs(),
  };
  // Paragraph formatting lasts until \pard: a style number (\sN), an outline level, in a table, in a list.
  private paragraphStyle = 0;
  private outlineLevel: number | undefined;
  private inTable = false;
  private inList = false;
  /** Style numbers the stylesheet names as headings or titles, or gives an outline level. */
  private readonly headingStyles = new Set<number>();
  private styleBeingDefined: { number: number; name: string; outline: boolean } | undefined;
  private bytes: number[] = [];
  private bytesEncoding = 'cp1252';
  private docEncoding = 'cp1252';
  private readonly fonts = new Map<number, string>();
  private fontBeingDefined: number | undefined;
  private atGroupStart = false;
  private starred = false;
  private toSkip = 0;

  token(t: Token): void {
    if (t.type === GROUP_START) {
      // Text so far was set in this group's formatting: it is counted as such before any change.
      this.flush();
      this.stack.push(this.group);
      this.group = { ...this.group };
      this.atGroupStart = true;
      this.starred = false;
      return;
    }
    if (t.type === GROUP_END) {
      this.flush();
      // A header's or a note's last paragraph may have no \par of its own.
      if (this.group.destination !== (this.stack[this.stack.length - 1]?.destination ?? 'body')) this.sink().end(false);
      this.toSkip = 0;
      this.group = this.stack.pop() ?? this.group;
      this.atGroupStart = false;
      return;
    }
    if (t.type === TEXT) {
      this.atGroupStart = false;
      this.text(t.data ?? Buffer.alloc(0));
      return;
    }
    if (t.type === CONTROL && t.word !== undefined) this.control(t.word, t.param, t.data);
  }

  private control(word: string, param: number | undefined, data: Buffer | undefined): void {
    if (this.atGroupStart) {
      if (word === '*') {
        this.starred = true;
        return;
      }
      this.atGroupStart = false;
      if (word === 'fonttbl') this.group.fontTable = true;
      if (word === 'stylesheet') this.group.styleSheet = true;
      // A shape (a text box) is a starred destination whose \shptxt is the writer's text.
      if ((this.starred && word !== 'shpinst') || SKIPPED.has(word)) this.group.skip = true;
      const apart = APART[word];
      if (apart !== undefined) this.group.destination = apart;
    }
    if (this.group.fontTable) {
      this.fontTableControl(word, param);
      return;
    }
    if (this.group.styleSheet) {
      this.styleSheetControl(word, param);
      return;
    }
    if (this.group.skip) return;

    if (word === 'u' && param !== undefined) {
      this.emit(String.fromCharCode(param < 0 ? param + 65536 : param));
      this.toSkip = this.group.uc;
      return;
    }
    // The fallback text after \uN: the spec counts \'XX, \binN and any control word as one char.
    if (this.toSkip > 0) {
      this.toSkip--;
      return;
    }
    switch (word) {
      case "'":
        if (data !== undefined) this.push(data);
        return;
      case 'uc':
        this.group.uc = param ?? 1;
        return;
      case 'f':
        this.group.font = param;
        return;
      case 'b':
        this.flush();
        this.group.bold = param !== 0;
        return;
      case 'fs':
        this.flush();
        this.group.size = param ?? 24;
        return;
      case 'plain':
        this.flush();
        this.group.bold = false;
        this.group.size = 24;
        return;
      case 'pard':
        this.paragraphStyle = 0;
        this.outlineLevel = undefined;
        this.inTable = false;
        this.inList = false;
        return;
      case 'intbl':
        this.inTable = true;
        return;
      case 'ls':
      case 'pntext':
      case 'listtext':
        this.inList = true;
        return;
      case 's':
        this.paragraphStyle = param ?? 0;
        return;
      case 'outlinelevel':
        this.outlineLevel = param;
        return;
      case 'ansicpg':
        this.docEncoding = codepage(`cp${param}`) ?? this.docEncoding;
        return;
      case 'mac':
        this.docEncoding = 'macintosh';
        return;
      case 'pc':
        this.docEncoding = 'cp437';
        return;
      case 'pca':
        this.docEncoding = 'cp850';
        return;
    }
    if (LINE_BREAKS.has(word)) {
      this.flush();
      this.sink().lineBreak();
      return;
    }
    if (PARAGRAPH_ENDS.has(word)) {
      this.flush();
      const kind = this.inTable ? 'table' : this.inList ? 'list' : undefined;
      this.sink().end(this.outlineLevel !== undefined || this.headingStyles.has(this.paragraphStyle), kind);
      return;
    }
    const symbol = SYMBOLS[word];
    if (symbol !== undefined) this.emit(symbol);
  }

  private styleSheetControl(word: string, param: number | undefined): void {
    if (word === 's' && param !== undefined) this.styleBeingDefined = { number: param, name: '', outline: false };
    if (word === 'outlinelevel' && this.styleBeingDefined) this.styleBeingDefined.outline = true;
  }

  /** Text inside the stylesheet: style names, each ended by ";". */
  private styleSheetText(data: Buffer): void {
    const style = this.styleBeingDefined;
    if (!style) return;
    style.name += data.toString('latin1');
    if (!style.name.includes(';')) return;
    if (style.outline || /^\s*(?:heading|title|subtitle)\b/i.test(style.name)) this.headingStyles.add(style.number);
    this.styleBeingDefined = undefined;
  }

  private fontTableControl(word: string, param: number | undefined): void {
    if (word === 'f') this.fontBeingDefined = param;
    if (this.fontBeingDefined === undefined || param === undefined) return;
    const encoding = word === 'fcharset' ? codepage(CHARSETS[param]) : word === 'cpg' ? codepage(`cp${param}`) : undefined;
    if (encoding !== undefined) this.fonts.set(this.fontBeingDefined, encoding);
  }

  private text(data: Buffer): void {
    if (this.group.styleSheet) {
      this.styleSheetText(data);
      return;
    }
    if (this.group.skip) return;
    let start = 0;
    if (this.toSkip > 0) {
      start = Math.min(this.toSkip, data.length);
      this.toSkip -= start;
    }
    // Raw line breaks in RTF source are formatting of the file, not of the text.
    const kept = data.subarray(start).filter((b) => b !== 0x0a && b !== 0x0d);
    if (kept.length > 0) this.push(kept);
  }

  private push(data: Uint8Array): void {
    const encoding = (this.group.font !== undefined ? this.fonts.get(this.group.font) : undefined) ?? this.docEncoding;
    if (encoding !== this.bytesEncoding) this.flush();
    this.bytesEncoding = encoding;
    // Bytes wait for each other: a double-byte code page splits one character over two \'XX.
    for (const b of data) this.bytes.push(b);
  }

  /** Where the current group's text goes: the body, the headers and footers, or the notes. */
  private sink(): RtfParagraphs {
    return this.sinks[this.group.destination];
  }

  private flush(): void {
    if (this.bytes.length === 0) return;
    this.sink().add(iconv.decode(Buffer.from(this.bytes), this.bytesEncoding), this.group);
    this.bytes = [];
  }

  private emit(s: string): void {
    this.flush();
    this.sink().add(s, this.group);
  }

  result(): Rendered {
    this.flush();
    const furniture = this.sinks.furniture.blocks().flatMap((b) => b.lines.map((l) => l.replace(/\s+/g, ' ')));
    return render([...this.sinks.body.blocks(), ...this.sinks.notes.blocks()], furniture);
  }
}
