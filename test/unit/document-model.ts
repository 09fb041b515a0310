// A student's document as data, and fast-check's generator of them, for the "every word is
// marked" properties: paragraphs, headings, tables of short cells, lists, footnotes, text boxes,
// a title, a cover sheet, a header and a footer, in words with accents (all in Latin-1, which
// PDF's standard fonts can write).
import fc from 'fast-check';
import type { Exclusion } from '../../packages/sandbox/src/engines/extract/marked.js';

export type Element =
  | { kind: 'paragraph'; text: string }
  | { kind: 'heading'; text: string }
  | { kind: 'table'; rows: string[][] }
  | { kind: 'list'; ordered: boolean; items: string[] }
  | { kind: 'footnoted'; text: string; note: string }
  | { kind: 'textbox'; text: string };

export interface DocModel {
  title?: string;
  /** "Name: …" lines after the title. */
  cover: string[];
  header?: string;
  footer?: string;
  elements: Element[];
}

const VOCABULARY = [
  'school',
  'uniform',
  'uniforms',
  'students',
  'families',
  'money',
  'cost',
  'bullying',
  'equal',
  'blazers',
  'summer',
  'fashion',
  'time',
  'morning',
  'rules',
  'the',
  'a',
  'and',
  'of',
  'to',
  'is',
  'because',
  'however',
  'pros',
  'cons',
  'café',
  'naïve',
  'élève',
  'façade',
  'über',
  'señor',
  'résumé',
  'Zoë',
  'Ångström',
  'déjà',
  'crème',
  'brûlée',
  'piñata',
  'jalapeño',
  'Æsop',
  'garçon',
  'Müller',
  'São',
  "don't",
  "student's",
  'well-known',
  '12',
  '2019',
  '3',
  '450',
];

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const word = fc.constantFrom(...VOCABULARY);
const words = (min: number, max: number) => fc.array(word, { minLength: min, maxLength: max });

/** A few words in lower case, Title Case or capitals: what a heading, a label or a cell looks like. */
const shortLine = (max: number) =>
  fc
    .tuple(words(1, max), fc.constantFrom('lower', 'title', 'upper'))
    .map(([ws, casing]) =>
      casing === 'upper' ? ws.join(' ').toUpperCase() : casing === 'title' ? ws.map(capital).join(' ') : ws.join(' '),
    );

const sentence = fc
  .tuple(words(2, 12), fc.constantFrom('.', '.', '.', '!', '?', ',', ''))
  .map(([ws, end]) => `${capital(ws.join(' '))}${end}`);
const paragraphText = fc.array(sentence, { minLength: 1, maxLength: 4 }).map((ss) => ss.join(' '));
const cell = fc.oneof(fc.constantFrom('Pros', 'Cons', 'Yes', 'No', ''), word, fc.nat(9999).map(String), shortLine(3));

const element: fc.Arbitrary<Element> = fc.oneof(
  { weight: 4, arbitrary: fc.oneof(paragraphText, shortLine(6)).map((text) => ({ kind: 'paragraph' as const, text })) },
  { weight: 2, arbitrary: shortLine(6).map((text) => ({ kind: 'heading' as const, text })) },
  {
    weight: 3,
    arbitrary: fc
      .integer({ min: 1, max: 4 })
      .chain((cols) => fc.array(fc.array(cell, { minLength: cols, maxLength: cols }), { minLength: 1, maxLength: 5 }))
      .map((rows) => ({ kind: 'table' as const, rows })),
  },
  {
    weight: 2,
    arbitrary: fc
      .record({ ordered: fc.boolean(), items: fc.array(fc.oneof(shortLine(5), sentence), { minLength: 1, maxLength: 5 }) })
      .map((l) => ({ kind: 'list' as const, ...l })),
  },
  { weight: 1, arbitrary: fc.record({ text: paragraphText, note: sentence }).map((f) => ({ kind: 'footnoted' as const, ...f })) },
  { weight: 1, arbitrary: shortLine(8).map((text) => ({ kind: 'textbox' as const, text })) },
);

const coverLine = fc
  .tuple(fc.constantFrom('Name', 'Class', 'Date', 'Candidate number', 'Teacher'), words(1, 3))
  .map(([label, ws]) => `${label}: ${ws.join(' ')}`);

/** Documents of one to `maxElements` elements after the title and cover sheet. */
export function documentModels(maxElements = 10): fc.Arbitrary<DocModel> {
  return fc.record({
    title: fc.option(
      words(1, 5).map((ws) => ws.map(capital).join(' ')),
      { nil: undefined },
    ),
    cover: fc.array(coverLine, { maxLength: 3 }),
    header: fc.option(
      words(1, 5).map((ws) => ws.join(' ')),
      { nil: undefined },
    ),
    footer: fc.option(
      words(1, 3).map((ws) => capital(ws.join(' '))),
      { nil: undefined },
    ),
    elements: fc.array(element, { minLength: 1, maxLength: maxElements }),
  });
}

/** Every text of an element, in order (a footnote's after its paragraph). */
export function elementTexts(e: Element): string[] {
  switch (e.kind) {
    case 'table':
      return e.rows.flat();
    case 'list':
      return e.items;
    case 'footnoted':
      return [e.text, e.note];
    default:
      return [e.text];
  }
}

/** All the words the generator wrote, as one text. */
export function modelText(m: DocModel): string {
  return [m.title, ...m.cover, m.header, m.footer, ...m.elements.flatMap(elementTexts)].filter((t) => t !== undefined).join('\n');
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** An element's lines as a reader meets them (a list's, after their markers, never open a title). */
function lines(e: Element): string[] {
  if (e.kind === 'table') return e.rows.map((r) => r.join(' | '));
  return e.kind === 'list' ? ['•'] : [e.text];
}

/**
 * What may be named as left out of a document made from `m`: as its title, the opening of the
 * document (its title, or else its first lines) as far as a reader's first block goes (the rule is
 * a guess: a short first line may be a title; to mammoth a text box is a paragraph; in a PDF or a
 * text file a one-column table is lines, and short lines with nothing to measure them against may
 * be read as one wrapped line); its cover lines; its header and footer, and the page numbers a
 * format prints (`pageNumber`).
 */
export function allowedExclusions(m: DocModel, pageNumber?: RegExp): Record<Exclusion['kind'], (text: string) => boolean> {
  // The title comes before or after a cover sheet.
  const openings = [
    [m.title ?? '', ...m.elements.flatMap(lines)],
    [...m.cover, m.title ?? '', ...m.elements.flatMap(lines)],
  ].map((ls) => squash(ls.join(' ')));
  // A text file marks a note "[1]" where Word has a reference.
  const opens = (title: string) => {
    const text = title.replace(/\s*\[\d+\]/g, '');
    return openings.some((o) => o.startsWith(text) && (o.length === text.length || o[text.length] === ' '));
  };
  const cover = new Set(m.cover.map(squash));
  const furniture = [m.header, m.footer].filter((t) => t !== undefined).map(squash);
  return {
    title: opens,
    // A cover sheet's lines may come as one block.
    cover_sheet: (text) => text.split(/(?=(?:Name|Class|Date|Candidate number|Teacher): )/).every((l) => cover.has(squash(l))),
    page_furniture: (text) => furniture.includes(text) || (pageNumber?.test(text) ?? false),
  };
}
