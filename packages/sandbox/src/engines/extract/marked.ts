// What of a document is marked: every word of it, except what is left out on purpose, and each
// thing left out is named (docs/design/sandbox-notes.md, "Reading the answer"). Nothing else is dropped.
import { type Block, LIST_START, plainTextBlocks } from './structure.js';

/**
 * The only kinds of text an answer file's body leaves out:
 * - `title`: the document's title: a paragraph in Word's Title or Subtitle style, or the first
 *   block when it is one line on the page that reads as a heading (short, not a sentence, set
 *   apart) and the essay follows it;
 * - `cover_sheet`: a form's lines above the essay (`Name:`, `Class:`, `Date:`, `Candidate number:`...);
 * - `page_furniture`: what each page repeats: a Word or RTF header or footer, a PDF's page numbers
 *   and lines repeated at the top or bottom of most pages.
 */
export const EXCLUSION_KINDS = ['title', 'cover_sheet', 'page_furniture'] as const;
type ExclusionKind = (typeof EXCLUSION_KINDS)[number];

export interface Exclusion {
  kind: ExclusionKind;
  text: string;
  /** How many times the same text was left out (a header on every page), when more than once. */
  count?: number;
}

export interface Rendered {
  /** Every block, headings and title included (question and rubric files need them). */
  text: string;
  /** What an answer is marked on: `text` less what `excluded` names. */
  body: string;
  excluded: Exclusion[];
}

// Lines a form or a cover sheet puts above an essay, not part of the answer.
const FRONT_MATTER =
  /^(?:name|student(?: name| id| number)?|candidate(?: name| number)?|class|form|tutor group|set|teacher|date|subject|word count)\s*[:\-–]\s*\S/i;

const isCoverSheet = (lines: string[]) => lines.every((l) => FRONT_MATTER.test(l.trim()) && l.split(/\s+/).length <= 8);

/** One entry per distinct text of a kind, counting repeats (a header on each of 200 pages is one entry). */
function named(kind: ExclusionKind, texts: readonly string[]): Exclusion[] {
  const counts = new Map<string, number>();
  for (const t of texts.map((s) => s.trim()).filter(Boolean)) counts.set(t, (counts.get(t) ?? 0) + 1);
  return [...counts].map(([text, n]) => (n > 1 ? { kind, text, count: n } : { kind, text }));
}

/**
 * The document as text (every block) and as the body that is marked: every block except a title
 * and a cover sheet's lines before the essay starts. `furniture` is what the format already took
 * off its pages, named here. A document with nothing but what would be left out is marked whole.
 */
export function render(blocks: Block[], furniture: readonly string[] = []): Rendered {
  const join = (bs: Block[]) =>
    bs
      .map((b) => b.lines.join('\n'))
      .filter((t) => t.trim() !== '')
      .join('\n\n');
  const left: Exclusion[] = [];
  const kept: Block[] = [];
  let leading = true;
  let titled = false;
  for (const b of blocks) {
    const text = b.lines.join('\n');
    if (b.kind === 'title') {
      titled = true;
      left.push({ kind: 'title', text });
      continue;
    }
    // Tables and lists are the essay's content even at its top.
    if (leading && b.kind !== 'table' && b.kind !== 'list') {
      if (isCoverSheet(b.lines)) {
        left.push({ kind: 'cover_sheet', text });
        continue;
      }
      // A title is one line on the page, not a list item: lines the writer ended are content (an
      // address, a list), and lines read as wrapped may be a title and the essay's first line.
      if (b.kind === 'heading' && !titled && b.lines.length === 1 && !b.wrapped && !LIST_START.test(b.lines[0])) {
        titled = true;
        left.push({ kind: 'title', text });
        continue;
      }
    }
    leading = false;
    kept.push(b);
  }
  const text = join(blocks);
  const body = join(kept);
  const pages = named('page_furniture', furniture);
  return body === '' ? { text, body: text, excluded: pages } : { text, body, excluded: [...left, ...pages] };
}

/** Text, body and what was left out of plain text (a text file, OCR's output, pasted text). */
export function structurePlainText(text: string): Rendered {
  return render(plainTextBlocks(text));
}
