import type { Exclusion } from './marked.js';

/**
 * One shape of text for every format, so grading sees the same paragraphs whatever the file was:
 * LF line ends, no trailing blanks, at most one empty line between paragraphs, no NULs.
 */
export function tidy(text: string): string {
  return text
    .replace(/\r\n?|[\u000b\u000c\u2028\u2029]/g, '\n')
    .replace(/[\u0000\u200b\ufeff]/g, '')
    .replace(/[ \t\u00a0]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * What a file's text is read as. `text` keeps every block, headings included (question and rubric
 * files need them); `body` is what an answer is marked on: every word of the file except what
 * `excluded` names (a title, a cover sheet's lines, page furniture; see marked.ts).
 */
export interface Extracted {
  text: string;
  body: string;
  excluded: Exclusion[];
  method: string;
}
