// Online text as the answer text to mark. Moodle writes it as
// '<!DOCTYPE html><html><head><meta charset="UTF-8"></head><body>' . text . '</body></html>'
// (mod/assign/submission/onlinetext/locallib.php, get_files); Canvas as a page rendered from
// app/views/assignments/text_entry_page.html.erb (its heading, the assignment and the student's name,
// left out). The service takes text, not HTML.

const BLOCK_END = /<\/(p|div|h[1-6]|li|tr|blockquote|pre|table|ul|ol|section|article)\s*>/gi;
const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ndash: '–',
  mdash: '—',
  hellip: '…',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
};

/** The words a student typed: tags and head removed, paragraphs and line breaks kept, entities decoded. */
export function onlineTextAsPlain(html: string): string {
  const text = withoutCanvasHeading(html)
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<(head|script|style|title)\b[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<li\b[^>]*>/gi, '\n- ')
    .replace(BLOCK_END, '\n\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => decodeEntity(name) ?? entity);
  return text
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * Canvas heads its page with "<assignment>: <student's name>", as the title and again as the first
 * heading: not the student's words, and a name kct never sends. That heading is left out.
 */
function withoutCanvasHeading(html: string): string {
  const title = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(html);
  const heading = /<h1\b[^>]*>([\s\S]*?)<\/h1\s*>/i.exec(html);
  if (!title || !heading || inline(heading[1]) !== inline(title[1])) return html;
  return html.slice(0, heading.index) + html.slice(heading.index + heading[0].length);
}

/** A bit of HTML as one line of text, to compare two of them. */
function inline(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => decodeEntity(name) ?? entity)
    .replace(/\s+/g, ' ')
    .trim();
}

function decodeEntity(name: string): string | undefined {
  if (name[0] !== '#') return NAMED[name.toLowerCase()];
  const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
  return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
}
