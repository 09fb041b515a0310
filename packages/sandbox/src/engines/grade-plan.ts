// Which rubric, question and settings a one-pass task is marked with (spec 4.8 rules 1, 2 and
// the precedence rule 4 leaves open; docs/sandbox.md states it).
import type { OnePassFields, Rubric } from 'kct/api/schemas.js';
import type { ModelRow } from '../store/store.js';
import { modelRubrics } from '../store/store.js';
import type { Exclusion } from './extract/marked.js';
import type { GradeInput, GradeRubric } from './grader.js';
import { rubricsFromText } from './grader.js';

/** Text read from the task's files in the UPLOADING stage. */
export interface PreparedText {
  /** What is marked: pasted text and the answer files' bodies, less what `notMarked` names. */
  answerText: string;
  /** What was left out of the answer on purpose (a title, page furniture...); absent when prepared by an older sandbox. */
  notMarked?: Exclusion[];
  rubricFileText?: string;
  questionFileText?: string;
}

export type RubricSource = 'request_rubrics' | 'request_rubric_text' | 'model';

export interface GradePlan {
  input: GradeInput;
  rubricSource: RubricSource;
}

const join = (...parts: (string | undefined)[]) => {
  const text = parts.filter((p): p is string => p !== undefined && p.trim() !== '').join('\n\n');
  return text === '' ? undefined : text;
};

export function planGrading(fields: OnePassFields, model: ModelRow, prepared: PreparedText): GradePlan {
  const cumMethod = fields.cum_method ?? model.cum_method;
  const { rubrics, source } = chooseRubrics(fields, model, prepared, cumMethod);
  const totalScore =
    fields.total_score ?? (source === 'model' && cumMethod === model.cum_method ? model.total_score : derivedTotal(rubrics, cumMethod));
  return {
    rubricSource: source,
    input: {
      answerText: prepared.answerText,
      ...chooseQuestion(fields, model, prepared),
      rubrics,
      cumMethod,
      totalScore,
      style: fields.style ?? 'Bullet',
      ...(fields.current_feedbacks ? { currentFeedbacks: fields.current_feedbacks } : {}),
    },
  };
}

/** Structured `rubrics` win; else rubric files and rubric_text, parsed together; else the model's. */
function chooseRubrics(fields: OnePassFields, model: ModelRow, prepared: PreparedText, cumMethod: 'sum' | 'average') {
  if (fields.rubrics && fields.rubrics.length > 0) {
    return {
      rubrics: completeRubrics(fields.rubrics, fields.total_score ?? model.total_score, cumMethod),
      source: 'request_rubrics' as const,
    };
  }
  const text = join(prepared.rubricFileText, fields.rubric_text);
  if (text !== undefined) {
    const parsed = rubricsFromText(text);
    if (parsed.length > 0) return { rubrics: parsed, source: 'request_rubric_text' as const };
  }
  return { rubrics: modelRubrics(model), source: 'model' as const };
}

/** A structured criterion without max_score gets an equal share of the total (sum) or the total (average). */
function completeRubrics(rubrics: Rubric[], total: number, cumMethod: 'sum' | 'average'): GradeRubric[] {
  const share = cumMethod === 'sum' ? Math.round((total / rubrics.length) * 100) / 100 : total;
  return rubrics.map((r) => ({
    item: r.item,
    max_score: r.max_score ?? share,
    ...(r.description !== undefined ? { description: r.description } : {}),
    ...(r.levels !== undefined ? { levels: r.levels.map((l) => ({ score: l.score, descriptor: l.descriptor })) } : {}),
  }));
}

function derivedTotal(rubrics: GradeRubric[], cumMethod: 'sum' | 'average'): number {
  const sum = rubrics.reduce((acc, r) => acc + r.max_score, 0);
  return cumMethod === 'sum' ? sum : Math.round((sum / Math.max(1, rubrics.length)) * 100) / 100;
}

/** Any question source or assignment_desc replaces the model's saved question and description. */
function chooseQuestion(
  fields: OnePassFields,
  model: ModelRow,
  prepared: PreparedText,
): Pick<GradeInput, 'questionText' | 'assignmentDesc'> {
  const questionText = join(fields.question_text, prepared.questionFileText);
  if (questionText !== undefined || fields.assignment_desc !== undefined) {
    return {
      ...(questionText !== undefined ? { questionText } : {}),
      ...(fields.assignment_desc !== undefined ? { assignmentDesc: fields.assignment_desc } : {}),
    };
  }
  return {
    ...(model.question_text ? { questionText: model.question_text } : {}),
    assignmentDesc: model.assignment_desc,
  };
}

export function rubricsUsed(rubrics: GradeRubric[]) {
  return rubrics.map((r) => ({ item: r.item, max_score: r.max_score, ...(r.description ? { description: r.description } : {}) }));
}
