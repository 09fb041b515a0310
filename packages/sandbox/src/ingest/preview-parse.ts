// The parsing half of the preview endpoints (spec 4.4, 4.5): from the text read out of the files
// to the editable questions or rubric. A job of the worker-thread pool (engines/jobs.ts): a rubric of
// many pages is parsed off the request thread. Input and output are plain data.
import type { PreviewKind } from 'kct/api/preview.js';
import {
  type CumMethod,
  criteriaTotalProblem,
  type IngestPreviewFields,
  MAX_MODEL_CRITERIA,
  MAX_MODEL_QUESTIONS,
} from 'kct/api/schemas.js';
import { readRubricText } from '../engines/grader.js';
import type { SourceFile } from './assets.js';
import { mergePapers } from './question-merge.js';
import { applySpecification, namedQuestion } from './question-selection.js';
import { type ParsedQuestion, splitPaper } from './questions.js';

export type { PreviewKind };

export interface ReadSource extends SourceFile {
  text: string;
  method: string;
}

export interface SourceFileView {
  name: string;
  mime_type: string;
  size: number;
  origin: 'file' | 'upload' | 'url';
  url?: string;
  /** How the text was read: "pdf/text", "pdf/ocr", "docx/mammoth", "image/ocr", ... */
  method: string;
  characters: number;
}

export interface QuestionsPreview {
  assignment_name: string | null;
  assignment_desc: string | null;
  specification: string | null;
  questions: ParsedQuestion[];
  /** Sum of the questions' marks when every question has marks, else null. */
  total_marks: number | null;
  /** A total the paper itself states ("Total: 30 marks"), else null. */
  stated_total: number | null;
  source_files: SourceFileView[];
  warnings: string[];
}

export interface RubricsPreview {
  assignment_name: string | null;
  assignment_desc: string | null;
  specification: string | null;
  rubrics: { item: string; max_score: number; description?: string; levels?: { score: number; descriptor: string }[] }[];
  total_score: number;
  cum_method: CumMethod;
  /** Sum of the criterion maxima. */
  criteria_total: number;
  /** A total the rubric itself states ("Total: 20 marks", "out of 20"), else null. */
  stated_total: number | null;
  source_files: SourceFileView[];
  warnings: string[];
}

export type Fields = IngestPreviewFields;

export type PreviewOutcome =
  | { ok: true; preview: QuestionsPreview | RubricsPreview }
  /** More questions or criteria than a model may hold: refused here, so a huge list never travels back. */
  | { ok: false; message: string };

/** The preview of one kind from the sources' text. */
export function parsePreview(kind: PreviewKind, fields: Fields, read: ReadSource[]): PreviewOutcome {
  const preview = kind === 'questions' ? questionsPreview(fields, read) : rubricsPreview(fields, read);
  const [found, limit, what] =
    'questions' in preview
      ? [preview.questions.length, MAX_MODEL_QUESTIONS, 'questions']
      : [preview.rubrics.length, MAX_MODEL_CRITERIA, 'criteria'];
  if (found > limit) {
    return {
      ok: false,
      message: `The files hold ${found.toLocaleString('en-US')} ${what}; a model holds at most ${limit}. Send the part of the material for one assignment.`,
    };
  }
  return { ok: true, preview };
}

function sourceViews(read: ReadSource[]): { views: SourceFileView[]; warnings: string[] } {
  const warnings: string[] = [];
  const views = read.map((s) => {
    if (s.text.trim() === '') warnings.push(`No text was found in "${s.name}".`);
    else if (s.method.includes('ocr')) warnings.push(`"${s.name}" was read by OCR (${s.method}); check the text of the preview carefully.`);
    return {
      name: s.name,
      mime_type: s.mime,
      size: s.size,
      origin: s.origin,
      ...(s.url ? { url: s.url } : {}),
      method: s.method,
      characters: s.text.length,
    };
  });
  return { views, warnings };
}

const joinTexts = (read: ReadSource[]) =>
  read
    .map((s) => s.text.trim())
    .filter(Boolean)
    .join('\n\n');

function questionsPreview(fields: Fields, read: ReadSource[]): QuestionsPreview {
  const { views, warnings } = sourceViews(read);
  const merged = mergePapers(read.map((s) => ({ name: s.name, paper: splitPaper(s.text) })));
  const paper = applySpecification(merged, fields.specification);
  const marks = paper.questions.map((q) => q.marks);
  return {
    assignment_name: fields.assignment_name ?? paper.title ?? null,
    assignment_desc: fields.assignment_desc ?? paper.preamble ?? null,
    specification: fields.specification ?? null,
    questions: paper.questions,
    total_marks: marks.length > 0 && marks.every((m) => m !== undefined) ? round(marks.reduce((n: number, m) => n + (m ?? 0), 0)) : null,
    stated_total: paper.stated_total ?? null,
    source_files: views,
    warnings: [...warnings, ...paper.warnings],
  };
}

/** The part of a rubric under a heading for the named question ("Question 2", "Q2"), if it has one. */
export function rubricSection(text: string, specification: string): { text: string; applied: boolean } {
  const named = namedQuestion(specification);
  if (!named) return { text, applied: false };
  const lines = text.split('\n');
  const heading = /^(?:question|q)\s*\.?\s*(\d{1,3})\b/i;
  const start = lines.findIndex(
    (l) => heading.exec(l.trim())?.[1] !== undefined && Number(heading.exec(l.trim())![1]) === Number(named.question),
  );
  if (start < 0) return { text, applied: false };
  let end = lines.length;
  for (let i = start + 1; i < lines.length; i++) {
    if (heading.test(lines[i].trim())) {
      end = i;
      break;
    }
  }
  return { text: lines.slice(start + 1, end).join('\n'), applied: true };
}

function rubricsPreview(fields: Fields, read: ReadSource[]): RubricsPreview {
  const { views, warnings } = sourceViews(read);
  let text = joinTexts(read);
  if (fields.specification) {
    const section = rubricSection(text, fields.specification);
    if (section.applied) text = section.text;
    else
      warnings.push(
        `The specification "${fields.specification}" was not applied: the rubric has no section headed with the question it names ("Question 2", "Q2").`,
      );
  }
  const { rubrics, stated_total: stated } = readRubricText(text);
  const cumMethod = fields.cum_method ?? 'sum';
  const criteriaTotal = round(rubrics.reduce((n, r) => n + r.max_score, 0));
  const totalScore =
    fields.total_score ?? stated ?? (cumMethod === 'sum' ? criteriaTotal : round(criteriaTotal / Math.max(1, rubrics.length)));
  if (rubrics.length === 0) {
    warnings.push(
      'No criteria were found. A rubric needs a maximum for each criterion, e.g. "Evidence (6 marks)", "Evidence - 6", or a table with a Max column.',
    );
  } else {
    const problem = criteriaTotalProblem(
      rubrics.map((r) => r.max_score),
      totalScore,
      cumMethod,
    );
    // said as the rubric's own slip, beside the total_score it makes for the sum
    if (stated !== undefined && cumMethod === 'sum' && stated !== criteriaTotal)
      warnings.push(`The rubric states a total of ${stated}, but its criteria add up to ${criteriaTotal}.`);
    if (problem) warnings.push(`${problem[0].toUpperCase()}${problem.slice(1)}.`);
  }
  if (fields.total_score === undefined && rubrics.length > 0)
    warnings.push(
      stated === undefined
        ? `No total_score was sent; ${totalScore} was derived from the criteria (cum_method ${cumMethod}).`
        : `No total_score was sent; ${totalScore} is the total the rubric states.`,
    );
  return {
    assignment_name: fields.assignment_name ?? null,
    assignment_desc: fields.assignment_desc ?? null,
    specification: fields.specification ?? null,
    rubrics,
    total_score: totalScore,
    cum_method: cumMethod,
    criteria_total: criteriaTotal,
    stated_total: stated ?? null,
    source_files: views,
    warnings,
  };
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
