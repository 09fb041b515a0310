// A specification (spec 4.4) restricts a questions preview to what it names: a question, a part
// of one, or the questions whose text holds its words.
import type { ParsedPaper } from './questions.js';

export interface Selection {
  question: string;
  part?: string;
}

/** The question a specification names: "question 2", "Q2(b)", "q 2 b)", "2b", "only 3", "question two". */
export function namedQuestion(specification: string): Selection | undefined {
  const words: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 };
  const spec = specification.toLowerCase().trim();
  const PART = String.raw`(?:\s*\(([a-z])\)|\s*([a-z])\)|([a-z])(?![a-z]))?`;
  const m =
    new RegExp(String.raw`(?:question|q)\s*\.?\s*(\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten)\b${PART}`).exec(spec) ??
    new RegExp(String.raw`(?:question|q)\s*\.?\s*(\d{1,3})${PART}`).exec(spec) ??
    new RegExp(String.raw`^(?:only\s+)?(\d{1,3})${PART}(?:\s+only)?$`).exec(spec);
  if (!m) return undefined;
  const number = /^\d+$/.test(m[1]) ? String(Number(m[1])) : String(words[m[1]]);
  const part = m[2] ?? m[3] ?? m[4];
  return part ? { question: number, part } : { question: number };
}

/**
 * Keeps only what a specification names. A number selects that question (and a letter one part
 * of it); otherwise questions whose text contains the specification's words are kept. When nothing
 * matches, the result is empty and a warning says why.
 */
export function applySpecification(paper: ParsedPaper, specification: string | undefined): ParsedPaper {
  if (specification === undefined || specification.trim() === '') return paper;
  const named = namedQuestion(specification);
  const available = paper.questions.map((q) => q.number).join(', ') || 'none';
  if (named) {
    const question = paper.questions.find((q) => q.number === named.question);
    if (!question) {
      return {
        ...paper,
        questions: [],
        warnings: [
          ...paper.warnings,
          `The specification names question ${named.question}, which is not in the paper (found: ${available}).`,
        ],
      };
    }
    if (named.part) {
      const part = question.sub_questions?.find((s) => s.number === named.part);
      if (!part) {
        return {
          ...paper,
          questions: [question],
          warnings: [
            ...paper.warnings,
            `The specification names part (${named.part}) of question ${named.question}, which has no such part; the whole question was kept.`,
          ],
        };
      }
      return { ...paper, questions: [{ ...question, sub_questions: [part], ...(part.marks !== undefined ? { marks: part.marks } : {}) }] };
    }
    return { ...paper, questions: [question] };
  }
  const terms = specification
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 3);
  const matches = paper.questions.filter((q) => {
    const all = [q.text, ...(q.sub_questions ?? []).map((s) => s.text)].join(' ').toLowerCase();
    return terms.length > 0 && terms.every((t) => all.includes(t));
  });
  if (matches.length === 0) {
    return {
      ...paper,
      warnings: [
        ...paper.warnings,
        `The specification "${specification}" names no question number and matches no question's text; every question was kept.`,
      ],
    };
  }
  return { ...paper, questions: matches };
}
