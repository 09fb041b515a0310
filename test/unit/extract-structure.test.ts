// Extraction keeps a document's structure: paragraphs (not lines), headings and page furniture
// apart from the body that is marked. Real-looking files come from scripts/make-fixtures.js.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeExtractors, extractText } from '../../packages/sandbox/src/engines/extract/index.js';
import { render, structurePlainText } from '../../packages/sandbox/src/engines/extract/marked.js';
import { furniture } from '../../packages/sandbox/src/engines/extract/page-furniture.js';
import { isHeading, plainTextBlocks } from '../../packages/sandbox/src/engines/extract/structure.js';
import { MIME } from '../../src/api/limits.js';
import { ensureFixtures, FIXTURES, GENERATED } from './extract-helpers.js';

const gen = (name: string) => join(GENERATED, name);
const source = (set: string, name: string) => readFileSync(join(FIXTURES, 'graded', set, `${name}.txt`), 'utf8').trim();
const blocksOf = (text: string) =>
  text
    .split(/\n\s*\n/)
    .map((b) => b.trim())
    .filter(Boolean);
/** The paragraphs of a labelled answer, its title (a first short line without a full stop) left out. */
function paragraphsOf(text: string): string[] {
  const blocks = blocksOf(text);
  return !blocks[0].includes('\n') && blocks[0].split(' ').length <= 10 && !/[.,]$/.test(blocks[0]) ? blocks.slice(1) : blocks;
}
/** Wraps each paragraph at `width` characters, as an e-mail client or a typewriter would. */
function hardWrap(paragraphs: string[], width: number, between = '\n\n'): string {
  return paragraphs
    .map((p) => {
      const lines: string[] = [];
      let line = '';
      for (const word of p.split(/\s+/)) {
        if (line && line.length + 1 + word.length > width) {
          lines.push(line);
          line = word;
        } else line = line ? `${line} ${word}` : word;
      }
      return [...lines, line].join('\n');
    })
    .join(between);
}

beforeAll(() => ensureFixtures());
afterAll(async () => {
  await closeExtractors();
});

describe('PDF paragraphs come from the layout, not from line breaks', () => {
  it('reads a two-page letter with first-line indents, no paragraph spacing, a running header and page numbers', async () => {
    const { text, body, excluded, method } = await extractText(gen('graded-strong.pdf'), MIME.pdf);
    expect(method).toBe('pdf/text');
    // The title is kept in the text (question and rubric files need headings) but not marked.
    expect(text.startsWith('Keep Our Uniform\n\n')).toBe(true);
    expect(body).toBe(paragraphsOf(source('persuasive', 'strong-1')).join('\n\n'));
    // What is not marked is named, the header once with the number of pages it was on.
    expect(excluded).toEqual([
      { kind: 'title', text: 'Keep Our Uniform' },
      { kind: 'page_furniture', text: 'Priya Sharma - Year 9 English - Persuasive writing', count: 2 },
      { kind: 'page_furniture', text: 'Page 1 of 2' },
      { kind: 'page_furniture', text: 'Page 2 of 2' },
    ]);
    for (const furnitureLine of [/Page \d of 2/, /Year 9 English - Persuasive writing/]) {
      expect(text).not.toMatch(furnitureLine);
      expect(body).not.toMatch(furnitureLine);
    }
  });

  it('joins the paragraph that runs on over the page break', async () => {
    const { body } = await extractText(gen('graded-strong.pdf'), MIME.pdf);
    const critics = paragraphsOf(source('persuasive', 'strong-1')).find((p) => p.startsWith('Critics argue'))!;
    expect(blocksOf(body)).toContain(critics);
  });

  it('finds paragraphs of left-aligned text with no spacing and no indents from the short last lines', async () => {
    const { body } = await extractText(gen('graded-ragged.pdf'), MIME.pdf);
    expect(blocksOf(body)).toEqual(paragraphsOf(source('mice-and-men', 'strong-1')));
  });

  it('reads paragraphs set apart by space, with the larger title out of the body', async () => {
    const essay = readFileSync(join(FIXTURES, 'essay.txt'), 'utf8').trim();
    const { text, body } = await extractText(gen('essay.pdf'), MIME.pdf);
    expect(text).toBe(essay);
    expect(body).toBe(blocksOf(essay).slice(1).join('\n\n'));
  });
});

describe('DOCX', () => {
  it('keeps Word paragraphs, line breaks, headings and footnotes; leaves out and names the Title style, headers and footers', async () => {
    const { text, body, excluded } = await extractText(gen('graded-middling.docx'), MIME.docx);
    const paragraphs = paragraphsOf(source('persuasive', 'middling-1'));
    expect(text.split('\n\n').slice(0, 2)).toEqual(['School Uniforms', 'My view']);
    // mammoth puts footnotes after the body; they are the writer's words, so they stay. So is a heading.
    expect(blocksOf(body)).toEqual(['My view', ...paragraphs, "My cousin's school in Leeds."]);
    expect(text).not.toMatch(/Year 9 English|Page \d|\[1\]|↑/);
    expect(excluded).toEqual([
      { kind: 'title', text: 'School Uniforms' },
      { kind: 'page_furniture', text: 'Year 9 English: persuasive writing' },
      { kind: 'page_furniture', text: 'Page' },
    ]);
  });
});

describe('RTF', () => {
  it('ends a paragraph at each \\par, not only at empty ones, and leaves out and names the title (a heading style) and footer', async () => {
    const { text, body, excluded } = await extractText(gen('graded-paragraphs.rtf'), MIME.rtf);
    expect(excluded).toEqual([
      { kind: 'title', text: 'Essay' },
      { kind: 'page_furniture', text: 'Page 1' },
    ]);
    const paragraphs = blocksOf(source('persuasive', 'middling-3'));
    expect(blocksOf(body)).toEqual(paragraphs);
    expect(paragraphs).toHaveLength(6);
    expect(text.startsWith('Essay\n\n')).toBe(true);
    expect(text).not.toMatch(/Page|PAGE|heading 1|Normal;/);
  });

  it('keeps \\line breaks inside the paragraph', async () => {
    const rtf = String.raw`{\rtf1\ansi\pard Dear Board,\line I am writing to you.\par\pard Yours faithfully,\line Sam\par}`;
    const path = join(mkdtempSync(join(tmpdir(), 'kct-rtf-')), 'letter.rtf');
    writeFileSync(path, rtf);
    expect((await extractText(path, MIME.rtf)).body).toBe('Dear Board,\nI am writing to you.\n\nYours faithfully,\nSam');
  });
});

describe('plain text', () => {
  it('a 19 MB line with no space is one paragraph, read without overflowing a regular expression', () => {
    const line = 'a'.repeat(19 * 1024 * 1024);
    expect(() => isHeading([line])).not.toThrow();
    const blocks = plainTextBlocks(line);
    expect(blocks).toHaveLength(1);
    expect(blocks[0].lines.join('').length).toBe(line.length);
  });

  const paragraphs = paragraphsOf(source('source-analysis', 'strong-2'));

  it('joins lines wrapped at a fixed width (an e-mail, a typewriter) into paragraphs', () => {
    expect(blocksOf(structurePlainText(hardWrap(paragraphs, 72)).body)).toEqual(paragraphs);
    expect(blocksOf(structurePlainText(hardWrap(paragraphs, 60).replace(/\n/g, '\r\n')).body)).toEqual(paragraphs);
  });

  it('keeps a hyphen at a wrap and joins the word without a space', () => {
    const wrapped = hardWrap([paragraphs[0]], 64).split('\n');
    wrapped[1] = `${wrapped[1]} well-`;
    wrapped[2] = `known ${wrapped[2]}`;
    expect(structurePlainText(wrapped.join('\n')).body).toContain(' well-known ');
  });

  it('reads one line per paragraph, without blank lines, as paragraphs', () => {
    expect(blocksOf(structurePlainText(paragraphs.join('\n')).body)).toEqual(paragraphs);
  });

  it('starts a paragraph at an indent in wrapped text with no blank lines', () => {
    const indented = paragraphs.map((p) => `    ${p}`);
    expect(blocksOf(structurePlainText(hardWrap(indented, 70, '\n')).body).map((b) => b.replace(/\s+/g, ' '))).toEqual(paragraphs);
  });

  it("leaves out a title and a cover sheet, keeps a letter's lines", () => {
    const typed =
      'Name: Jamie Smith\nClass: 9B\nDate: 3 March\n\nShould Schools Require Uniforms?\n\nDear Board,\nI am writing about uniforms. They cost too much.\n\nYours faithfully,\nJamie';
    const { text, body } = structurePlainText(typed);
    expect(body).toBe('Dear Board,\nI am writing about uniforms. They cost too much.\n\nYours faithfully,\nJamie');
    expect(text).toContain('Should Schools Require Uniforms?');
  });

  it('never empties an answer that is only a short line', () => {
    expect(structurePlainText('Uniforms are bad').body).toBe('Uniforms are bad');
  });

  it('reads the text of a TXT file as typed, and its body as paragraphs', async () => {
    const { text, body } = await extractText(join(FIXTURES, 'graded', 'narrative', 'weak-2.txt'), MIME.txt);
    expect(text.startsWith('My Turning Point\n\nI used to be naughty')).toBe(true);
    expect(body.startsWith('I used to be naughty')).toBe(true);
  });
});

describe('headings', () => {
  it('are short, not sentences, and marked as headings by style, type or capitals', () => {
    expect(isHeading(['Should Schools Require Uniforms?'])).toBe(true);
    expect(isHeading(['## Evidence'])).toBe(true);
    expect(isHeading(['INTRODUCTION'])).toBe(true);
    expect(isHeading(['My view'])).toBe(true);
    expect(isHeading(['The dream of the farm'], { emphasised: true })).toBe(true);
    expect(isHeading(['Uniforms and the cost to families in our town this year'], { headingStyle: true })).toBe(true);
    expect(isHeading(['Dear Members of the School Board,'])).toBe(false);
    expect(isHeading(['I think uniforms are good.'])).toBe(false);
    expect(isHeading(['Why does this matter so much to the students who have to wear them every day?'])).toBe(false);
    expect(
      isHeading(['First, uniforms reduce bullying and peer pressure among the students of every year group at our school'], {
        emphasised: true,
      }),
    ).toBe(false);
  });

  it('only head something: short blocks after the last paragraph stay in the body', () => {
    const { body } = render(plainTextBlocks('Title Here\n\nThe essay itself is one sentence.\n\nYours Sincerely\n\nSam Lee'));
    expect(body).toBe('The essay itself is one sentence.\n\nYours Sincerely\n\nSam Lee');
  });
});

describe('page furniture', () => {
  const page = (lines: string[]) => lines.map((text, i) => ({ text, y: 800 - i * 14 }));

  it('is a page number alone, or a line repeated at the top or bottom of most pages', () => {
    const pages = [
      page(['Jamie Smith, 9B', 'Uniforms essay', 'First paragraph text.', 'Page 1 of 3']),
      page(['Jamie Smith, 9B', 'More of the essay.', 'And more.', '- 2 -']),
      page(['Jamie Smith, 9B', 'The end of the essay.', '3']),
    ];
    expect(furniture(pages).map((s) => [...s].sort())).toEqual([
      [0, 3],
      [0, 3],
      [0, 2],
    ]);
  });

  it('is found by position, wherever the file put the line in its order', () => {
    const body = ['Uniforms cost money.', 'They also save time.', 'Some disagree.', 'That is fair.', 'But not enough.', 'So keep them.'];
    // The header and its draft mark are drawn after the body, as some word processors do.
    const pages = [0, 1].map((n) => [
      ...page(body.slice(n * 3, n * 3 + 3)),
      { text: 'Draft - not for circulation', y: 830 },
      { text: `Essay part ${n + 1}`, y: 820 },
    ]);
    expect(furniture(pages).map((s) => [...s].sort())).toEqual([
      [3, 4],
      [3, 4],
    ]);
  });

  it('is not a line that appears once, or a body line in the middle of a page', () => {
    expect([...furniture([page(['A heading', 'Body.', 'Body again.', 'Signed'])])[0]]).toEqual([]);
  });

  it('is a bare number only when it counts the pages: a year or a table cell that ends a page is not one', () => {
    // A one-page essay whose last line is a year, and a table's last cell "12" on each of two pages.
    expect([...furniture([page(['Body.', 'More body.', 'Written in', '2019'])])[0]]).toEqual([]);
    expect(
      furniture([page(['Uniforms cost.', 'A table:', 'Fees', '12']), page(['Trips cost too.', 'Another:', 'Trips', '12'])]).map((s) => [
        ...s,
      ]),
    ).toEqual([[], []]);
    // Numbers that go up with the pages, from any first number, are page numbers; "1" alone on one page is too.
    expect(
      furniture([
        page(['Uniforms cost.', 'More of it.', 'Still more.', '7']),
        page(['Trips cost too.', 'Another line.', 'And one more.', '8']),
      ]).map((s) => [...s]),
    ).toEqual([[3], [3]]);
    expect([...furniture([page(['Body.', 'More.', 'Again.', '1'])])[0]]).toEqual([3]);
  });
});
