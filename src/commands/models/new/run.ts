// kct models new: the whole model-building flow of spec 1 on a terminal. Parse the question paper
// and the rubric, let the person check and edit both previews (in $VISUAL/$EDITOR, or wherever
// they like while kct waits), validate, confirm, create, and wait until the model is ready.
// Off a terminal it refuses (exit 2) and prints the same steps as separate commands.
import { spawn } from 'node:child_process';
import { access, mkdtemp, rm, rmdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { InterruptedError, UsageError } from '../../../api/errors.js';
import { PREVIEW_MIME_TYPES } from '../../../api/limits.js';
import { formatNumber } from '../../../api/numbers.js';
import type { CumMethod as CumMethodType } from '../../../api/schemas.js';
import type { Context } from '../../../cli/core/context.js';
import type { OptionsOf } from '../../../cli/core/define-command.js';
import { err } from '../../../cli/core/io.js';
import { type FolderError, makeFolders } from '../../../cli/core/make-folders.js';
import { cannotAsk, type Prompts, prompts } from '../../../cli/core/prompt.js';
import { shellWord as quote } from '../../../cli/core/shell-word.js';
import {
  confirmCreate,
  describeModel,
  ingestToFile,
  printIngestSummary,
  printModel,
  statedTotalError,
  sumOf,
  waitForModel,
} from '../../../cli/models/model-building.js';
import { buildModelRequest, type ModelPlan } from '../../../cli/models/preview-file.js';
import { previewHeader, renderPreviewFile, writeFileAtomic } from '../../../cli/models/preview-writer.js';
import { exporterFor } from '../../../cli/render/export.js';
import { paint } from '../../../cli/render/style.js';
import type { KctClient } from '../../../client/client.js';
import { inspectFile } from '../../../client/files.js';
import type { command } from './command.js';

type Options = OptionsOf<typeof command>;

/** The step-by-step commands, for scripts and for anyone off a terminal. */
export function stepByStep(options: Options): string {
  const questions = (options.questionFiles ?? []).map(quote).join(' ') || 'paper.pdf';
  const rubric = (options.rubric ?? []).map(quote).join(' ') || 'rubric.docx';
  const total = options.totalScore ?? '<total>';
  const method = options.cumMethod ?? 'sum';
  return [
    'Run the steps one by one instead:',
    `  1. kct ingest questions ${questions}${options.spec ? ` --spec ${quote(options.spec)}` : ''} --out questions.yaml`,
    `  2. kct ingest rubrics ${rubric} --total-score ${total} --cum-method ${method} --out rubrics.yaml`,
    // the model's name and description are the questions file's (assignment_name, assignment_desc) unless given
    '  3. check and edit questions.yaml (its assignment_name and assignment_desc name the model) and rubrics.yaml',
    `  4. kct models create --questions questions.yaml --rubrics rubrics.yaml${options.name !== undefined ? ` --name ${quote(options.name)}` : ''}${options.desc !== undefined ? ` --desc ${quote(options.desc)}` : ''}${options.subject !== undefined ? ` --subject ${quote(options.subject)}` : ''} --wait --yes`,
  ].join('\n');
}

/** The command that creates the model from kept previews; --subject is in neither file, so it is carried. */
function createCommand(questions: string, rubrics: string, subject: string | undefined): string {
  return `kct models create --questions ${quote(questions)} --rubrics ${quote(rubrics)}${subject !== undefined ? ` --subject ${quote(subject)}` : ''} --wait`;
}

/** Previews already in --dir (an earlier run's, perhaps edited) are never replaced: said before anything is asked or sent. */
async function refuseKeptPreviews(dir: string, subject: string | undefined): Promise<void> {
  const [questions, rubrics] = [join(dir, 'questions.yaml'), join(dir, 'rubrics.yaml')];
  const kept = (
    await Promise.all(
      [questions, rubrics].map((path) =>
        access(path).then(
          () => path,
          () => undefined,
        ),
      ),
    )
  ).filter(Boolean);
  if (kept.length === 0) return;
  throw new UsageError(
    `${kept.join(' and ')} already ${kept.length === 1 ? 'exists' : 'exist'}; kct does not overwrite previews you may have edited`,
    {
      suggestion:
        kept.length === 2
          ? `Create the model from them: ${createCommand(questions, rubrics, subject)}; or give another --dir to start again.`
          : 'Give another --dir (or none: a new temporary folder) to start again.',
    },
  );
}

export async function run(options: Options, context: Context): Promise<void> {
  if (context.io.noPrompt) {
    throw cannotAsk(
      context.io,
      'kct models new is interactive (it opens an editor and asks before creating) and cannot run here',
      stepByStep(options),
    );
  }
  const rubricFiles = options.rubric ?? [];
  if (rubricFiles.length === 0)
    throw new UsageError('give the rubric with --rubric <files...>', { suggestion: 'e.g. kct models new paper.pdf --rubric rubric.docx' });
  if (options.questionFiles.length === 0)
    throw new UsageError('give the question paper: kct models new <question files...> --rubric <rubric files...>');
  // every file is checked before anything is sent or asked
  await Promise.all([...options.questionFiles, ...rubricFiles].map((path) => inspectFile(path, PREVIEW_MIME_TYPES)));
  if (options.dir !== undefined) await refuseKeptPreviews(options.dir, options.subject);

  const ask = await prompts(context, 'cancelled; nothing was created');
  const c = paint(context.io);
  const step = (text: string) => err(context.io, `\n${c.bold(text)}`);

  // the folders kct makes (a new temporary one, or those of --dir that did not exist) go again if the previews do
  const made = options.dir === undefined ? [await mkdtemp(join(tmpdir(), 'kct-model-'))] : foldersOf(options.dir);
  const dir = options.dir ?? made[0];
  const questionsPath = join(dir, 'questions.yaml');
  const rubricsPath = join(dir, 'rubrics.yaml');
  const client = await context.client();
  const steps = { context, options, client, ask, step, questionsPath, rubricsPath };
  await removedIfStopped([questionsPath, rubricsPath], made, () => writePreviews(steps));

  const create = createCommand(questionsPath, rubricsPath, options.subject);
  let plan: ModelPlan;
  try {
    plan = await checkedPlan(steps);
    step('4/5 Create the model');
    err(context.io, await describeModel(context.io, plan.request));
    if (!(await confirmCreate(context, options.yes))) {
      context.notice('next', `Nothing was created. The previews are kept in ${dir}; create later with:\n  ${create}`);
      return;
    }
  } catch (error) {
    // the previews are whole from here on, and perhaps edited: kept, and the way to use them said
    if (error instanceof InterruptedError)
      throw new InterruptedError(error.message, {
        suggestion: `The previews are kept in ${dir}; create the model from them with: ${create}`,
      });
    throw error;
  }
  const created = await client.createModel(plan.request, { signal: context.signal });
  const id = String(created.model_id);
  context.notice('info', `Created model ${id} (${String(created.post_status ?? 'status unknown')}).`, { model_id: created.model_id });

  step('5/5 Training');
  const model = created.post_status === 'ready' ? created : await waitForModel(context, client, id, options);
  await (await exporterFor({ json: options.json }, context)).record(model, () => printModel(context.io, model));
  context.notice('next', `Model ${id} is ready. Mark with it: kct one-pass <answer file> --model ${id}`);
  context.notice('info', `(The previews are kept in ${dir}.)`);
}

interface Steps {
  context: Context;
  options: Options;
  client: KctClient;
  ask: Prompts;
  step: (text: string) => void;
  questionsPath: string;
  rubricsPath: string;
}

/** Steps 1 and 2: both previews written, and what neither file says (a name, the rubric's total) asked. */
async function writePreviews({ context, options, client, ask, step, questionsPath, rubricsPath }: Steps): Promise<void> {
  const rubricFiles = options.rubric ?? [];
  const totalFlag = options.totalScore;
  step(`1/5 Reading the question paper (${options.questionFiles.join(', ')})`);
  const questions = await ingestToFile(
    client,
    {
      kind: 'questions',
      files: options.questionFiles,
      assets: [],
      output: questionsPath,
      force: options.dir === undefined,
      specification: options.spec,
      name: options.name,
      desc: options.desc,
    },
    context.signal,
  );
  await printIngestSummary(context.io, 'questions', questions.content);
  for (const warning of questions.warnings) context.notice('warning', warning);
  // A name and description are needed; the paper may not give them.
  let patched = false;
  if (!questions.content.assignment_name) {
    questions.content.assignment_name = await ask.text('Name of the model (assignment_name):');
    patched = true;
  }
  if (!questions.content.assignment_desc) {
    questions.content.assignment_desc = await ask.text('Description (assignment_desc):');
    patched = true;
  }
  if (patched)
    await writeFileAtomic(
      questionsPath,
      renderPreviewFile(questionsPath, questions.content, previewHeader('questions', questionsPath, questions.preview)),
    );

  step(`2/5 Reading the rubric (${rubricFiles.join(', ')})`);
  const rubrics = await ingestToFile(
    client,
    {
      kind: 'rubrics',
      files: rubricFiles,
      assets: [],
      output: rubricsPath,
      force: options.dir === undefined,
      totalScore: totalFlag,
      cumMethod: options.cumMethod,
    },
    context.signal,
  );
  // asked once the rubric is read, so the question can say what its criteria add up to; what the
  // service said of the total it was not sent (a guess) is neither printed nor kept once it is answered
  const asking = totalFlag === undefined || options.cumMethod === undefined;
  await printIngestSummary(context.io, 'rubrics', rubrics.content, { total: !asking });
  const warnings = asking ? rubrics.warnings.filter((warning) => !/total_score|cum_method/.test(warning)) : rubrics.warnings;
  for (const warning of warnings) context.notice('warning', warning);
  if (asking) {
    const criteria = sumOf(criteriaOf(rubrics.content));
    const method =
      options.cumMethod ??
      (await ask.select<CumMethodType>('How do criterion scores make the total?', [
        { label: 'sum: criterion scores are added', value: 'sum' },
        { label: 'average: the average of the criteria, scaled to the total', value: 'average' },
      ]));
    // a sum is out of what its criteria add up to (criteriaTotalProblem): nothing to ask, and no other answer would do
    const sum = method === 'sum' && criteria !== undefined && totalFlag === undefined;
    // unless the rubric states another total: which one was meant is the teacher's to say
    const stated = sum ? statedTotalError(rubrics.preview, criteriaOf(rubrics.content), rubricFiles.join(', ')) : undefined;
    if (stated) throw stated;
    if (sum) err(context.io, `Total score: ${formatNumber(criteria)}, what the criteria add up to.`);
    const adding = criteria === undefined ? '' : ` (its criteria add up to ${formatNumber(criteria)})`;
    rubrics.content.total_score = totalFlag ?? (sum ? criteria : await ask.number(`Total score of the rubric${adding}:`, 0.01));
    rubrics.content.cum_method = method;
    await writeFileAtomic(
      rubricsPath,
      renderPreviewFile(rubricsPath, rubrics.content, previewHeader('rubrics', rubricsPath, { ...rubrics.preview, warnings })),
    );
  }
}

const criteriaOf = (content: Record<string, unknown>) => (content.rubrics as { max_score?: unknown }[]).map((r) => r.max_score);

/** Step 3: the previews edited until they make a valid request, or a stop with the command that uses them once fixed. */
async function checkedPlan({ context, options, ask, step, questionsPath, rubricsPath }: Steps): Promise<ModelPlan> {
  step('3/5 Check and edit the previews');
  const c = paint(context.io);
  for (;;) {
    await editFiles(context, [questionsPath, rubricsPath], ask);
    try {
      const plan = await buildModelRequest({ questions: questionsPath, rubrics: rubricsPath, subject: options.subject });
      for (const warning of plan.warnings) context.notice('warning', warning);
      return plan;
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      err(context.io, c.red(`${error.message}`));
      const again = await ask.confirm('Edit the files again?', true);
      if (!again)
        throw new UsageError(`stopped: the previews are not valid yet (kept in ${dirname(questionsPath)})`, {
          suggestion: `Fix them, then create the model from them: ${createCommand(questionsPath, rubricsPath, options.subject)}`,
        });
    }
  }
}

/**
 * Until both previews are written and shown, a stop of any kind (Ctrl-C at a question, a failed
 * parse) removes what this run wrote: half a pair in --dir would only make the next run refuse it.
 */
async function removedIfStopped(paths: string[], made: string[], work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    await Promise.all(paths.map((path) => rm(path, { force: true })));
    // the folders this run made, the deepest first, while each is empty (rmdir refuses one with anything else in it)
    for (const folder of [...made].reverse())
      if (
        !(await rmdir(folder).then(
          () => true,
          () => false,
        ))
      )
        break;
    throw error;
  }
}

/** The folders of --dir made (make-folders.ts); one that cannot be made is a usage error, before anything is sent. */
function foldersOf(dir: string): string[] {
  try {
    return makeFolders(dir);
  } catch (error) {
    const { code, folder } = error as FolderError;
    throw new UsageError(`cannot make --dir ${dir} (${folder}: ${code ?? String(error)})`, {
      suggestion: 'Give --dir a folder you can write to (it is made if missing), or none: a new temporary folder.',
    });
  }
}

/** Opens the files in $VISUAL or $EDITOR and waits; without one, prints where they are and waits for Enter. */
async function editFiles(context: Context, paths: string[], ask: Prompts): Promise<void> {
  const editor = context.env.VISUAL || context.env.EDITOR;
  if (!editor) {
    err(context.io, `Open and edit these files (set $EDITOR to have kct open them):\n${paths.map((p) => `  ${p}`).join('\n')}`);
    await ask.confirm('Done editing? Check the files now', true);
    return;
  }
  err(context.io, `Opening ${paths.join(' and ')} in ${editor} ...`);
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(`${editor} ${paths.map(quote).join(' ')}`, { shell: true, stdio: 'inherit', env: context.env });
    child.once('error', reject);
    child.once('exit', (exitCode) => resolve(exitCode));
  });
  if (code !== 0)
    throw new UsageError(`the editor (${editor}) exited with code ${code}; nothing was created (the previews are in ${paths.join(', ')})`);
}
