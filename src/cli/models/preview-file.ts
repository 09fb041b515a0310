// The preview files of model building, read back: what `kct models create` reads after a person
// edited what `kct ingest` wrote (preview-writer.ts). YAML (.yaml, .yml) or JSON (.json), chosen by
// extension. Every problem found names the file, line, column and field, so a person can fix it.
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { type Document, isMap, isPair, isScalar, isSeq, LineCounter, type Node, parseDocument } from 'yaml';
import { UsageError } from '../../api/errors.js';
import { fieldPath } from '../../api/field-path.js';
import {
  type CreateModelRequest,
  CumMethod,
  criteriaTotalProblem,
  ModelCriterion,
  modelConsistencyIssues,
  Question,
} from '../../api/schemas.js';
import * as z from '../../api/zod.js';

export const QuestionsFile = z.strictObject({
  kind: z.literal('questions', { message: 'must be "questions" (is this a rubrics file?)' }).optional(),
  assignment_name: z.string().trim().min(1, 'must not be empty').nullable().optional(),
  assignment_desc: z.string().trim().min(1, 'must not be empty').nullable().optional(),
  project_subject: z.string().trim().min(1, 'must not be empty').nullable().optional(),
  questions: z.array(Question).min(1, 'must hold at least one question'),
});
export type QuestionsFile = z.infer<typeof QuestionsFile>;

export const RubricsFile = z.strictObject({
  kind: z.literal('rubrics', { message: 'must be "rubrics" (is this a questions file?)' }).optional(),
  total_score: z.number().positive().optional(),
  cum_method: CumMethod.optional(),
  rubrics: z.array(ModelCriterion).min(1, 'must hold at least one criterion'),
});
export type RubricsFile = z.infer<typeof RubricsFile>;

interface Problem {
  file: string;
  line?: number;
  col?: number;
  field: string;
  message: string;
}

function formatProblem(p: Problem): string {
  const where = p.line === undefined ? p.file : `${p.file}:${p.line}:${p.col ?? 1}`;
  return `${where}: ${p.field ? `${p.field}: ` : ''}${p.message}`;
}

export function formatOf(path: string): 'yaml' | 'json' {
  const ext = extname(path).toLowerCase();
  if (ext === '.yaml' || ext === '.yml') return 'yaml';
  if (ext === '.json') return 'json';
  throw new UsageError(`${path}: a preview file must end in .yaml, .yml or .json`, {
    suggestion: 'Name it e.g. questions.yaml or rubrics.json.',
  });
}

/** A parsed preview file, with what is needed to point at a line. */
class LoadedFile {
  constructor(
    readonly path: string,
    readonly doc: Document.Parsed,
    readonly lines: LineCounter,
  ) {}

  get name(): string {
    return this.path;
  }

  /**
   * The line and column of the value at `path`, or, when it is missing, of the nearest thing that
   * is there (the object it should be in). `key` points at the key instead of the value.
   */
  position(path: readonly PropertyKey[], key = false): { line: number; col: number } | undefined {
    let node: unknown = this.doc.contents;
    let keyNode: unknown;
    for (const segment of path) {
      if (isMap(node)) {
        const pair = node.items.find((item) => isPair(item) && (isScalar(item.key) ? item.key.value : item.key) === segment);
        if (!pair || pair.value === null) {
          if (pair) node = pair.key;
          break;
        }
        keyNode = pair.key;
        node = pair.value;
      } else if (isSeq(node) && typeof segment === 'number' && node.items[segment] !== undefined) {
        keyNode = undefined;
        node = node.items[segment];
      } else {
        break;
      }
    }
    const target = (key && keyNode ? keyNode : node) as Node | undefined;
    const offset = target?.range?.[0];
    return offset === undefined ? undefined : this.lines.linePos(offset);
  }

  problem(path: readonly PropertyKey[], message: string, key = false): Problem {
    return { file: this.path, ...this.position(path, key), field: fieldPath(path), message };
  }
}

/** Reads and parses a preview file; throws a UsageError naming every syntax error's line. */
async function loadFile(path: string): Promise<{ file: LoadedFile; value: unknown }> {
  const format = formatOf(path);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? `file not found: ${path}` : `cannot read ${path} (${code ?? String(error)})`, {
      suggestion: 'Create it with `kct ingest questions ...` or `kct ingest rubrics ...`.',
    });
  }
  const lines = new LineCounter();
  if (format === 'json') {
    try {
      JSON.parse(text);
    } catch (error) {
      // Node's message gives a position only sometimes; the YAML parser (JSON is YAML) finds the line.
      const at = /position (\d+)/.exec((error as Error).message);
      const yamlError = parseDocument(text, { lineCounter: lines }).errors[0];
      const where = at ? positionIn(text, Number(at[1])) : yamlError?.pos ? lines.linePos(yamlError.pos[0]) : undefined;
      throw new UsageError(
        `${path}${where ? `:${where.line}:${where.col}` : ''}: not valid JSON: ${(error as Error).message.split('\n')[0]}`,
        {
          suggestion: 'Fix the JSON syntax, or use a .yaml file, which is easier to edit by hand.',
        },
      );
    }
  }
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const problems = doc.errors.map((e) => {
    const pos = e.linePos?.[0] ?? (e.pos ? lines.linePos(e.pos[0]) : undefined);
    return formatProblem({
      file: path,
      ...(pos ? { line: pos.line, col: pos.col } : {}),
      field: '',
      message: e.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, ''),
    });
  });
  if (problems.length > 0) {
    throw new UsageError(`${path} is not valid ${format === 'json' ? 'JSON' : 'YAML'}:\n  ${problems.join('\n  ')}`, {
      suggestion: 'Fix the syntax at the line shown (in YAML, indentation matters; quote text that starts with a special character).',
    });
  }
  return { file: new LoadedFile(path, doc, lines), value: doc.toJS({ maxAliasCount: 100 }) };
}

function positionIn(text: string, offset: number): { line: number; col: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, col: offset - before.lastIndexOf('\n') };
}

/** Question numbers typed as numbers (`number: 2`) are text in the contract: "2". */
function normalizeQuestions(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || !Array.isArray((value as { questions?: unknown }).questions)) return value;
  const fix = (q: unknown): unknown => {
    if (typeof q !== 'object' || q === null) return q;
    const out = { ...(q as Record<string, unknown>) };
    if (typeof out.number === 'number') out.number = String(out.number);
    if (Array.isArray(out.sub_questions)) out.sub_questions = out.sub_questions.map(fix);
    return out;
  };
  return { ...(value as Record<string, unknown>), questions: (value as { questions: unknown[] }).questions.map(fix) };
}

function zodProblems(file: LoadedFile, error: z.ZodError): Problem[] {
  const problems: Problem[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) problems.push(file.problem([...issue.path, key], `unknown field "${key}"${hintFor(key)}`, true));
      continue;
    }
    const missing = issue.code === 'invalid_type' && /received undefined/.test(issue.message);
    problems.push(file.problem(issue.path, missing ? 'is missing' : issue.message.replace(/^Invalid (?:input|option): /, '')));
  }
  return problems;
}

const FIELD_HINTS: Record<string, string> = {
  marks_total: 'marks',
  max: 'max_score',
  maximum: 'max_score',
  score: 'max_score',
  name: 'item',
  criterion: 'item',
  criteria: 'rubrics',
  question: 'text',
  subquestions: 'sub_questions',
  parts: 'sub_questions',
  desc: 'assignment_desc',
  title: 'assignment_name',
  total: 'total_score',
  method: 'cum_method',
  descriptor: 'description',
};

function hintFor(key: string): string {
  const suggestion = FIELD_HINTS[key.toLowerCase()];
  return suggestion ? ` (did you mean "${suggestion}"?)` : '';
}

export interface ReadResult<T> {
  file: LoadedFile;
  data?: T;
  problems: Problem[];
}

export async function readQuestionsFile(path: string): Promise<ReadResult<QuestionsFile>> {
  const { file, value } = await loadFile(path);
  const parsed = QuestionsFile.safeParse(normalizeQuestions(value ?? {}));
  if (!parsed.success) return { file, problems: zodProblems(file, parsed.error) };
  return { file, data: parsed.data, problems: [] };
}

export async function readRubricsFile(path: string): Promise<ReadResult<RubricsFile> & { value: unknown }> {
  const { file, value } = await loadFile(path);
  const parsed = RubricsFile.safeParse(value ?? {});
  if (!parsed.success) return { file, value, problems: zodProblems(file, parsed.error) };
  return { file, value, data: parsed.data, problems: [] };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A file's field as its schema reads it, or undefined when it is missing or broken (its type error is said apart). */
function fieldOf<S extends z.ZodType>(value: unknown, key: string, schema: S): z.infer<S> | undefined {
  const parsed = schema.safeParse(isRecord(value) ? value[key] : undefined);
  return parsed.success ? parsed.data : undefined;
}

/**
 * A rubrics file's criteria as far as they can be read, whether or not the file is valid: duplicate
 * names, levels above their maximum, and, given a total and cum_method sum, the total the maxima
 * miss (or, while a maximum is not a number, that it cannot be checked yet), at ['total_score'].
 */
function criteriaIssues(
  value: unknown,
  total: number | undefined,
  method: CumMethod | undefined,
): { path: (string | number)[]; message: string }[] {
  const rubrics = (value as { rubrics?: unknown } | undefined)?.rubrics;
  if (!Array.isArray(rubrics)) return [];
  const read = rubrics.map((raw, i) => {
    const criterion = (typeof raw === 'object' && raw !== null ? raw : {}) as { item?: unknown; max_score?: unknown; levels?: unknown };
    const levels = Array.isArray(criterion.levels) ? criterion.levels : [];
    return {
      // a criterion with no name is no duplicate of another
      item: typeof criterion.item === 'string' && criterion.item.trim() !== '' ? criterion.item : `\u0000${i}`,
      max_score: typeof criterion.max_score === 'number' ? criterion.max_score : Number.POSITIVE_INFINITY,
      levels: levels.map((level) => ({ score: typeof level?.score === 'number' ? level.score : Number.NEGATIVE_INFINITY, descriptor: '' })),
    };
  });
  const issues = modelConsistencyIssues({ questions: [], rubrics: read, total_score: Number.NaN, cum_method: 'sum' }).filter(
    (issue) => issue.path[0] === 'rubrics',
  );
  if (total === undefined || method === undefined || read.length === 0) return issues;
  const maxima = read.map((criterion) => criterion.max_score);
  // the sum needs every maximum: one that is not a number is said once, not guessed around
  const totalProblem = maxima.every(Number.isFinite)
    ? criteriaTotalProblem(maxima, total, method)
    : method === 'sum'
      ? 'the total cannot be checked until every max_score is a number'
      : undefined;
  return totalProblem ? [{ path: ['total_score'], message: totalProblem }, ...issues] : issues;
}

export interface ModelInputs {
  questions: string;
  rubrics: string;
  name?: string;
  desc?: string;
  subject?: string;
  totalScore?: number;
  cumMethod?: CumMethod;
}

export interface ModelPlan {
  request: CreateModelRequest;
  warnings: string[];
}

/**
 * Reads both files and the flags into the POST /models body. Throws one UsageError listing every
 * problem with its file, line and field; flags win over the files' values.
 */
export async function buildModelRequest(inputs: ModelInputs): Promise<ModelPlan> {
  const [q, r] = await Promise.all([readQuestionsFile(inputs.questions), readRubricsFile(inputs.rubrics)]);
  const problems: Problem[] = [...q.problems, ...r.problems];
  const warnings: string[] = [];
  const flagProblem = (flag: string, message: string) => problems.push({ file: flag, field: '', message });

  const name = inputs.name ?? q.data?.assignment_name ?? undefined;
  const desc = inputs.desc ?? q.data?.assignment_desc ?? undefined;
  const subject = inputs.subject ?? q.data?.project_subject ?? undefined;
  if (q.data && !name) problems.push(q.file.problem(['assignment_name'], 'is missing: add it to the file, or pass --name'));
  if (q.data && !desc) problems.push(q.file.problem(['assignment_desc'], 'is missing: add it to the file, or pass --desc'));

  // what the rubrics file says of its total and method, read even when other fields are broken
  const fileTotal = fieldOf(r.value, 'total_score', RubricsFile.shape.total_score);
  const fileMethod = fieldOf(r.value, 'cum_method', RubricsFile.shape.cum_method);
  const total = inputs.totalScore ?? fileTotal;
  const method = inputs.cumMethod ?? fileMethod;
  // a field there but broken is its type error's to say; one not there at all is said here, with the rest
  const absent = (key: string) => isRecord(r.value) && r.value[key] === undefined;
  if (total === undefined && absent('total_score'))
    problems.push(r.file.problem(['total_score'], 'is missing: add total_score to the file, or pass --total-score'));
  if (method === undefined && absent('cum_method'))
    problems.push(r.file.problem(['cum_method'], 'is missing: add cum_method (sum or average) to the file, or pass --cum-method'));

  for (const issue of criteriaIssues(r.value, total, method)) {
    if (issue.path[0] === 'total_score' && inputs.totalScore !== undefined)
      flagProblem(`--total-score ${inputs.totalScore}`, `${issue.message} (criteria in ${r.file.path})`);
    else problems.push(r.file.problem(issue.path, issue.message));
  }
  if (q.data) {
    const others = modelConsistencyIssues({ questions: q.data.questions, rubrics: [], total_score: Number.NaN, cum_method: 'sum' });
    for (const issue of others) if (issue.path[0] === 'questions') problems.push(q.file.problem(issue.path, issue.message));
  }
  if (q.data && r.data && total !== undefined && method !== undefined) {
    const marks = q.data.questions.map((item) => item.marks);
    if (method === 'sum' && marks.every((m) => m !== undefined)) {
      const sum = Math.round(marks.reduce((n: number, m) => n + (m ?? 0), 0) * 1e6) / 1e6;
      if (sum !== total)
        warnings.push(
          `the questions in ${q.file.path} are worth ${sum} marks in all, but total_score is ${total}; the score is marked out of ${total}.`,
        );
    }
  }

  if (problems.length > 0 || !q.data || !r.data) throw problemsError(problems);
  const request = {
    assignment_name: name!,
    assignment_desc: desc!,
    ...(subject ? { project_subject: subject } : {}),
    questions: q.data.questions,
    rubrics: r.data.rubrics,
    total_score: total!,
    cum_method: method!,
  } satisfies CreateModelRequest;
  return { request, warnings };
}

function problemsError(problems: Problem[]): UsageError {
  const files = [...new Set(problems.map((p) => p.file))];
  // file by file, in line order, so a person can fix them from the top
  problems = [...problems].sort(
    (a, b) => files.indexOf(a.file) - files.indexOf(b.file) || (a.line ?? 0) - (b.line ?? 0) || (a.col ?? 0) - (b.col ?? 0),
  );
  const head = problems.length === 1 ? 'a problem' : `${problems.length} problems`;
  return new UsageError(`${head} in ${files.join(' and ')}:\n  ${problems.map(formatProblem).join('\n  ')}`, {
    suggestion: 'Fix the lines shown and run the command again (docs/model-building.md describes the file format).',
  });
}
