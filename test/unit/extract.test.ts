import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExtractionError, extractText } from '../../packages/sandbox/src/engines/extract/index.js';
import { PageOcr } from '../../packages/sandbox/src/engines/extract/pdf.js';
import { decodeText } from '../../packages/sandbox/src/engines/extract/txt.js';
import { MIME } from '../../src/api/limits.js';
import { extractorFiles, FIXTURES, GENERATED, recall } from './extract-helpers.js';

const essay = readFileSync(join(FIXTURES, 'essay.txt'), 'utf8').trim();
const gen = (name: string) => join(GENERATED, name);
const scratch = extractorFiles('kct-extract-');
const paragraphs = (text: string) => text.split(/\n\s*\n/).filter((p) => p.trim()).length;
/** What essay-opening.png and scanned-opening.pdf show: the title and the first two paragraphs (scripts/make-fixtures.js). */
const opening = essay
  .split(/\n\s*\n/)
  .slice(0, 3)
  .join('\n\n');

describe('plain text', () => {
  it('reads the UTF-8 essay as it is', async () => {
    const { text, method } = await extractText(join(FIXTURES, 'essay.txt'), MIME.txt);
    expect(text).toBe(essay);
    expect(method).toBe('text/utf-8');
  });

  it('decodes a windows-1252 file instead of showing replacement characters', async () => {
    const { text, method } = await extractText(gen('essay-latin1.txt'), MIME.txt);
    expect(method).toBe('text/windows-1252');
    expect(text).toContain('naïve');
    expect(text).toContain('café');
    expect(text).toContain('brands — a polo');
    expect(text).not.toContain('\ufffd');
    expect(text).toBe(essay);
  });

  it('strips a UTF-8 BOM and reads UTF-16 with a BOM', () => {
    expect(decodeText(Buffer.from('\ufeffcafé', 'utf8')).text).toBe('café');
    expect(decodeText(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('naïve', 'utf16le')])).text).toBe('naïve');
  });

  it('refuses binary data sent as text', async () => {
    const path = scratch('binary.txt', Buffer.from([0x50, 0x4b, 3, 4, 0, 0, 1, 2, 0, 0]));
    await expect(extractText(path, MIME.txt)).rejects.toThrow(/binary data/);
  });

  it('returns an empty string for a whitespace-only file', async () => {
    expect((await extractText(scratch('empty.txt', ' \n\t\n'), MIME.txt)).text).toBe('');
  });
});

describe('PDF', () => {
  it('reads the text layer with its paragraphs and accents', async () => {
    const { text, method } = await extractText(gen('essay.pdf'), MIME.pdf);
    expect(method).toBe('pdf/text');
    expect(text.startsWith('Should Schools Require Uniforms?')).toBe(true);
    expect(text).toContain('naïve');
    expect(text).toContain('café');
    expect(paragraphs(text)).toBe(paragraphs(essay));
    // Lines wrapped by the PDF are joined back into the paragraphs they were.
    expect(text).toBe(essay);
  });

  it('gives an empty string for a page with nothing on it, without OCR', async () => {
    // method pdf/text (not pdf/ocr) shows that no page went to OCR
    expect(await extractText(gen('blank.pdf'), MIME.pdf)).toEqual({ text: '', body: '', excluded: [], method: 'pdf/text' });
  });

  it('throws a human message for a corrupt file', async () => {
    const attempt = extractText(gen('corrupt.pdf'), MIME.pdf);
    await expect(attempt).rejects.toBeInstanceOf(ExtractionError);
    await expect(attempt).rejects.toThrow(/PDF file could not be read: it is damaged or not a PDF/);
  });

  it('throws for a text file that claims to be a PDF', async () => {
    await expect(extractText(join(FIXTURES, 'short.txt'), MIME.pdf)).rejects.toThrow(/not a PDF/);
  });
});

describe('DOCX', () => {
  it('reads paragraphs and accents', async () => {
    const { text, method } = await extractText(gen('essay.docx'), MIME.docx);
    expect(method).toBe('docx/mammoth');
    expect(text).toBe(essay);
  });

  it('throws a human message for a file that is not a Word document', async () => {
    await expect(extractText(gen('essay.pdf'), MIME.docx)).rejects.toThrow(/not a readable Word \(\.docx\) document/);
  });
});

describe('RTF', () => {
  it('reads body text, skips header groups and honours \\uN with its fallback', async () => {
    const { text, method } = await extractText(gen('essay.rtf'), MIME.rtf);
    expect(method).toBe('rtf');
    expect(text).toBe(essay);
    expect(text).not.toMatch(/Times New Roman|make-fixtures|A\. Student|\?ve|caf\?/);
  });

  it("handles \\ucN, \\'XX code-page bytes, symbols and skipped destinations", async () => {
    const rtf =
      String.raw`{\rtf1\ansi\ansicpg1252{\fonttbl{\f0 Arial;}{\f1\fcharset204 Arial Cyr;}}` +
      String.raw`{\*\unknowndest hidden}{\header page head}\pard\f0 caf\'e9 {\uc2\u8364xx} euro {\uc0\u8211}` +
      String.raw`\ldblquote q\rdblquote\tab x\par {\f1 \'cf\'f0\'e8\'e2\'e5\'f2}\line \\ \{ \} na\u239?ve}`;
    const { text } = await extractText(scratch('mixed.rtf', rtf), MIME.rtfText);
    expect(text).toBe('café € euro –“q”\tx\n\nПривет\n\\ { } naïve');
  });

  it('throws for a file that is not RTF', async () => {
    await expect(extractText(join(FIXTURES, 'short.txt'), MIME.rtf)).rejects.toThrow(/not an RTF document/);
  });
});

describe('OCR', () => {
  // the essay's opening rather than its whole page: the same reading, in a third of the time
  it('reads the essay image back', async () => {
    const { text, body, method } = await extractText(gen('essay-opening.png'), MIME.png);
    expect(method).toBe('image/ocr');
    expect(recall(opening, text)).toBeGreaterThan(0.9);
    expect(text).toMatch(/uniforms reduce bullying/i);
    // The page's lines are joined into its paragraphs; the title is not marked.
    expect(paragraphs(body)).toBe(paragraphs(opening) - 1);
    expect(body).not.toMatch(/Should Schools Require Uniforms/);
  }, 60_000);

  it('reads a scanned PDF page that has no text layer', async () => {
    const { text, method } = await extractText(gen('scanned-opening.pdf'), MIME.pdf);
    expect(method).toBe('pdf/ocr');
    expect(recall(opening, text)).toBeGreaterThan(0.9);
    expect(text).toMatch(/schools should require uniforms/i);
  }, 60_000);

  it('reads a scanned page from its embedded image when no canvas is used', async () => {
    const { getDocumentProxy } = await import('unpdf');
    const data = new Uint8Array(readFileSync(gen('scanned-opening.pdf')));
    const pdf = await getDocumentProxy(new Uint8Array(data), { verbosity: 0 });
    try {
      expect(recall(opening, await new PageOcr(data, pdf, false).read(1))).toBeGreaterThan(0.9);
    } finally {
      await pdf.destroy();
    }
  }, 60_000);

  it('throws a human message for bytes that are no image', async () => {
    await expect(extractText(join(FIXTURES, 'short.txt'), MIME.png)).rejects.toThrow(/not a PNG, JPEG, WebP or GIF image/);
  });

  it('throws a human message for an image whose data is damaged', async () => {
    const png = readFileSync(gen('essay.png'));
    const path = scratch('broken.png', Buffer.concat([png.subarray(0, 64), Buffer.alloc(256, 7)]));
    // refused before OCR, whose decoders would only complain on stderr (npm test prints no noise)
    await expect(extractText(path, MIME.png)).rejects.toThrow(/The PNG image is damaged \(chunk at byte \d+ has no valid type\)/);
    const cut = scratch('cut.png', png.subarray(0, png.length >> 1));
    await expect(extractText(cut, MIME.png)).rejects.toThrow(/The PNG image is damaged \(cut short\)/);
  }, 60_000);
});

it('refuses a type it does not know', async () => {
  await expect(extractText(join(FIXTURES, 'short.txt'), 'application/zip')).rejects.toThrow(/cannot be read/);
});
