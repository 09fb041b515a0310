// The engines the sandbox consumes (text extraction, rubric parsing, grading, credit cost, big
// request bodies), in one place. Everything CPU-heavy runs in worker-thread pools
// (threads/pool.ts): extractText, and grade and rubricsFromText inside the jobs that mark a task
// and parse a preview, on the task threads; a big JSON body's parse on the request thread, so
// it never waits behind a task's job. A job names a module and function and takes plain data,
// so the request thread only sends and receives. Jobs with little text run inline: a thread
// hop costs more than the work (docs/sandbox.md).

import type { JsonBody } from '../http/json-body.js';
import type { Fields, PreviewKind, PreviewOutcome, ReadSource } from '../ingest/preview-parse.js';
import { parsePreview } from '../ingest/preview-parse.js';
import { isSpilled } from '../store/spilled.js';
import type { Job, RunOptions, ThreadPool } from '../threads/pool.js';
import { JobFailedError } from '../threads/pool.js';
import { ExtractionError } from './extract/errors.js';
import type { Extracted } from './extract/tidy.js';
import { GraderFailure, type GradingEngine } from './llm/types.js';
import { OnePerTurn } from './one-per-turn.js';
import type { MarkInput, MarkOutput, PlanOutput } from './work/mark.js';
import { checkMarked, markTask, planMark } from './work/mark.js';
import type { PrepareInput, PrepareOutput, TextFlags } from './work/prepare.js';
import { prepareTask, textFlags } from './work/prepare.js';
import { senderReason } from './work/reasons.js';

export type { GradeRubric } from './grader.js';
export { creditCost } from './grader.js';
export type { TextFlags };
export { ExtractionError };

/** Characters of text below which a job runs on the calling thread (~2 ms of work, measured). */
const INLINE_CHARS = 16_000;

/** Each job is the function of its name, exported by this module (relative to dist/sandbox/). */
export const JOBS = {
  extractText: 'engines/extract/index.js',
  prepareTask: 'engines/work/prepare.js',
  textFlags: 'engines/work/prepare.js',
  markTask: 'engines/work/mark.js',
  planMark: 'engines/work/mark.js',
  parsePreview: 'ingest/preview-parse.js',
  readJsonBody: 'http/json-body.js',
} as const;

type JobName = keyof typeof JOBS;

export class Engines {
  /** Inline marks, one per turn of the event loop: workers that reach marking together do not hold it in one stretch. */
  private readonly inline = new OnePerTurn();

  /** `requests`: the pool of request bodies' jobs (default: the tasks' own). */
  constructor(
    private readonly pool: ThreadPool,
    private readonly requests: ThreadPool = pool,
  ) {}

  /** Text of a stored file; an ExtractionError (its message fit for the sender) when unreadable. */
  async extractText(path: string, mime: string, options: RunOptions = {}): Promise<Extracted> {
    return this.run('extractText', [path, mime], options);
  }

  /** The UPLOADING stage of a task: its files read, its text put together. */
  prepareTask(input: PrepareInput, signal?: AbortSignal): Promise<PrepareOutput> {
    return this.preparesInline(input) ? prepareTask(input) : this.run('prepareTask', [input], { signal });
  }

  /** Whether a task's text is put together here at once (pasted text, no files): no thread, no wait. */
  preparesInline(input: PrepareInput): boolean {
    return input.files.length === 0 && (input.paperContent?.length ?? 0) <= INLINE_CHARS;
  }

  /** The magic-input flags of a prepared text (a spilled one is read from its file on a thread). */
  textFlags(preparedJson: string, taskDir: string, signal?: AbortSignal): Promise<TextFlags> {
    const small = preparedJson.length <= INLINE_CHARS && !isSpilled(preparedJson);
    return small ? Promise.resolve(textFlags(preparedJson, taskDir)) : this.run('textFlags', [preparedJson, taskDir], { signal });
  }

  /** The last step of a task: rubric chosen (text parsed), answer marked, result checked. */
  markTask(input: MarkInput, signal?: AbortSignal): Promise<MarkOutput> {
    return isSmallMark(input) ? this.inline.run(() => markTask(input)) : this.run('markTask', [input], { signal });
  }

  /**
   * The last step with a language-model engine: the plan is made here (on a thread when heavy),
   * the engine is called from this thread (it waits on the network, not the CPU), and its reply
   * is checked like the grader's. The engine's own failures end the task with their reason.
   */
  async markWith(engine: GradingEngine, input: MarkInput, signal: AbortSignal): Promise<MarkOutput> {
    const small = isSmallMark(input);
    const planned: PlanOutput = small ? planMark(input) : await this.run('planMark', [input], { signal });
    if (!planned.ok) return planned;
    try {
      return checkMarked(await engine.grade(planned.gradeInput, signal), planned.gradeInput, engine.gradedBy, planned.notMarked);
    } catch (err) {
      if (!(err instanceof GraderFailure)) throw err;
      return { ok: false, reason: `${err.message} No credits were charged.`, retryable: err.retryable };
    }
  }

  /** The questions or rubric of a preview, parsed from its sources' text. Refused (busy) when the pool's queue is full. */
  parsePreview(kind: PreviewKind, fields: Fields, read: ReadSource[]): Promise<PreviewOutcome> {
    const chars = read.reduce((n, r) => n + r.text.length, 0);
    return chars <= INLINE_CHARS
      ? Promise.resolve().then(() => parsePreview(kind, fields, read))
      : this.run('parsePreview', [kind, fields, read], { bounded: true });
  }

  /**
   * A JSON request body parsed and fingerprinted on a request thread. Refused (busy) when its
   * queue is full. Bytes that fill their own ArrayBuffer are handed over, not copied.
   */
  readJsonBody(bytes: Uint8Array): Promise<JsonBody> {
    const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
    return this.run(
      'readJsonBody',
      [bytes, true],
      { bounded: true, ...(whole ? { transfer: [bytes.buffer as ArrayBuffer] } : {}) },
      this.requests,
    );
  }

  /** Runs a job on a thread; what a job threw comes back as the same kind of error where it matters. */
  private async run<T>(name: JobName, args: unknown[], options: RunOptions, pool = this.pool): Promise<T> {
    const job: Job = { module: JOBS[name], fn: name, args };
    try {
      return await pool.run<T>(job, options);
    } catch (err) {
      if (err instanceof JobFailedError && err.remote.name === 'ExtractionError') {
        throw new ExtractionError(senderReason(err.remote.message, err.remote.cause));
      }
      throw err;
    }
  }
}

/** Whether a task's marking is small enough to run on the calling thread. */
function isSmallMark(input: MarkInput): boolean {
  const chars = input.inputJson.length + (input.preparedJson?.length ?? 0) + input.model.rubrics_json.length;
  return chars <= INLINE_CHARS && !(input.preparedJson !== null && isSpilled(input.preparedJson));
}
