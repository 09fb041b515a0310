// One question paper from several files (a questions preview with many files): a file that
// continues the numbering, continues a question, repeats the paper, or starts it again.
import { type ParsedQuestion, reviewPaper, type SplitPaper, takeMarks } from './questions.js';

const normalized = (q: ParsedQuestion) =>
  JSON.stringify([
    q.text.replace(/\s+/g, ' ').toLowerCase(),
    q.marks,
    (q.sub_questions ?? []).map((s) => [s.number, s.text.replace(/\s+/g, ' ').toLowerCase(), s.marks]),
  ]);

/**
 * Adds text to the end of a question (its last part, if it has parts): on the same line when the
 * question's sentence was cut off, with the marks it states taken as the question's.
 */
function continueQuestion(question: ParsedQuestion, text: string): ParsedQuestion {
  const lines = text.split('\n');
  const { text: lastLine, marks } = takeMarks(lines[lines.length - 1]);
  const addition = [...lines.slice(0, -1), lastLine].join('\n').trim();
  const extend = <T extends { text: string; marks?: number }>(item: T): T => ({
    ...item,
    text: item.text === '' ? addition : /[.!?:;"”)\]]$/.test(item.text) ? `${item.text}\n${addition}` : `${item.text} ${addition}`,
    ...(marks !== undefined && item.marks === undefined ? { marks } : {}),
  });
  const subs = question.sub_questions;
  if (subs && subs.length > 0) {
    const updated = { ...question, sub_questions: [...subs.slice(0, -1), extend(subs[subs.length - 1])] };
    const all = updated.sub_questions.map((s) => s.marks);
    return all.every((m) => m !== undefined) && question.marks === undefined
      ? { ...updated, marks: all.reduce((n: number, m) => n + (m ?? 0), 0) }
      : updated;
  }
  return extend(question);
}

/**
 * One paper from several files, in the order they were sent. A file whose numbering goes on
 * continues the paper (text before its first number finishes the previous question, as when a
 * question runs over a page); a file without numbering continues the last question; a file that
 * repeats questions already read (the same paper twice, e.g. as PDF and DOCX) is left out; a file
 * whose numbering starts again is a further paper, renumbered after the last question. Each of
 * these choices is reported in `warnings`.
 */
export function mergePapers(parts: readonly { name: string; paper: SplitPaper }[]): SplitPaper {
  const nonEmpty = parts.filter((p) => p.paper.questions.length > 0);
  if (nonEmpty.length === 0)
    return reviewPaper({ questions: [], warnings: parts.flatMap((p) => p.paper.warnings), numbered: false, lead: '' });
  const [first, ...rest] = nonEmpty;
  let merged: SplitPaper = { ...first.paper, warnings: [...first.paper.warnings] };
  for (const { name, paper } of rest) {
    merged.warnings.push(...paper.warnings);
    const last = merged.questions[merged.questions.length - 1];
    if (!paper.numbered || !merged.numbered) {
      merged.questions = [...merged.questions.slice(0, -1), continueQuestion(last, paper.lead || paper.questions[0].text)];
      continue;
    }
    const lastNumber = Number(last.number);
    const firstNumber = Number(paper.questions[0].number);
    if (firstNumber > lastNumber) {
      if (paper.lead) merged.questions = [...merged.questions.slice(0, -1), continueQuestion(last, paper.lead)];
      if (firstNumber > lastNumber + 1)
        merged.warnings.push(
          `"${name}" starts at question ${firstNumber} after question ${lastNumber}: question${firstNumber - lastNumber > 2 ? 's' : ''} in between may be missing.`,
        );
      merged.questions = [...merged.questions, ...paper.questions];
      continue;
    }
    const seen = new Map(merged.questions.map((q) => [q.number, normalized(q)]));
    if (paper.questions.every((q) => seen.get(q.number) === normalized(q))) {
      merged.warnings.push(
        `"${name}" repeats questions ${paper.questions.map((q) => q.number).join(', ')} already read from another file; its copy was left out.`,
      );
      continue;
    }
    const offset = lastNumber - firstNumber + 1;
    const renumbered = paper.questions.map((q) => ({ ...q, number: String(Number(q.number) + offset) }));
    merged.warnings.push(
      `"${name}" numbers its questions from ${firstNumber} again; they were renumbered ${renumbered[0].number}-${renumbered[renumbered.length - 1].number}.`,
    );
    merged.questions = [...merged.questions, ...renumbered];
  }
  merged = { ...merged, stated_total: merged.stated_total ?? nonEmpty.find((p) => p.paper.stated_total !== undefined)?.paper.stated_total };
  if (merged.stated_total === undefined) delete merged.stated_total;
  return reviewPaper(merged);
}
