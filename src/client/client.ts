// The typed client of the Public Evaluation API v1. Usable without the CLI:
//   const client = new KctClient({ baseUrl, apiKey });
//   const task = await client.onePass({ fields: { model_id: 12, paper_content: '...' } });
import { UsageError } from '../api/errors.js';
import { withoutDefaults } from '../api/field-defaults.js';
import { operationPath } from '../api/operations.js';
import {
  Assignment,
  AssignmentRequest,
  BatchRequest,
  CreateModelRequest,
  type Credits,
  EvaluationResult,
  FeedbackRewriteRequest,
  IngestPreviewFields,
  LegacyEvaluationFields,
  Model,
  RewriteResult,
  StatusSnapshot,
  Task,
  UploadedFile,
} from '../api/schemas.js';
import { VERSION } from '../version.js';
import type { PaceReading } from './budget.js';
import { findList, isPlainObject } from './envelope.js';
import type { LocalFile } from './files.js';
import { checkFileCount, checkLocalFiles } from './files.js';
import { HttpClient, type HttpOptions, type HttpResponse, type RequestSpec, unknownAnswer } from './http.js';
import { type BatchIdempotency, type FileHasher, idempotencyKeyFor, type OnePassIdempotency } from './idempotency.js';
import { type ModelWaitOptions, waitForModel } from './model-wait.js';
import { buildForm } from './multipart.js';
import { type OnePassInput, onePassRequest, type PreparedOnePass, readAndKey } from './one-pass.js';
import { type SchedulerHandlers, TaskPoller, TaskScheduler, type WatchOptions, watchTasks } from './poll.js';
import { type AcceptedTask, accepted, batchItemsOf, normalizeCredits, parseLoose, validateRequest } from './records.js';
import { parseRetryAfter } from './retry.js';
import { assertSendableKey } from './sendable-key.js';

export type { OnePassInput, PreparedOnePass } from './one-pass.js';
export type { AcceptedTask } from './records.js';

export interface KctClientOptions extends Omit<HttpOptions, 'userAgent' | 'apiKey'> {
  apiKey: string;
  userAgent?: string;
}

/** `patient`: a run's read, which must outlast the service's pace; `retry: false`: one attempt only (RequestSpec). */
export type CallOptions = Pick<RequestSpec, 'signal' | 'patient' | 'retry'>;

/** What a call passes on to its request, and nothing else: every method the same way. */
function callOf(options: CallOptions): CallOptions {
  return { signal: options.signal, patient: options.patient, ...(options.retry === false ? { retry: false } : {}) };
}

export interface SubmitOptions extends CallOptions {
  /** The Idempotency-Key as it is (the same as `idempotency: { key }`). */
  idempotencyKey?: string;
}

/** A one-pass submission's options: its Idempotency-Key by the shared rule (idempotency.ts). */
export interface OnePassOptions extends SubmitOptions {
  idempotency?: OnePassIdempotency;
  /** Hashes files for a derived key: `cachedHasher()` reads a file shared by many submissions (a rubric) once. */
  hasher?: FileHasher;
  /**
   * Send one plain-text answer file (UTF-8, nothing else uploaded with it) as JSON paper_content
   * instead of a file: no multipart (the default; false sends the file). The key is made from the
   * file either way.
   */
  textAsJson?: boolean;
}

/** A run's batch: `turnSignal` ends its wait for a turn in the budget, `patient` outlasts the pace (RequestSpec). */
export interface BatchOptions extends SubmitOptions, Pick<RequestSpec, 'turnSignal'> {
  idempotency?: BatchIdempotency;
}

/** The input of a question or rubric preview (4.4, 4.5): asset URLs in `fields`, or local files. */
export interface IngestPreviewInput {
  fields: IngestPreviewFields;
  files?: LocalFile[];
}

/** The spec leaves the preview's response shape open (4.4, 4.5): the record as the server sent it. */
export type IngestPreviewResult = Record<string, unknown>;

/** The spec leaves the cancel response open (4.12): the server's record, with the task id. */
export type CancelResult = Record<string, unknown> & { task_id: string };

/** Waiting for one task: an overall deadline (mandatory, spec 8) and an optional abort signal. */
export type WaitOptions = Pick<WatchOptions, 'timeoutMs' | 'signal' | 'onUpdate' | 'schedule'>;

export class KctClient {
  readonly http: HttpClient;

  constructor(options: KctClientOptions) {
    // a caller from JavaScript may give no options, or no base URL: said as the library's errors are
    if (typeof options !== 'object' || options === null)
      throw new UsageError('new KctClient() needs its options: { baseUrl, apiKey }', {
        suggestion: "Pass baseUrl (the API's, e.g. https://host/v1) and apiKey (a key that begins with kct_).",
      });
    if (typeof options.baseUrl !== 'string' || options.baseUrl.trim() === '')
      throw new UsageError('no base URL (the baseUrl option)', { suggestion: "Pass baseUrl: the API's base URL, e.g. https://host/v1." });
    assertSendableKey(options.apiKey);
    this.http = new HttpClient({ ...options, userAgent: options.userAgent ?? `kct/${VERSION}` });
  }

  get baseUrl(): string {
    return this.http.baseUrl;
  }

  close(): Promise<void> {
    return this.http.close();
  }

  /** The balance; an answer with no credit number in it did not come from the API. */
  async credits(options: CallOptions = {}): Promise<Credits & { credits: number }> {
    const path = operationPath('getCredits');
    const response = await this.get(path, options);
    const credits = normalizeCredits(response.data);
    if (credits === undefined) throw unknownAnswer(this.baseUrl, `GET ${path} returned no number of credits`);
    return credits;
  }

  /**
   * The balance record as the server sent it (the spec leaves its fields open), with the credit
   * count when kct recognises one; `credits` is undefined for a shape kct does not know.
   */
  async creditsRecord(options: CallOptions = {}): Promise<{ record: unknown; credits?: number }> {
    const response = await this.get(operationPath('getCredits'), options);
    return { record: response.data, credits: normalizeCredits(response.data)?.credits };
  }

  async models(options: CallOptions = {}): Promise<Model[]> {
    const path = operationPath('listModels');
    const response = await this.get(path, options);
    const list = findList(response.data, ['models', 'items', 'results', 'list', 'data']);
    if (list === undefined) throw unknownAnswer(this.baseUrl, `GET ${path} returned no list of models`);
    return list.map((item) => parseLoose(Model, item));
  }

  /**
   * Reads and keys a one-pass submission without sending it: answer files that fit in one read
   * are read once (larger ones are hashed and later streamed from disk), and the Idempotency-Key
   * is made by the rule of `options.idempotency`. `send()` then sends it as `onePass` does.
   */
  async prepareOnePass(input: OnePassInput, options: Omit<OnePassOptions, 'signal'> = {}): Promise<PreparedOnePass> {
    for (const field of ['answerFiles', 'rubricFiles', 'questionFiles'] as const) checkLocalFiles(input[field], field);
    const choice = keyChoice(options);
    const { input: read, idempotencyKey } = await readAndKey(input, choice, options.hasher, options.textAsJson !== false);
    return {
      input: read,
      idempotencyKey,
      send: async (call = {}) =>
        accepted(
          await this.send(
            onePassRequest(read, idempotencyKey, {
              ...call,
              textAsJson: options.textAsJson !== false,
            }),
          ),
        ),
    };
  }

  /** POST /evaluations/one-pass: JSON for text, multipart when files are attached. */
  async onePass(input: OnePassInput, options: OnePassOptions = {}): Promise<AcceptedTask> {
    return (await this.prepareOnePass(input, options)).send(callOf(options));
  }

  /** The run's pace (requests a second allowed now, and sent lately), when this client has a request budget. */
  pace(): PaceReading | undefined {
    return this.http.pace();
  }

  async status(taskId: string, options: CallOptions = {}): Promise<StatusSnapshot> {
    return (await this.statusWithHints(taskId, options)).snapshot;
  }

  /** The snapshot plus the server's Retry-After hint, for polling loops. */
  async statusWithHints(taskId: string, options: CallOptions = {}): Promise<{ snapshot: StatusSnapshot; retryAfterMs?: number }> {
    const response = await this.get(operationPath('getStatus', { taskId }), options);
    const snapshot = parseLoose(StatusSnapshot, response.data);
    return { snapshot: { task_id: taskId, ...snapshot }, retryAfterMs: parseRetryAfter(response.headers['retry-after']) };
  }

  /** Polls the given tasks until all are final (see watchTasks). */
  watch(taskIds: readonly string[], options: WatchOptions): Promise<Map<string, StatusSnapshot>> {
    return watchTasks((id, signal) => this.statusWithHints(id, { signal }), taskIds, this.reaching(options));
  }

  /**
   * Polls one task until it is final (3 s backing off to 15 s) and returns its last snapshot.
   * Rejects with WatchTimeoutError at the deadline, InterruptedError when the signal aborts.
   */
  async waitFor(taskId: string, options: WaitOptions): Promise<StatusSnapshot> {
    const done = await this.watch([taskId], options);
    return done.get(taskId)!;
  }

  /** A shared polling loop to which tasks can be added while it runs. */
  poller(options: WatchOptions): TaskPoller {
    return new TaskPoller((id, signal) => this.statusWithHints(id, { signal }), this.reaching(options));
  }

  /** The polling loop of a run that tags its tasks itself (run/follow.ts): one per run, as poller()'s. */
  scheduler(options: WatchOptions, handlers: SchedulerHandlers): TaskScheduler {
    return new TaskScheduler((id, signal) => this.statusWithHints(id, { signal }), this.reaching(options), handlers);
  }

  /** A watch that knows whether the server answered this client before (a submission, say). */
  private reaching(options: WatchOptions): WatchOptions {
    return { reachedBefore: () => this.http.answeredOnce, ...options };
  }

  /**
   * Polls GET /models until the model is ready to mark with (3 s backing off to 15 s) and returns
   * it. Rejects with TaskUnsuccessfulError when its training failed, ModelWaitTimeoutError at the
   * deadline, ModelWaitInterruptedError when the signal aborts.
   */
  waitForModel(modelId: string | number, options: ModelWaitOptions): Promise<Model> {
    return waitForModel((signal) => this.models({ signal }), modelId, options);
  }

  async result(taskId: string, options: CallOptions = {}): Promise<EvaluationResult> {
    const response = await this.get(operationPath('getResult', { taskId }), options);
    const data = isPlainObject(response.data) ? { task_id: taskId, ...response.data } : response.data;
    return parseLoose(EvaluationResult, data);
  }

  /** The items of a batch, each read as a result (undefined when the task is not a batch). */
  async batchItems(taskId: string, options: CallOptions = {}): Promise<EvaluationResult[] | undefined> {
    return batchItemsOf(await this.result(taskId, options));
  }

  /** Cancel is not retried automatically unless safe: a repeated cancel is harmless (409 at worst). */
  async cancel(taskId: string, options: CallOptions = {}): Promise<CancelResult> {
    const response = await this.send({
      method: 'POST',
      path: operationPath('cancel', { taskId }),
      ...callOf(options),
    });
    return isPlainObject(response.data) ? { task_id: taskId, ...response.data } : { task_id: taskId };
  }

  /** POST /assignments (4.6). */
  async createAssignment(request: AssignmentRequest, options: CallOptions = {}): Promise<Assignment> {
    const body = validateRequest(AssignmentRequest, request, 'assignment');
    const response = await this.send({ method: 'POST', path: operationPath('createAssignment'), json: body, ...callOf(options) });
    return parseLoose(Assignment, response.data);
  }

  /**
   * POST /evaluations, the legacy assignment path (4.7). It charges at acceptance and has no
   * idempotency, so it is never retried: a lost answer may still have been accepted.
   */
  async evaluate(input: { fields: LegacyEvaluationFields; answerFiles?: LocalFile[] }, options: CallOptions = {}): Promise<Task> {
    checkLocalFiles(input.answerFiles, 'answerFiles');
    const fields = validateRequest(LegacyEvaluationFields, input.fields, 'evaluation request');
    const files = input.answerFiles ?? [];
    if (fields.paper_content === undefined && files.length === 0)
      throw new UsageError('an answer is required: paper_content text or at least one answer file');
    checkFileCount(files.length, 'answer');
    const parts = files.map((file) => ({ field: 'answer_files', file }));
    const response = await this.send({
      method: 'POST',
      path: operationPath('createEvaluation'),
      ...(parts.length > 0 ? { form: () => buildForm(fields, parts) } : { json: fields }),
      retry: false,
      ...callOf(options),
    });
    return parseLoose(Task, response.data);
  }

  /**
   * POST /evaluations/batch (4.9): 1 to 100 items of one-pass fields. Its Idempotency-Key follows
   * the rule of one-pass: derived from the request, or a base key joined to its items' identities.
   */
  async batch(request: BatchRequest, options: BatchOptions = {}): Promise<AcceptedTask> {
    const choice = keyChoice(options);
    const idempotencyKey = await idempotencyKeyFor(choice, { endpoint: 'batch', fields: request as unknown as Record<string, unknown> });
    const checked = validateRequest(BatchRequest, request, 'batch request');
    const body = { ...checked, evaluations: checked.evaluations.map(withoutDefaults) };
    const response = await this.send({
      method: 'POST',
      path: operationPath('batch'),
      json: body,
      idempotencyKey,
      signal: options.signal,
      turnSignal: options.turnSignal,
      patient: options.patient,
    });
    return accepted(response);
  }

  /** POST /uploads/file (4.14): exactly one file. */
  async upload(file: LocalFile, options: CallOptions = {}): Promise<UploadedFile> {
    const response = await this.send({
      method: 'POST',
      path: operationPath('uploadFile'),
      form: () => buildForm({}, [{ field: 'file', file }]),
      ...callOf(options),
    });
    return parseLoose(UploadedFile, response.data);
  }

  /** POST /feedback-rewrite (4.13). */
  async rewrite(request: FeedbackRewriteRequest, options: CallOptions = {}): Promise<RewriteResult> {
    const body = validateRequest(FeedbackRewriteRequest, request, 'rewrite request');
    const response = await this.send({ method: 'POST', path: operationPath('feedbackRewrite'), json: body, ...callOf(options) });
    return parseLoose(RewriteResult, response.data);
  }

  /**
   * POST /questions-ingest-preview or /rubrics-ingest-preview (4.4, 4.5): JSON with `assets`
   * when there are no local files, multipart (files, plus assets as a JSON-array string) when
   * there are.
   */
  async ingestPreview(kind: 'questions' | 'rubrics', input: IngestPreviewInput, options: CallOptions = {}): Promise<IngestPreviewResult> {
    const fields = validateRequest(IngestPreviewFields, input.fields, `${kind} preview request`);
    const files = input.files ?? [];
    if (files.length === 0 && !fields.assets?.length) throw new UsageError('nothing to parse: give files, or asset URLs in fields.assets');
    checkFileCount(files.length);
    const parts = files.map((file) => ({ field: 'files', file }));
    const response = await this.send({
      method: 'POST',
      path: operationPath(kind === 'questions' ? 'questionsPreview' : 'rubricsPreview'),
      ...(parts.length > 0 ? { form: () => buildForm(fields, parts) } : { json: fields }),
      ...callOf(options),
    });
    return isPlainObject(response.data) ? response.data : { value: response.data };
  }

  /** POST /questions-ingest-preview (4.4). */
  questionsPreview(input: IngestPreviewInput, options: CallOptions = {}): Promise<IngestPreviewResult> {
    return this.ingestPreview('questions', input, options);
  }

  /** POST /rubrics-ingest-preview (4.5). */
  rubricsPreview(input: IngestPreviewInput, options: CallOptions = {}): Promise<IngestPreviewResult> {
    return this.ingestPreview('rubrics', input, options);
  }

  /**
   * POST /models (4.3; field list in docs/model-building.md). Never retried: the spec gives it
   * no idempotency, and a retry could create a second model.
   */
  async createModel(request: CreateModelRequest, options: CallOptions = {}): Promise<Model> {
    const body = validateRequest(CreateModelRequest, request, 'model');
    const response = await this.send({
      method: 'POST',
      path: operationPath('createModel'),
      json: body,
      retry: false,
      ...callOf(options),
    });
    return parseLoose(Model, response.data);
  }

  protected get(path: string, options: CallOptions): Promise<HttpResponse> {
    return this.send({ method: 'GET', path, ...callOf(options) });
  }

  /** Every API answer is JSON: anything else comes from a server that is not the API. */
  protected send(spec: RequestSpec): Promise<HttpResponse> {
    return this.http.send({ expectJson: true, ...spec });
  }
}

/** The one key rule asked for: `idempotencyKey` is `{ key }` said shortly, so both at once is a contradiction, not a preference. */
function keyChoice<T>(options: { idempotency?: T; idempotencyKey?: string }): T | { key: string } | undefined {
  if (options.idempotency !== undefined && options.idempotencyKey !== undefined)
    throw new UsageError('idempotency and idempotencyKey were both given: each names the Idempotency-Key', {
      suggestion: "Give one: idempotency ('derive', { key }, or a base and names), or idempotencyKey, which is { key }.",
    });
  return options.idempotency ?? (options.idempotencyKey === undefined ? undefined : { key: options.idempotencyKey });
}
