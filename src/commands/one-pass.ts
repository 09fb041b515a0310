// kct one-pass: mark an answer with a model in one request, wait, print the scores.
import { TaskUnsuccessfulError, UsageError } from '../api/errors.js';
import type { EvaluationResult, OnePassFields, Task } from '../api/schemas.js';
import { isUnsuccessfulFinal } from '../api/status.js';
import { checkFileCount, inspectFile, type LocalFile } from '../client/files.js';
import type { Context } from '../cli/context.js';
import { out } from '../cli/io.js';
import { printResult } from '../cli/render/result.js';
import { resolveFormat } from '../cli/render/rows.js';
import { readStdinText } from '../cli/stdin.js';
import { watchWithProgress, type WatchFlags } from '../cli/watching.js';
import { parseModelId, parsePositiveNumber } from '../cli/parse.js';

export interface OnePassOptions extends WatchFlags {
  answers?: string[];
  model?: string;
  text?: string;
  rubricFile?: string[];
  rubricText?: string;
  questionFile?: string[];
  questionText?: string;
  name?: string;
  desc?: string;
  cumMethod?: 'sum' | 'average';
  totalScore?: string;
  spec?: string;
  style?: 'Bullet' | 'Short' | 'Long';
  studentId?: string;
  idempotencyKey?: string;
  wait?: boolean;
  output?: string;
  json?: boolean;
}

export async function run(options: OnePassOptions, context: Context): Promise<void> {
  const settings = await context.settings({ model: options.model });
  const modelId = parseModelId(settings.model.value);
  const format = resolveFormat(options, settings.output.value);
  const answers = options.answers ?? [];
  if (answers.length === 0 && options.text === undefined) {
    throw new UsageError('no answer given', { suggestion: 'Pass an answer file, - to read text from stdin, or --text "<answer>".' });
  }
  if (answers.length + (options.text === undefined ? 0 : 1) > 1) {
    throw new UsageError('one answer per one-pass call: give one file, -, or --text', {
      suggestion: 'Mark a folder or several files with `kct batch` or one `kct one-pass` call each.',
    });
  }

  const [rubricFiles, questionFiles] = await Promise.all([inspectAll(options.rubricFile), inspectAll(options.questionFile)]);
  let paperContent = options.text;
  let answerFiles: LocalFile[] = [];
  const input = answers[0];
  if (input === '-') {
    paperContent = await readStdinText(context.io);
  } else if (input !== undefined) {
    answerFiles = [await inspectFile(input)];
  }
  if (paperContent !== undefined && paperContent.trim() === '') throw new UsageError('the answer text is empty');
  checkFileCount([...answerFiles, ...rubricFiles, ...questionFiles]);

  const fields: OnePassFields = dropUndefined({
    model_id: modelId,
    paper_content: paperContent,
    rubric_text: options.rubricText,
    question_text: options.questionText,
    assignment_name: options.name,
    assignment_desc: options.desc,
    cum_method: options.cumMethod,
    total_score: options.totalScore === undefined ? undefined : parsePositiveNumber(options.totalScore, '--total-score'),
    specification: options.spec,
    style: options.style,
    student_id: options.studentId,
  });

  const client = await context.client();
  const task = await client.onePass({ fields, answerFiles, rubricFiles, questionFiles }, { idempotencyKey: options.idempotencyKey, signal: context.signal });

  if (options.wait === false) {
    printTask(context, task, format);
    return;
  }
  context.note(`kct: accepted ${task.task_id}${typeof task.credit_cost === 'number' ? ` (cost ${task.credit_cost} credits, charged only on success)` : ''}`);
  await watchWithProgress(context, client, [task.task_id], options);
  const result = await client.result(task.task_id, { signal: context.signal });
  await printOutcome(context, result, format);
}

async function printOutcome(context: Context, result: EvaluationResult, format: string): Promise<void> {
  if (format === 'table') await printResult(context.io, result);
  else out(context.io, JSON.stringify(result, null, format === 'json' ? 2 : 0));
  if (isUnsuccessfulFinal(result.status)) throw new TaskUnsuccessfulError({ [result.task_id]: String(result.status) });
}

function printTask(context: Context, task: Task, format: string): void {
  if (format !== 'table') {
    out(context.io, JSON.stringify(task, null, format === 'json' ? 2 : 0));
    return;
  }
  out(context.io, `Accepted ${task.task_id}  ${task.status ?? ''}${task.stage ? ` (${task.stage})` : ''}`);
  if (typeof task.credit_cost === 'number') out(context.io, `Cost: ${task.credit_cost} credits, charged only when the result is complete`);
  out(context.io, `Follow it with: kct status ${task.task_id} --watch`);
}

async function inspectAll(paths: string[] | undefined): Promise<LocalFile[]> {
  return Promise.all((paths ?? []).map((path) => inspectFile(path)));
}

function dropUndefined<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
