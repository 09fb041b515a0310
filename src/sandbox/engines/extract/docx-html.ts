// Blocks of a Word document from mammoth's HTML, which keeps what its raw text loses: which
// paragraphs are headings (Word's heading and title styles) and which runs are bold.
import { classify, type Block } from './structure.js';

const BLOCK_TAGS = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'li', 'ul', 'ol', 'table', 'tr', 'td', 'th', 'caption', 'blockquote']);
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decode(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}

/** Mammoth's style map plus Word's Title and Subtitle styles, which it leaves as plain paragraphs. */
export const DOCX_STYLE_MAP = ["p[style-name='Title'] => h1:fresh", "p[style-name='Subtitle'] => h2:fresh"];

export function docxBlocks(html: string): Block[] {
  const raw: { lines: string[]; hints: { headingStyle: boolean; emphasised: boolean } }[] = [];
  let lines: string[] = [''];
  let heading = false;
  let bold = 0;
  let chars = 0;
  let boldChars = 0;
  // Footnote markers ("[1]") and the back-links of the notes ("↑") are not the writer's words.
  let skipping = 0;
  const flush = () => {
    const text = lines.map((l) => l.replace(/\s+/g, ' ').trim());
    if (text.some((l) => l !== '')) {
      raw.push({ lines: text, hints: { headingStyle: heading, emphasised: chars > 0 && boldChars / chars > 0.9 } });
    }
    lines = [''];
    chars = 0;
    boldChars = 0;
  };
  const tokens = /<(\/?)([a-zA-Z0-9]+)([^>]*)>|([^<]+)/g;
  for (let m = tokens.exec(html); m; m = tokens.exec(html)) {
    const [, closing, tagName, attrs, text] = m;
    if (text !== undefined) {
      if (skipping > 0) continue;
      const t = decode(text);
      lines[lines.length - 1] += t;
      const n = t.replace(/\s/g, '').length;
      chars += n;
      if (bold > 0) boldChars += n;
      continue;
    }
    const tag = tagName.toLowerCase();
    if (tag === 'br') {
      lines.push('');
    } else if (tag === 'strong' || tag === 'b') {
      bold += closing ? -1 : 1;
    } else if (tag === 'a' && !closing && /href="#(?:footnote|endnote|comment)-/.test(attrs)) {
      skipping++;
    } else if (tag === 'a' && closing && skipping > 0) {
      skipping--;
    } else if (BLOCK_TAGS.has(tag)) {
      flush();
      heading = !closing && /^h[1-6]$/.test(tag);
    }
  }
  flush();
  return classify(raw);
}
