// The headers and footers of a Word document, which mammoth does not read: they are page
// furniture, left out of what is marked, and named (marked.ts), so their text is read here.
import { decodeEntities as decode } from './docx-html.js';
import { readParts } from './zip.js';

const PART = /^word\/(?:header|footer)\d*\.xml$/;

/** The text of each paragraph of a part: its `w:t` runs; tabs and breaks as spaces; field codes and deletions are not text. */
function partParagraphs(xml: string): string[] {
  // A text box is written twice, as DrawingML and as a VML fallback: read it once.
  const once = xml.replace(/<mc:Fallback\b[\s\S]*?<\/mc:Fallback>/g, '');
  return once
    .split(/<\/w:p>/)
    .map((p) => {
      const parts = p.match(/<w:t(?:\s[^>]*)?>[^<]*<\/w:t>|<w:(?:tab|br|cr)\b[^>]*\/>/g) ?? [];
      return parts
        .map((t) => (t.endsWith('</w:t>') ? decode(t.replace(/^<w:t(?:\s[^>]*)?>|<\/w:t>$/g, '')) : ' '))
        .join('')
        .replace(/\s+/g, ' ')
        .trim();
    })
    .filter((t) => t !== '');
}

/** Distinct paragraphs of the document's headers and footers, in part order. */
export function docxFurniture(data: Buffer, maxEntries: number): string[] {
  const texts = readParts(data, (name) => PART.test(name), maxEntries)
    // Headers before footers, each in number order.
    .sort(
      (a, b) =>
        Number(a.name.includes('/footer')) - Number(b.name.includes('/footer')) || a.name.localeCompare(b.name, 'en', { numeric: true }),
    )
    .flatMap((part) => partParagraphs(part.data.toString('utf8')));
  return [...new Set(texts)];
}
