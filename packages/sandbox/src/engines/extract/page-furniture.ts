// Page furniture of a laid-out document (a PDF): page numbers, and header and footer lines that
// most pages repeat. Found by position, among the two top-most and bottom-most lines of each page,
// wherever the file put them in its order. What is found is left out of the marking, and named.

/** "Page 3", "Page 3 of 5", "page iv": a page number by its own words. */
const LABELLED = /^page\s*[-–—(]?\s*\d{1,4}\s*[-–—)]?(?:\s*(?:of|\/)\s*\d{1,4})?$|^page\s+[ivxlc]+$/i;
/** "3", "- 3 -", "(3)", "3 of 5", "3/5": a page number only when it counts the pages. */
const NUMBERED = /^[-–—(]?\s*(\d{1,4})\s*[-–—)]?(?:\s*(?:of|\/)\s*(\d{1,4}))?$/;

/** A line's text with its numbers made alike, so "Jamie Smith, page 2" on every page reads as one line. */
const shape = (s: string) => s.trim().toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ');

/** Indexes of the two top-most and two bottom-most lines; `y` grows upwards, as in a PDF. */
function edges(lines: { y: number }[]): Set<number> {
  const byHeight = lines
    .map((l, i) => ({ y: l.y, i }))
    .sort((a, b) => b.y - a.y)
    .map((l) => l.i);
  return new Set([...byHeight.slice(0, 2), ...byHeight.slice(-2)]);
}

/**
 * The lines of each page that are page furniture: a page number, or a line with words repeated at
 * the edge of at least half the pages (two at least). A bare number is a page number when it goes
 * up with the pages on at least as many of them (on a one-page document, when it is 1), so a table
 * cell or a year that ends a page is not. Returns, per page, the indexes to leave out.
 */
export function furniture(pages: { text: string; y: number }[][]): Set<number>[] {
  const edge = pages.map(edges);
  const most = Math.max(2, Math.ceil(pages.length / 2));
  const shapes = new Map<string, number>();
  // How many pages have an edge number that is the page's own number plus this offset.
  const offsets = new Map<number, number>();
  pages.forEach((lines, p) => {
    const seen = new Set<string>();
    const counted = new Set<number>();
    for (const i of edge[p]) {
      const text = lines[i].text.trim();
      seen.add(shape(text));
      const m = NUMBERED.exec(text);
      if (m) counted.add(Number(m[1]) - p);
    }
    for (const s of seen) shapes.set(s, (shapes.get(s) ?? 0) + 1);
    for (const o of counted) offsets.set(o, (offsets.get(o) ?? 0) + 1);
  });
  const pageNumber = (text: string, p: number) => {
    const m = NUMBERED.exec(text);
    if (!m || (m[2] !== undefined && Number(m[2]) !== pages.length)) return false;
    const offset = Number(m[1]) - p;
    return pages.length === 1 ? offset === 1 : (offsets.get(offset) ?? 0) >= most;
  };
  const repeated = (text: string) =>
    pages.length >= 2 && /\p{L}/u.test(text) && (shapes.get(shape(text)) ?? 0) >= most && text.split(/\s+/).length <= 12;
  return pages.map((lines, p) => {
    const out = new Set<number>();
    for (const i of edge[p]) {
      const text = lines[i].text.trim();
      if (LABELLED.test(text) || pageNumber(text, p) || repeated(text)) out.add(i);
    }
    return out;
  });
}
