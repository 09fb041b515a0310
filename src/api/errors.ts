// Typed errors of the library. They carry what a caller needs to act (status, the server's
// message, request id, a suggestion); only src/cli/core/exit-codes.ts turns them into exit codes.

export interface KctErrorOptions {
  suggestion?: string;
  cause?: unknown;
}

export class KctError extends Error {
  /** A stable, machine-readable code (also printed by `--json` error output). */
  readonly code: string;
  /** What the user can do next, in one sentence. */
  readonly suggestion?: string;

  constructor(code: string, message: string, options: KctErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.suggestion = options.suggestion;
  }
}

/** Bad flags, arguments or local files: caught before anything is sent. */
export class UsageError extends KctError {
  constructor(message: string, options: KctErrorOptions = {}) {
    super('usage', message, options);
  }
}

/** No usable API key, or one that must not be sent (spec 5). Nothing was sent. */
export class CredentialsError extends KctError {
  constructor(message: string, options: KctErrorOptions = {}) {
    super('credentials', message, options);
  }
}

export interface ApiErrorDetails {
  status: number;
  message: string;
  method: string;
  url: string;
  requestId?: string;
  errorCode?: string;
  body?: unknown;
  headers?: Record<string, string | string[] | undefined>;
}

/** Something named on the command line does not exist (a key by its masked form): exits as a 404 does. */
export class NoSuchItemError extends KctError {
  constructor(message: string, options: KctErrorOptions = {}) {
    super('not_found', message, options);
  }
}

/** Where an HTTP error came from; everything but the status is optional for `ApiError.from`. */
export type ApiErrorContext = Partial<Omit<ApiErrorDetails, 'status' | 'body'>>;

/**
 * The server answered with an HTTP error. `ApiError.from` picks the subclass for the status
 * (openai-node's core/error.ts), so callers test `instanceof NotFoundError`, not `.status === 404`.
 */
export class ApiError extends KctError {
  readonly status: number;
  readonly requestId?: string;
  readonly errorCode?: string;
  readonly body?: unknown;
  readonly method: string;
  readonly url: string;
  readonly headers?: Record<string, string | string[] | undefined>;

  constructor(details: ApiErrorDetails, options: KctErrorOptions = {}) {
    super(details.errorCode ?? `http_${details.status}`, details.message, options);
    this.status = details.status;
    this.requestId = details.requestId;
    this.errorCode = details.errorCode;
    this.body = details.body;
    this.method = details.method;
    this.url = details.url;
    this.headers = details.headers;
  }

  /** This error told in other words (a message, a suggestion): the same class, status, request and body. */
  retold(message: string, options: KctErrorOptions = {}): ApiError {
    const Kind = this.constructor as new (details: ApiErrorDetails, options?: KctErrorOptions) => ApiError;
    const { status, method, url, requestId, errorCode, body, headers } = this;
    return new Kind({ status, message, method, url, requestId, errorCode, body, headers }, options);
  }

  /** The error of the class that fits the status, with the server's body (and message, when given). */
  static from(status: number, body?: unknown, context: ApiErrorContext = {}, options: KctErrorOptions = {}): ApiError {
    const details: ApiErrorDetails = {
      method: '',
      url: '',
      ...context,
      status,
      body,
      message: context.message ?? bodyMessage(body) ?? `HTTP ${status}`,
      // what the body says, unless the caller knows better (a request id from the headers)
      errorCode: context.errorCode ?? serverErrorCode(body),
      requestId: context.requestId ?? bodyRequestId(body),
    };
    const Kind = errorClassFor(status);
    return new Kind(details, options);
  }
}

/** 400, 413, 422: the request itself was refused (a field, a file, the body). */
export class BadRequestError extends ApiError {}
/** 401: the key is missing, unknown or revoked. */
export class AuthenticationError extends ApiError {}
/** 402: the key's owner has too few credits left. */
export class InsufficientCreditsError extends ApiError {}
/** 403: the key may not use this model (or its organization scope no longer holds). */
export class PermissionError extends ApiError {}
/** 404: the model, assignment or task does not exist (or the base URL is wrong). */
export class NotFoundError extends ApiError {}
/** 409: model not ready, task no longer cancellable, or an Idempotency-Key reused for other content. */
export class ConflictError extends ApiError {}
/** 429: too many requests; `headers['retry-after']` says when to come back. */
export class RateLimitError extends ApiError {}
/** 5xx: the service failed; the request may be tried again later. */
export class ServerError extends ApiError {}

/**
 * What a 404 or 409 means, the one place kct tells them apart: by status and error code (spec 5),
 * the message read only when the server sent no code (a server without error codes).
 */
export type Refusal =
  | 'model_not_ready'
  | 'idempotency_key_reused'
  | 'task_not_cancellable'
  | 'task_not_found'
  | 'model_not_found'
  | 'assignment_not_found'
  | 'model_forbidden';

const BY_TEXT: [Refusal, typeof ApiError, RegExp][] = [
  ['model_not_ready', ConflictError, /not ready/i],
  ['idempotency_key_reused', ConflictError, /idempotency/i],
  ['task_not_cancellable', ConflictError, /cancel/i],
  ['task_not_found', NotFoundError, /\btask\b/i],
  ['model_not_found', NotFoundError, /model .*does not exist|no model/i],
  ['assignment_not_found', NotFoundError, /assignment .*does not exist|no assignment/i],
  ['model_forbidden', PermissionError, /model/i],
];

/** The refusal an error is, or undefined. */
export function refusalOf(error: unknown): Refusal | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const known = BY_TEXT.find(([code, kind]) => error instanceof kind && error.errorCode === code);
  if (known) return known[0];
  if (error.errorCode !== undefined) return undefined;
  return BY_TEXT.find(([, kind, text]) => error instanceof kind && text.test(error.message))?.[0];
}

function errorClassFor(status: number): typeof ApiError {
  if (status === 400 || status === 413 || status === 422) return BadRequestError;
  if (status === 401) return AuthenticationError;
  if (status === 402) return InsufficientCreditsError;
  if (status === 403) return PermissionError;
  if (status === 404) return NotFoundError;
  if (status === 409) return ConflictError;
  if (status === 429) return RateLimitError;
  if (status >= 500) return ServerError;
  return ApiError;
}

/** The message of an error body of the common shapes ({error: {message}}, {message}, {error}). */
/** The machine-readable code of an error body: `error.code`, or a bare `code`. */
export function serverErrorCode(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const record = body as Record<string, unknown>;
  const error = record.error as Record<string, unknown> | undefined;
  if (typeof error === 'object' && error !== null && typeof error.code === 'string') return error.code;
  return typeof record.code === 'string' ? record.code : undefined;
}

/** The request id an error body names: `request_id`, `requestId`, or `error.request_id`. */
export function bodyRequestId(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const record = body as Record<string, unknown>;
  const error = record.error as Record<string, unknown> | undefined;
  const candidates = [record.request_id, record.requestId, typeof error === 'object' && error !== null ? error.request_id : undefined];
  return candidates.find((value): value is string => typeof value === 'string' && value.trim() !== '')?.trim();
}

function bodyMessage(body: unknown): string | undefined {
  if (typeof body === 'string' && body.trim() !== '') return body.trim().slice(0, 500);
  if (typeof body !== 'object' || body === null) return undefined;
  const record = body as Record<string, unknown>;
  const error = record.error as Record<string, unknown> | string | undefined;
  const candidates = [typeof error === 'object' && error !== null ? error.message : error, record.message, record.detail];
  return candidates.find((value): value is string => typeof value === 'string' && value.trim() !== '');
}

/** The neutral advice on a connection that failed (src/cli/core/hints.ts words it for kct). */
export const CONNECTION_ADVICE = 'Check the base URL and your network or proxy settings, then try again.';

/** A connection's reasons when the server took the request and then said nothing in time (src/cli/core/hints.ts names the knob). */
export const SILENT_SERVER = {
  noAnswer: 'the server took the request and sent no answer in time',
  answerStopped: 'the answer stopped coming',
} as const;

/** The server could not be reached, or the connection broke before a full answer arrived. */
export class ConnectionError extends KctError {
  /** True when the request body may have reached the server (the outcome is unknown). */
  readonly maybeDelivered: boolean;
  constructor(message: string, maybeDelivered: boolean, options: KctErrorOptions = {}) {
    super('connection', message, options);
    this.maybeDelivered = maybeDelivered;
  }
}

/**
 * Watching stopped because the server stopped answering: a status request still could not reach
 * it after the retries. Said at once rather than polled until the deadline; the tasks keep
 * whatever state the server holds.
 */
export class ServerStoppedAnsweringError extends ConnectionError {
  readonly taskIds: string[];
  /** The watch had an answer before it stopped; false: it never reached the server (one not started, a wrong URL). */
  readonly reached: boolean;
  constructor(taskIds: string[], cause: ConnectionError, options: { suggestion?: string; reached?: boolean } = {}) {
    const watched =
      taskIds.length === 1
        ? `task ${taskIds[0]}`
        : `${taskIds.length} tasks (${taskIds.slice(0, 3).join(', ')}${taskIds.length > 3 ? ', …' : ''})`;
    const reached = options.reached !== false;
    super(
      reached
        ? `the server stopped answering while ${watched} ${taskIds.length === 1 ? 'was' : 'were'} being watched: ${cause.message}`
        : `cannot watch ${watched}: ${cause.message}`,
      cause.maybeDelivered,
      {
        cause,
        // never reached: the connection's own advice (is the sandbox running? the base URL?)
        suggestion:
          options.suggestion ??
          (reached
            ? `The tasks keep their state on the server: once it answers, run the same command again (nothing is charged twice), or watch one with kct status ${taskIds[0]} --watch.`
            : cause.suggestion),
      },
    );
    this.taskIds = taskIds;
    this.reached = reached;
  }
}

/** The neutral advice of a watch that timed out (src/cli/core/hints.ts words it for kct). */
export const WATCH_TIMEOUT_ADVICE = 'The task keeps running: check its status again later.';

/** Watching stopped at the overall --timeout; the tasks are still running. */
export class WatchTimeoutError extends KctError {
  readonly taskIds: string[];
  /** `more`: tasks also still running but not named (a big run names the first few). */
  constructor(taskIds: string[], timeoutMs: number, more = 0, suggestion = WATCH_TIMEOUT_ADVICE) {
    super(
      'watch_timeout',
      `still not final after ${formatDuration(timeoutMs)}: ${taskIds.join(', ')}${more > 0 ? ` and ${more} more` : ''}`,
      {
        suggestion,
      },
    );
    this.taskIds = taskIds;
  }
}

/** `kct result` of a task still running: its record is printed, and it is no result yet (exit 8, as a watch that ran out). */
export class NotFinalError extends KctError {
  constructor(taskId: string, status: string) {
    super('not_final', `${taskId} is not finished yet (${status}): its record holds no result`, {
      suggestion: `Watch it with: kct status ${taskId} --watch, then read it with kct result ${taskId}.`,
    });
  }
}

/** One or more tasks ended FAILURE or CANCEL. The result was already printed. */
export class TaskUnsuccessfulError extends KctError {
  readonly statuses: Record<string, string>;
  constructor(statuses: Record<string, string>, message?: string, suggestion?: string) {
    const ids = Object.keys(statuses);
    super(
      'task_unsuccessful',
      message ?? `${ids.length === 1 ? `task ${ids[0]}` : `${ids.length} tasks`} ended ${[...new Set(Object.values(statuses))].join('/')}`,
      suggestion === undefined ? {} : { suggestion },
    );
    this.statuses = statuses;
  }
}

/**
 * Tasks that ended SUCCESS with no number for their score: no mark to hand back, and no failure
 * either. An answer of the service kct does not know (exit 1); the records were already printed.
 */
export class UnscoredResultError extends KctError {
  readonly taskIds: string[];
  /**
   * `answers`: how many answers (copies share a task); `of`: the run's answers, when several; `cut`: a
   * big run names its first tasks only; `also`: what else the run left (tasks still running).
   */
  constructor(taskIds: string[], run: { answers?: number; of?: number; cut?: boolean; also?: string } = {}) {
    const { answers = taskIds.length, of, cut, also } = run;
    super(
      'unknown_answer',
      of !== undefined && of > 1
        ? `${answers} of ${of} answers ended SUCCESS with no score in the result (${taskIds.length === 1 ? 'task' : 'tasks'} ${taskIds.join(', ')}${cut ? ', ...' : ''}): the service did not say their marks${also ? `; ${also}` : ''}`
        : `task ${taskIds.join(', ')} ended SUCCESS with no score in its result: the service did not say the mark${also ? `; ${also}` : ''}`,
      {
        suggestion: `Read the result record of ${taskIds[0]}, and ask the service's support why it has no score.`,
      },
    );
    this.taskIds = taskIds;
  }
}

/**
 * What a run of many answers had done when it was stopped, counted in answers (a batch's answers
 * share one task): every answer is accepted, or has a row printed without a task (refused), or is not sent.
 */
export interface StoppedRun {
  /** Answers the service holds a task for (accepted by this run, or sent before): charged when marked. */
  accepted: number;
  /** Of those, answers not seen finished: queued or running on the service (with --no-wait, all that were accepted now). */
  unfinished: number;
  /** The tasks of the unfinished answers, each once, the first 100: their rows, printed or not, name them all. */
  taskIds: string[];
  /** Answers never sent: no task, no row; the same command again sends them. */
  notSent: number;
  /** The --resume journal, which records each answer's task. */
  journal?: string;
}

/** The user pressed Ctrl-C (or the process got SIGINT/SIGTERM). */
export class InterruptedError extends KctError {
  /** True when a request stopped may have reached the server (a submission: maybe accepted, and charged), as ConnectionError's. */
  readonly maybeDelivered: boolean;
  /** A run of many answers that was stopped: what it left, for scripts (--json's error carries it). */
  readonly run?: StoppedRun;
  constructor(message = 'interrupted', options: KctErrorOptions & { run?: StoppedRun } = {}, maybeDelivered = false) {
    super('interrupted', message, options);
    this.maybeDelivered = maybeDelivered;
    this.run = options.run;
  }
}

/**
 * `kct callbacks listen` stopped with deliveries it never handled (not taken by --forward-to's
 * endpoint, or not printed): their senders deliver them again, to a listener no longer there.
 */
export class UnhandledDeliveriesError extends KctError {
  /** Their webhook-ids, the first 100. */
  readonly webhookIds: string[];
  /** Stopped by Ctrl-C or SIGTERM: the exit code is the signal's, as for every command. */
  readonly interrupted: boolean;
  constructor(message: string, webhookIds: string[], interrupted: boolean, options: KctErrorOptions = {}) {
    super('unhandled_deliveries', message, options);
    this.webhookIds = webhookIds;
    this.interrupted = interrupted;
  }
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const s = Math.round(ms / 1000);
  if (s < 120) return `${s} s`;
  const m = Math.round(s / 60);
  return m < 120 ? `${m} min` : `${Math.round(m / 60)} h`;
}
