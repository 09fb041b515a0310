// A document's structure as the grader needs it: paragraphs (not lines), headings told apart from
// body text, tables and lists kept whole. Every format reduces to blocks; PDF, plain text and OCR
// output first go through `assemble`, which decides for each line end whether the line was
// wrapped or ended on purpose. What of the blocks is marked is decided in marked.ts. Pure
// functions, no I/O.

/**
 * `heading` reads as one (and may be the document's title); `title` is styled as the document's
 * title; a `table` (one line per row) and a `list` item are never taken for a title.
 */
type BlockKind = 'paragraph' | 'heading' | 'title' | 'table' | 'list';

export interface Block {
  /** Lines the writer ended on purpose (a letter's address, a list); wrapped lines are joined. */
  lines: string[];
  kind: BlockKind;
  /** Some of its lines were joined from lines the page wrapped: more than one line on the page. */
  wrapped?: boolean;
}

/** What a format knows about a block beyond its words. */
export interface BlockHints {
  /** Marked as a heading by the document itself (a Word heading style, an RTF outline level). */
  headingStyle?: boolean;
  /** Set apart by formatting: larger type, bold throughout, another font. */
  emphasised?: boolean;
  /** What the document says the block is, whatever its words: a title style, a table, a list. */
  kind?: 'title' | 'table' | 'list';
  /** Joined from lines the page wrapped. */
  wrapped?: boolean;
}

/** A line of a laid-out document, in the units of its format (points for PDF, characters for text). */
export interface LayoutLine {
  text: string;
  left: number;
  right: number;
  /** Vertical space before this line: none (next line of the same block) or a paragraph gap. */
  gapBefore: boolean;
  /** Set in larger type than the body text: a change of size always starts a new block. */
  larger?: boolean;
  /** Set in another font than the body text (bold, say): a hint of a heading, never a break alone. */
  otherFont?: boolean;
  /** Width of one character, to turn a word into a width (1 for plain text). */
  charWidth: number;
}

export interface Layout {
  lines: LayoutLine[];
  /** Where a full line ends; undefined when lines are never wrapped by the file (typed text). */
  rightEdge: number | undefined;
  /** Indentation that marks a new paragraph (a first-line indent), in the units of `left`. */
  indent: number;
  /**
   * How far short of `rightEdge` a wrapped line may still end beyond one word: some characters for
   * text, whose lines are counted in characters, not widths; half the type size for PDF.
   */
  slack?: number;
  /**
   * How far a word's guessed width may fall short of its real one, as a share of it: PDF guesses it
   * from the line's average character, spaces included, and "Homework" or "300" is wider than that.
   */
  widthError?: number;
}

const TERMINAL = /[.!?…]["”’)\]]*$|[.!?]['"”’]$|:$/;
export const LIST_START =
  /^(?:[-–•*·▪◦]\s|\(?\d{1,2}[.)]\s|\d{1,2}\s*[-–]\s*\d{1,2}\s*:|\d{1,2}\s*:\s|\(?[a-hivx]{1,4}\)\s|(?:level|band|grade)\s+\d)/i;

/** The marker of a list item ("- ", "• ", "2. ", "(b) "): its bullets are never a heading's; a number may head a section ("1. Method"). */
export const LIST_MARKER = /^\s*(?:([-–•*·▪◦])|\(?\d{1,2}[.)]|\(?[a-hivx]{1,4}\))\s+(?=\S)/i;

const firstWord = (s: string) => s.trimStart().split(/\s+/)[0] ?? '';

/**
 * Blocks from laid-out lines. A line end is a wrap when the next line's first word would not have
 * fitted in the room left on the line, or when the line stops mid-sentence before one in lower
 * case; otherwise the writer ended the line (a paragraph ends when it ends a sentence). A gap, a first-line indent or a list marker always starts a new block.
 */
export interface Assembled {
  lines: string[];
  emphasised: boolean;
  wrapped: boolean;
}

export function assemble(layout: Layout): Assembled[] {
  const blocks: Assembled[] = [];
  let current: Assembled | undefined;
  let prev: LayoutLine | undefined;
  const marked = (line: LayoutLine) => line.larger === true || line.otherFont === true;
  const start = (line: LayoutLine) => {
    current = { lines: [line.text.trim()], emphasised: marked(line), wrapped: false };
    blocks.push(current);
  };
  for (const line of layout.lines) {
    if (line.text.trim() === '') continue;
    if (!current || !prev) {
      start(line);
      prev = line;
      continue;
    }
    const text = line.text.trim();
    const prevText = current.lines[current.lines.length - 1];
    // The logical line ends as the previous physical line does: testing that, not the growing
    // joined string, keeps a block of thousands of wrapped lines linear (no flattening per line).
    const prevEnd = prev.text.trim();
    const ended = TERMINAL.test(prevEnd);
    const room = layout.rightEdge === undefined ? Infinity : layout.rightEdge - prev.right;
    const wordWidth = (firstWord(text).length + 1) * line.charWidth;
    // A line that ends mid-sentence before one in lower case runs on, whatever room it left: a
    // ragged right edge (text set left-aligned, or wrapped at a count of characters) is still a wrap.
    const runsOn = !ended && /^\p{Ll}/u.test(text);
    const wrapped = runsOn || room < wordWidth * (1 + (layout.widthError ?? 0)) + (layout.slack ?? 0);
    const indented = line.left > prev.left + layout.indent && (ended || !wrapped);
    const sizeChanges = (line.larger ?? false) !== (prev.larger ?? false);
    if (line.gapBefore || sizeChanges || indented || (!wrapped && ended) || LIST_START.test(text)) {
      // A list item keeps its lines together: one block per item, not one per line.
      start(line);
    } else if (!wrapped) {
      current.lines.push(text);
      current.emphasised &&= marked(line);
    } else {
      current.emphasised &&= marked(line);
      current.wrapped = true;
      // A hyphen at a wrap is kept ("well-known"); the words are joined without a space.
      current.lines[current.lines.length - 1] = /[\p{L}]-$/u.test(prevEnd) ? `${prevText}${text}` : `${prevText} ${text}`;
    }
    prev = line;
  }
  return blocks;
}

const HEADING_STYLE_WORDS = 25;
const HEADING_WORDS = 15;

/** Whether a block reads as a heading: short, one line, not a sentence, and marked as one. */
export function isHeading(lines: string[], hints: BlockHints = {}): boolean {
  const text = lines.join(' ').trim();
  const words = text.split(/\s+/).filter(Boolean);
  // Numbers alone are data (a table's cell, a mark), not a heading.
  if (words.length === 0 || !/\p{L}/u.test(text)) return false;
  if (/^#{1,6}\s/.test(text)) return true;
  if (hints.headingStyle) return words.length <= HEADING_STYLE_WORDS;
  if (lines.length > 2 || words.length > HEADING_WORDS) return false;
  // A table's row ("Pros | Cons", or cells set apart by tabs) is content, however short.
  if (/\t|\s\|\s/.test(text)) return false;
  // A sentence or a clause ("Dear members of the board,") is body text, however it is set; a
  // note's mark after it ("… uniforms. [1]") does not make it a heading.
  const ending = text.replace(/\s*(?:\[\d{1,3}\]|\(\d{1,3}\)|[¹²³⁰-⁹]+)$/u, '');
  if (/[.,;]["”’)]*$/.test(ending) && !/\b(?:[A-Z]|[IVX]+|No|Vol|Ch|Pt)\.$/.test(ending)) return false;
  // speech that ends a line ("Wait for me!") is a story's, however short: a heading is not quoted
  if (/[!?]["”’]+$/.test(ending)) return false;
  if (hints.emphasised) return true;
  // four letters at the start are enough: `{4,}` over a 19 MB "word" overflows the regexp stack
  const long = words.filter((w) => /^\p{L}{4}/u.test(w));
  const capitalised = long.filter((w) => /^\p{Lu}/u.test(w));
  const titleCase = long.length >= 2 && capitalised.length / long.length >= 0.7;
  const allCaps = /\p{L}{3}/u.test(text) && text === text.toUpperCase();
  if (titleCase || allCaps) return true;
  // A bare label such as "Introduction" or "My view": a few words, no punctuation at all.
  return words.length <= 6 && !/[?!:]$/.test(text);
}

/** TITLE_QUESTION_WORDS or fewer words on one line, asking one question. */
const TITLE_QUESTION_WORDS = 12;
function isTitleQuestion(lines: string[]): boolean {
  if (lines.length !== 1) return false;
  const text = lines[0];
  return /^\p{Lu}[^.!?]*\?$/u.test(text) && text.split(/\s+/).length <= TITLE_QUESTION_WORDS;
}

/**
 * Classifies assembled blocks, with the format's hints. A heading heads something: short blocks
 * after the last paragraph (a letter's "Yours faithfully, / Sam") are body text.
 */
export function classify(raw: { lines: string[]; hints?: BlockHints }[]): Block[] {
  const kept = raw
    .map((b) => ({ lines: b.lines.map((l) => l.trim()).filter((l) => l !== ''), hints: b.hints }))
    .filter((b) => b.lines.length > 0);
  const blocks = kept.map(
    (b): Block => ({
      lines: b.lines,
      kind: b.hints?.kind ?? (isHeading(b.lines, b.hints) ? 'heading' : 'paragraph'),
      ...(b.hints?.wrapped ? { wrapped: true } : {}),
    }),
  );
  for (let i = blocks.length - 1; i >= 0 && blocks[i].kind === 'heading'; i--) blocks[i].kind = 'paragraph';
  // "Should students wear uniforms?" on a line of its own above the answer is its title, not its opening
  if (blocks.length > 1 && !kept[0].hints?.kind && isTitleQuestion(blocks[0].lines)) blocks[0].kind = 'heading';
  return blocks;
}

// ---------- plain text (typed files and OCR output) ----------

/** Whether a text's lines were wrapped at a fixed width (an e-mail, OCR of a page) rather than typed as one line per paragraph. */
function wrapWidth(lines: string[]): number | undefined {
  const lengths = lines.map((l) => l.trimEnd().length).filter((n) => n > 0);
  if (lengths.length < 4) return undefined;
  const max = Math.max(...lengths);
  // Nobody wraps text at fewer than 24 characters: a few short lines are typed, not wrapped.
  if (max > 160 || max < 24) return undefined;
  // Most lines of wrapped text end within a word's length of the widest.
  const near = lengths.filter((n) => n >= max * 0.7).length;
  return near / lengths.length >= 0.5 ? max : undefined;
}

/**
 * Blocks of plain text. A blank line always ends a paragraph. In text wrapped at a fixed width, a
 * line end is a wrap unless the next word would have fitted; in typed text (one line per
 * paragraph) every line end is the writer's, and ends a paragraph after a full stop.
 */
export function plainTextBlocks(text: string): Block[] {
  // A tab that indents counts as four spaces; one inside a line sets a table's cells apart, and stays.
  const lines = text
    .replace(/\r\n?/g, '\n')
    .replace(/^\t+/gm, (tabs) => '    '.repeat(tabs.length))
    .split('\n');
  const width = wrapWidth(lines);
  const layout: LayoutLine[] = [];
  let blank = false;
  for (const line of lines) {
    if (line.trim() === '') {
      blank = true;
      continue;
    }
    const left = line.length - line.trimStart().length;
    layout.push({ text: line, left, right: line.trimEnd().length, gapBefore: blank, charWidth: 1 });
    blank = false;
  }
  // OCR'd and proportional text: a full line can hold a few characters fewer than the longest.
  const assembled = assemble({ lines: layout, rightEdge: width, indent: 1, slack: width === undefined ? 0 : Math.round(width * 0.15) });
  return classify(assembled.map((b) => ({ lines: b.lines, hints: { wrapped: b.wrapped } })));
}
