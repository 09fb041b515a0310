// What the grader tests mark: every rubric the sandbox knows (the seeded models, the model the
// README builds from examples/) and every answer it has (the labelled answers, the real-document
// cases, the answers in examples/), as GradeInput parts.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GradeInput, GradeRubric } from '../../packages/sandbox/src/engines/grader.js';
import { parsePreview, type QuestionsPreview, type RubricsPreview } from '../../packages/sandbox/src/ingest/preview-parse.js';
import { renderQuestions } from '../../packages/sandbox/src/ingest/questions.js';
import { SEED_MODELS } from '../../packages/sandbox/src/store/seed-models.js';
import { FIXTURES } from './extract-helpers.js';

export const EXAMPLES = join(FIXTURES, '..', '..', 'examples');
export const GRADED = join(FIXTURES, 'graded');
export const REAL = join(FIXTURES, 'real');

/** A marking model as the grader sees it: everything of a GradeInput but the answer and the style. */
export type Marking = Omit<GradeInput, 'answerText' | 'style'> & { name: string };

export function seededModel(modelId: number): Marking {
  const m = SEED_MODELS.find((x) => x.model_id === modelId)!;
  return {
    name: `model ${modelId}`,
    questionText: m.question_text,
    assignmentDesc: m.assignment_desc,
    rubrics: m.rubrics,
    cumMethod: m.cum_method,
    totalScore: m.total_score,
  };
}

/** The seeded models that can mark (ready), one per rubric (15 is a copy of 12). */
export const SEEDED: Marking[] = SEED_MODELS.filter((m) => m.post_status === 'ready' && m.model_id !== 15).map((m) =>
  seededModel(m.model_id),
);

const read = (name: string) => ({
  name,
  mime: 'text/plain',
  size: 0,
  origin: 'file' as const,
  path: join(EXAMPLES, name),
  text: readFileSync(join(EXAMPLES, name), 'utf8'),
  method: 'text/plain',
});

/**
 * The model the README builds from examples/ (`kct models new examples/question-paper.pdf
 * --rubric examples/rubric.docx`, total 30, sum), parsed by the sandbox's own preview parsers from
 * the text the PDF and DOCX are made from.
 */
export function examplesModel(): Marking {
  const questions = parsePreview('questions', {}, [read('question-paper.txt')]);
  const rubrics = parsePreview('rubrics', { total_score: 30, cum_method: 'sum' }, [read('rubric.txt')]);
  if (!questions.ok || !rubrics.ok) throw new Error('the examples do not parse');
  const q = questions.preview as QuestionsPreview;
  const r = rubrics.preview as RubricsPreview;
  return {
    name: 'the examples model',
    questionText: renderQuestions(q.questions),
    assignmentDesc: q.assignment_desc ?? '',
    rubrics: r.rubrics as GradeRubric[],
    cumMethod: 'sum',
    totalScore: 30,
  };
}

export interface Answer {
  name: string;
  text: string;
}

/** The labelled answers of test/fixtures/graded, each with its folder's model. */
export function labelledAnswers(): (Answer & { kind: string; level: string; model: Marking })[] {
  return readdirSync(GRADED, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => {
      const labels = JSON.parse(readFileSync(join(GRADED, d.name, 'labels.json'), 'utf8')) as {
        models: number[];
        answers: { file: string; kind: string; level: string }[];
      };
      const model = seededModel(labels.models[0]);
      return labels.answers.map((a) => ({
        name: `${d.name}/${a.file}`,
        text: readFileSync(join(GRADED, d.name, a.file), 'utf8'),
        kind: a.kind,
        level: a.level,
        model,
      }));
    });
}

/** The real-document cases (test/fixtures/real) and the answers in examples/. */
export function realAnswers(): Answer[] {
  const fromDir = (dir: string, label: string) =>
    readdirSync(dir)
      .filter((f) => f.endsWith('.txt') && !/question-paper|rubric/.test(f))
      .map((f) => ({ name: `${label}/${f}`, text: readFileSync(join(dir, f), 'utf8') }));
  return [...fromDir(REAL, 'real'), ...fromDir(EXAMPLES, 'examples')];
}

/** Which model each answer in examples/ is written for (examples/README.md). */
export const EXAMPLE_ANSWERS: { file: string; model: () => Marking }[] = [
  { file: 'sample-essay.txt', model: () => seededModel(12) },
  { file: 'homework-letter.txt', model: examplesModel },
];

/** A marking's input for one answer, in the Bullet style unless another is asked for. */
export const inputOf = (m: Marking, answerText: string, style: GradeInput['style'] = 'Bullet'): GradeInput => ({ ...m, answerText, style });

/** The walkthroughs' phones task: a persuasive letter to the headteacher, marked on two criteria. */
export const PHONES: Marking = {
  name: 'the phones model',
  questionText: 'Should mobile phones be banned at school?',
  assignmentDesc: 'A persuasive letter to the headteacher.',
  rubrics: [
    { item: 'Argument', max_score: 6, description: 'A clear position, argued with reasons.' },
    { item: 'Organisation', max_score: 4, description: 'Paragraphs, an opening and a conclusion, linked ideas.' },
  ],
  cumMethod: 'sum',
  totalScore: 10,
};

/** A letter to the headteacher: this opening and conclusion around the same two paragraphs of reasons. */
export const phonesLetter = (opening: string, conclusion: string) => `Dear Headteacher,

${opening}

Many students use their phones to check homework, look up words and keep in touch with their parents after school. For example, my friend Sam uses a dictionary app every day in English lessons. This shows that phones can be a tool for learning.

Some teachers say phones distract students in lessons. However, students could hand their phones in at the start of the day and collect them at home time, so lessons would not be disturbed.

${conclusion}

Yours sincerely,
Alex`;
