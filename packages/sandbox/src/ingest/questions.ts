// Question paper text → numbered questions with sub-parts and marks. Deterministic, and it says
// what it did: anything it had to guess goes into `warnings`. Several files of one paper are
// merged by question-merge.ts; a specification picks questions in question-selection.ts.
//
// Understood: "1." / "1)" (numbered in sequence), "Q2", "Q.2", "Question 3", "Question 3:"; sub-parts
// "(a)" / "a)" in alphabetical order, with "(i)", "(ii)" inside a part kept in that part's text;
// marks "[10 marks]", "(5 marks)", "[5]", "(5 pts)", "10 marks" at the end of a line, "[Total: 25]";
// "Section A" headings, page furniture ("Page 2 of 3", "Turn over", "END OF QUESTIONS") skipped.

interface ParsedSubQuestion {
  number: string;
  text: string;
  marks?: number;
}

export interface ParsedQuestion {
  number: string;
  text: string;
  marks?: number;
  sub_questions?: ParsedSubQuestion[];
}

export interface ParsedPaper {
  questions: ParsedQuestion[];
  /** A title found before the first question (a suggestion for assignment_name). */
  title?: string;
  /** Other text before the first question: instructions, time allowed. */
  preamble?: string;
  /** "Total: 30 marks" found in the paper, if any. */
  stated_total?: number;
  warnings: string[];
}

/** A paper as split, before the checks that need all of it (see `reviewPaper`). */
export interface SplitPaper extends ParsedPaper {
  /** False when no numbering was found (the whole text is then one question). */
  numbered: boolean;
  /** The text before the first question, as it came (a page may continue the previous one). */
  lead: string;
}

interface Draft {
  number: string;
  paragraphs: string[][];
  marks?: number;
  subs: SubDraft[];
}

interface SubDraft {
  number: string;
  paragraphs: string[][];
  marks?: number;
}

const NUM = String.raw`(\d+(?:\.\d+)?)`;
const MARK_UNIT = String.raw`(?:marks?|pts?\.?|points?)`;
/** "[10 marks]", "(5 marks)", "[Total: 25 marks]", "(5 pts)" anywhere; "[5]" / "(5)" only at the end. */
const MARKS_TAGGED = new RegExp(String.raw`[\[(]\s*(?:total\s*[:=]?\s*)?${NUM}\s*${MARK_UNIT}\s*[\])]`, 'i');
const MARKS_BARE_END = new RegExp(String.raw`[\[(]\s*(?:total\s*[:=]?\s*)?${NUM}\s*[\])]\s*$`, 'i');
const MARKS_TRAILING = new RegExp(String.raw`(?:^|\s)${NUM}\s*marks?\s*\.?\s*$`, 'i');

const STRONG_QUESTION = /^(?:question|q)\s*\.?\s*(\d{1,3})\b\s*[.):\-–—]?\s*(.*)$/i;
const NUMBERED = /^(\d{1,3})\s*[.)](?!\d)\s*(.*)$/;
const LETTER_PART = /^(?:\(([a-z])\)|([a-z])\))\s*(.*)$/;
const ROMAN_PART = /^\(((?:i|ii|iii|iv|v|vi|vii|viii|ix|x))\)\s*(.*)$/i;

const SECTION = /^(?:section|part)\s+(?:[A-Z]|\d{1,2}|[IVX]{1,4})\b(?:\s*[:.\-–—(].*)?$/i;
const NOISE = [
  /^page\s+\d+(?:\s+of\s+\d+)?$/i,
  /^-?\s*\d{1,3}\s*-?$/,
  /^(?:please\s+)?turn\s+over\.?$/i,
  /^end\s+of\s+(?:the\s+)?(?:questions?|paper|exam(?:ination)?|test|section)\.?$/i,
  /^(?:blank\s+page|this page is intentionally (?:left )?blank)\.?$/i,
];
const TOTAL_LINE = new RegExp(
  String.raw`^\[?\s*(?:total|maximum)(?:\s+(?:marks?|for\s+(?:this\s+)?(?:question|paper|section)(?:\s+\d+)?))?\s*[:=]?\s*${NUM}\s*${MARK_UNIT}?\s*\]?\.?$`,
  'i',
);
const PREAMBLE_TOTAL = new RegExp(String.raw`\btotal(?:\s+marks?)?\s*[:=]?\s*${NUM}\s*${MARK_UNIT}`, 'i');
const NOT_A_TITLE =
  /^(?:instructions?|information|time allowed|name|candidate|date|class|answer\s+(?:all|every|each|any)|total\b|you (?:should|must|may)|do not)/i;

function toNumber(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

/** The marks a line states, and the line without them. */
export function takeMarks(line: string): { text: string; marks?: number } {
  for (const re of [MARKS_TAGGED, MARKS_BARE_END]) {
    const m = re.exec(line);
    if (m) {
      const marks = toNumber(m[1]);
      if (marks !== undefined && marks > 0)
        return { text: (line.slice(0, m.index) + line.slice(m.index + m[0].length)).replace(/\s{2,}/g, ' ').trim(), marks };
    }
  }
  const trailing = MARKS_TRAILING.exec(line);
  if (trailing) {
    const marks = toNumber(trailing[1]);
    // "Write 400 words. 10 marks" yes; "worth 10 marks" as part of a sentence stays text.
    if (marks !== undefined && marks > 0 && !/\b(?:worth|of|for|out of|scored?|gets?|earns?)\s*$/i.test(line.slice(0, trailing.index))) {
      return { text: line.slice(0, trailing.index).trim(), marks };
    }
  }
  return { text: line };
}

function nextLetter(subs: SubDraft[]): string {
  if (subs.length === 0) return 'a';
  return String.fromCharCode(subs[subs.length - 1].number.charCodeAt(0) + 1);
}

function render(paragraphs: string[][]): string {
  return paragraphs
    .map((p) =>
      p
        .join(' ')
        .replace(/\s{2,}/g, ' ')
        .trim(),
    )
    .filter(Boolean)
    .join('\n');
}

function append(paragraphs: string[][], text: string, newParagraph: boolean): void {
  if (text === '') return;
  if (newParagraph || paragraphs.length === 0) paragraphs.push([text]);
  else paragraphs[paragraphs.length - 1].push(text);
}

/** Splits the text of a paper into questions, and checks them (marks found, totals). */
export function questionsFromText(text: string): ParsedPaper {
  const { numbered: _n, lead: _l, ...paper } = reviewPaper(splitPaper(text));
  return paper;
}

/** Splits the text of a paper (or of one of its files) into questions. */
export function splitPaper(text: string): SplitPaper {
  const warnings: string[] = [];
  const drafts: Draft[] = [];
  const preamble: string[][] = [];
  let current: Draft | undefined;
  let sub: SubDraft | undefined;
  let paragraphBreak = true;
  let lastWasBullet = false;
  /** Text after a "Section B" heading and before the next question belongs to no question. */
  let betweenSections = false;
  let statedTotal: number | undefined;
  let strongStyle = false;
  /** The last number of a numbered list inside the current question, while one runs. */
  let innerList: number | undefined;

  const target = () => (betweenSections || !current ? preamble : sub ? sub.paragraphs : current.paragraphs);
  const setMarks = (marks: number) => {
    const holder = sub ?? current!;
    if (holder.marks !== undefined && holder.marks !== marks) {
      warnings.push(`${label(current!, sub)} states its marks twice (${holder.marks} and ${marks}); kept ${holder.marks}.`);
      return;
    }
    holder.marks = marks;
  };
  const addText = (raw: string, ownLine = false) => {
    const inQuestion = current !== undefined && !betweenSections;
    const { text: clean, marks } = inQuestion ? takeMarks(raw) : { text: raw, marks: undefined };
    if (marks !== undefined) setMarks(marks);
    const bullet = /^[-*•·]\s/.test(clean);
    const into = target();
    append(into, clean, into === preamble || paragraphBreak || ownLine || bullet || lastWasBullet || /^["“‘]/.test(clean));
    lastWasBullet = bullet;
    paragraphBreak = false;
  };
  const startSub = (letter: string, rest: string) => {
    innerList = undefined;
    sub = { number: letter, paragraphs: [] };
    current!.subs.push(sub);
    paragraphBreak = true;
    lastWasBullet = false;
    if (rest !== '') addText(rest);
  };
  const startQuestion = (number: string, rest: string) => {
    current = { number, paragraphs: [], subs: [] };
    sub = undefined;
    betweenSections = false;
    drafts.push(current);
    paragraphBreak = true;
    lastWasBullet = false;
    const part = LETTER_PART.exec(rest);
    if (part && (part[1] ?? part[2]) === 'a') startSub('a', part[3]);
    else if (rest !== '') addText(rest);
  };

  const lines = text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' ').trim());
  for (const line of lines) {
    if (line === '') {
      paragraphBreak = true;
      innerList = undefined;
      continue;
    }
    if (NOISE.some((re) => re.test(line))) continue;
    const total = TOTAL_LINE.exec(line);
    if (total) {
      const value = toNumber(total[1]);
      if (!current) statedTotal ??= value;
      // "Total for question 2: 25 marks" after the question gives its marks when none was stated.
      else if (value !== undefined && current.marks === undefined && /question/i.test(line)) current.marks = value;
      paragraphBreak = true;
      continue;
    }
    if (SECTION.test(line) && line.split(' ').length <= 8) {
      paragraphBreak = true;
      sub = undefined;
      if (current) betweenSections = true;
      else append(preamble, line, true);
      continue;
    }

    const expected = drafts.length === 0 ? undefined : Number(drafts[drafts.length - 1].number) + 1;
    const strong = STRONG_QUESTION.exec(line);
    if (strong) {
      const n = Number(strong[1]);
      if (expected === undefined || n >= expected) {
        strongStyle = true;
        if (expected !== undefined && n > expected) {
          warnings.push(
            `Question ${n} follows question ${expected - 1}: ${n - expected > 1 ? `questions ${expected}-${n - 1} may be` : `question ${expected} may be`} missing from the text.`,
          );
        }
        startQuestion(String(n), strong[2]);
        continue;
      }
    }
    const numbered = NUMBERED.exec(line);
    // The first number starts the paper; after that only the next one does, so a numbered list
    // inside a question stays its text. Papers numbered "Question 1" keep "1." lines as text.
    // While a list inside the question runs ("1. imagery", "2. tone"), its next number is a list
    // item unless the line carries marks or opens with a part "(a)".
    if (numbered && !strongStyle) {
      const n = Number(numbered[1]);
      const continuesList =
        innerList !== undefined && n === innerList + 1 && takeMarks(line).marks === undefined && !LETTER_PART.test(numbered[2]);
      if ((expected === undefined || n === expected) && !continuesList) {
        innerList = undefined;
        startQuestion(String(n), numbered[2]);
        continue;
      }
      if (current) innerList = n === 1 ? 1 : continuesList ? n : innerList;
    }
    if (current && !betweenSections) {
      const part = LETTER_PART.exec(line);
      const letter = part ? (part[1] ?? part[2]) : undefined;
      const roman = ROMAN_PART.exec(line);
      const expectedLetter = nextLetter(current.subs);
      if (letter !== undefined && letter === expectedLetter) {
        startSub(letter, part![3]);
        continue;
      }
      if (roman && sub) {
        // A sub-part of a part, "(i)", stays in its part's text on a line of its own.
        addText(line, true);
        continue;
      }
    }
    addText(line);
  }

  const preambleLines = preamble.map((p) => p.join(' ').trim()).filter(Boolean);
  const title = preambleLines.find(
    (l) => /\p{L}/u.test(l) && l.split(' ').length <= 14 && l.length <= 120 && !NOT_A_TITLE.test(l) && !SECTION.test(l),
  );
  const rest = preambleLines
    .filter((l) => l !== title && !SECTION.test(l) && !/^(?:instructions?|information)(?: (?:for|to) (?:candidates|students))?:?$/i.test(l))
    .join('\n');
  if (statedTotal === undefined) {
    const inPreamble = PREAMBLE_TOTAL.exec(preambleLines.join('\n'));
    if (inPreamble) statedTotal = toNumber(inPreamble[1]);
  }
  const found = {
    ...(title ? { title } : {}),
    ...(rest ? { preamble: rest } : {}),
    ...(statedTotal !== undefined ? { stated_total: statedTotal } : {}),
    lead: preambleLines.join('\n'),
  };
  if (drafts.length === 0) {
    if (preambleLines.length === 0) return { questions: [], ...found, numbered: false, warnings };
    const whole = preambleLines.join('\n');
    const { marks } = takeMarks(preambleLines[preambleLines.length - 1]);
    return { questions: [{ number: '1', text: whole, ...(marks !== undefined ? { marks } : {}) }], ...found, numbered: false, warnings };
  }
  return { questions: drafts.map((d) => finish(d, warnings)), ...found, numbered: true, warnings };
}

/** The checks that need the whole paper: numbering found, marks found, totals that add up. */
export function reviewPaper(paper: SplitPaper): SplitPaper {
  const warnings = [...paper.warnings];
  const { questions } = paper;
  if (questions.length === 0) {
    warnings.push('No text was found, so no questions.');
    return { ...paper, warnings };
  }
  if (!paper.numbered)
    warnings.push('No question numbering was found ("1.", "Q1", "Question 1"); the whole text was taken as one question.');
  const unmarked = questions.filter((q) => q.marks === undefined).map((q) => q.number);
  if (unmarked.length > 0) {
    warnings.push(
      `No marks were found for question${unmarked.length > 1 ? 's' : ''} ${unmarked.join(', ')}; add them in the preview if the paper gives them.`,
    );
  }
  const sum = Math.round(questions.reduce((n, q) => n + (q.marks ?? 0), 0) * 1e6) / 1e6;
  if (paper.stated_total !== undefined && unmarked.length === 0 && sum !== paper.stated_total) {
    warnings.push(`The paper states a total of ${paper.stated_total} marks, but its questions add up to ${sum}.`);
  }
  return { ...paper, warnings };
}

function label(question: Draft, sub?: SubDraft): string {
  return sub ? `Question ${question.number}(${sub.number})` : `Question ${question.number}`;
}

function finish(draft: Draft, warnings: string[]): ParsedQuestion {
  const subs = draft.subs.map((s) => ({
    number: s.number,
    text: render(s.paragraphs),
    ...(s.marks !== undefined ? { marks: s.marks } : {}),
  }));
  for (const s of subs) if (s.text === '') warnings.push(`Question ${draft.number}(${s.number}) has no text.`);
  const out: ParsedQuestion = { number: draft.number, text: render(draft.paragraphs) };
  const subMarks = subs.every((s) => s.marks !== undefined) && subs.length > 0 ? subs.reduce((n, s) => n + (s.marks ?? 0), 0) : undefined;
  if (draft.marks !== undefined) {
    out.marks = draft.marks;
    if (subMarks !== undefined && Math.abs(subMarks - draft.marks) > 1e-9) {
      warnings.push(`Question ${draft.number} is worth ${draft.marks} marks, but its parts add up to ${subMarks}.`);
    }
  } else if (subMarks !== undefined) {
    out.marks = subMarks;
  }
  if (subs.length > 0)
    out.sub_questions = subs
      .filter((s) => s.text !== '' || s.marks !== undefined)
      .map((s) => (s.text === '' ? { ...s, text: `(part ${s.number})` } : s));
  if (out.text === '' && subs.length === 0) warnings.push(`Question ${draft.number} has no text.`);
  return out;
}

/** Plain text of questions, as the grader reads a model's question (one line per question or part). */
export function renderQuestions(
  questions: readonly {
    number: string;
    text: string;
    marks?: number;
    sub_questions?: readonly { number: string; text: string; marks?: number }[];
  }[],
): string {
  const marks = (m: number | undefined) => (m === undefined ? '' : ` [${m} mark${m === 1 ? '' : 's'}]`);
  const lines: string[] = [];
  for (const q of questions) {
    const hasSubs = (q.sub_questions?.length ?? 0) > 0;
    lines.push(`${q.number}. ${q.text}${hasSubs ? '' : marks(q.marks)}`.trimEnd());
    for (const s of q.sub_questions ?? []) lines.push(`(${s.number}) ${s.text}${marks(s.marks)}`);
  }
  return lines.join('\n');
}
