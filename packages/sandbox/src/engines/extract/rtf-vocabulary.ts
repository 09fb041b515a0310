// What RTF's tokens and control words mean to the reader (rtf-walker.ts): the token types,
// destinations skipped or read apart, paragraph and line ends, symbols, and code pages.
import iconv from 'iconv-lite';

// rtf-stream-parser's token types (a `const enum` there, which isolatedModules cannot import).
export const GROUP_START = 0;
export const GROUP_END = 1;
export const CONTROL = 2;
export const TEXT = 3;

export interface Token {
  type: number;
  word?: string;
  param?: number;
  data?: Buffer;
}

/**
 * Destinations whose content is not the document's text. Any `{\*\...}` group is skipped too, as
 * the RTF spec asks of readers that do not know it.
 */
export const SKIPPED = new Set([
  'fonttbl',
  'colortbl',
  'info',
  'pict',
  'object',
  'objdata',
  'shppict',
  'nonshppict',
  'fldinst',
  // A shape's properties, and the copy of its text for readers that cannot draw it (read in \shptxt).
  'sp',
  'shprslt',
  'listtable',
  'listoverridetable',
  'revtbl',
  'rsidtbl',
  'generator',
  'xmlnstbl',
  'filetbl',
  'themedata',
  'colorschememapping',
  'latentstyles',
  'datastore',
  'pgdsctbl',
  'bkmkstart',
  'bkmkend',
  'xe',
  'tc',
  'txe',
  'private',
  'userprops',
  'docvar',
  'annotation',
  'atnid',
  'atnauthor',
]);

/**
 * Destinations read apart from the body: headers and footers are page furniture (named as left
 * out); footnotes and endnotes are the writer's words, marked after the body as Word's are.
 */
export const APART: Record<string, Destination> = Object.fromEntries([
  ...['header', 'headerl', 'headerr', 'headerf', 'footer', 'footerl', 'footerr', 'footerf'].map((w) => [w, 'furniture']),
  ['footnote', 'notes'],
]);

export type Destination = 'body' | 'furniture' | 'notes';

/** Control words that end a paragraph; `\line` and a raw line break only start a new line in it. */
export const PARAGRAPH_ENDS = new Set(['par', 'sect', 'page', 'row', 'nestrow', '\n', '\r']);
export const LINE_BREAKS = new Set(['line', 'softline', 'column']);

export const SYMBOLS: Record<string, string> = {
  tab: '\t',
  cell: '\t',
  nestcell: '\t',
  emdash: '\u2014',
  endash: '\u2013',
  bullet: '\u2022',
  lquote: '\u2018',
  rquote: '\u2019',
  ldblquote: '\u201c',
  rdblquote: '\u201d',
  emspace: ' ',
  enspace: ' ',
  qmspace: ' ',
  '~': '\u00a0',
  _: '-',
  '-': '',
  '\\': '\\',
  '{': '{',
  '}': '}',
};

/** \fcharsetN → code page, for documents whose fonts carry the encoding (Cyrillic, Greek, CJK...). */
export const CHARSETS: Record<number, string> = {
  0: 'cp1252',
  77: 'macintosh',
  128: 'cp932',
  129: 'cp949',
  134: 'cp936',
  136: 'cp950',
  161: 'cp1253',
  162: 'cp1254',
  163: 'cp1258',
  177: 'cp1255',
  178: 'cp1256',
  186: 'cp1257',
  204: 'cp1251',
  222: 'cp874',
  238: 'cp1250',
};

export function codepage(name: string | undefined): string | undefined {
  return name !== undefined && iconv.encodingExists(name) ? name : undefined;
}
