// The thin HTTP layer: one keep-alive dispatcher, timeouts, the API key header, retries,
// envelope unwrapping, typed errors and a redacted debug trace.
import type { Dispatcher as UndiciDispatcher } from 'undici';
import { holdingConnector } from './connector.js';
import { cutShort, exchange } from './exchange.js';
import type { RequestBudget } from './budget.js';
import { formFileBytes, paceCollections } from './gc-pacer.js';
import { Agent, EnvHttpProxyAgent, type Dispatcher, type FormData } from './undici.js';
import { STATUS_CODES } from 'node:http';
import { ApiError, ConnectionError, InterruptedError, KctError, UsageError } from '../api/errors.js';
import { OPERATIONS } from '../api/operations.js';
import { bodyRequestId, serverErrorCode, serverMessage, unwrapEnvelope } from './envelope.js';
import { redact, redactFields, redactHeaders } from './redact.js';
import { DEFAULT_RETRY, RETRYABLE_STATUSES, isRetrySafe, parseRetryAfter, retryDelay, type RetryPolicy } from './retry.js';

export interface Timeouts {
  connectMs: number;
  headersMs: number;
  bodyMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { connectMs: 10_000, headersMs: 120_000, bodyMs: 120_000 };

export interface HttpOptions {
  /** Root of the v1 API, e.g. https://host/v1 */
  baseUrl: string;
  apiKey?: string;
  userAgent: string;
  timeouts?: Partial<Timeouts>;
  retry?: Partial<RetryPolicy>;
  /** Receives trace lines (already redacted) when set. */
  debug?: (line: string) => void;
  /** Told about each retry, e.g. to show "retrying in 2 s" to a person. */
  onRetry?: (info: { attempt: number; delayMs: number; reason: string }) => void;
  dispatcher?: Dispatcher;
  /** Collect V8's young generation while a body with large files streams, so memory stays flat (gc-pacer.ts). */
  paceUploads?: boolean;
  /** One request budget shared by every request of this client (budget.ts): rate, priority, 429/503 pauses. */
  budget?: RequestBudget;
  env?: NodeJS.ProcessEnv;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';

export interface RequestSpec {
  method: HttpMethod;
  /** Path relative to the base URL, starting with `/`. */
  path: string;
  json?: unknown;
  /** Built anew for every attempt, so file streams are reopened on a retry. */
  form?: () => FormData | Promise<FormData>;
  idempotencyKey?: string;
  /** Extra headers (kct api -H); they cannot replace the key, the content type or the idempotency key. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Set false to never retry (e.g. a POST that charges at acceptance). */
  retry?: boolean;
  /** No API key (public URLs). */
  anonymous?: boolean;
  /**
   * A 2xx answer must be JSON (or empty): an HTML page means the base URL points at some other
   * web server, and reading it as an empty answer would pass it off as the API.
   */
  expectJson?: boolean;
}

export interface HttpResponse<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body with any `data` envelope removed. */
  data: T;
  /** The body as received. */
  body: unknown;
  requestId?: string;
}

const MAX_REDIRECTS = 5;
/** How much of a body that is not JSON may appear in a message: a hint, never a page. */
const EXCERPT_CHARS = 120;
/** Routes with no id in their path: a 404 there means the route itself is missing. */
const FIXED_PATHS: ReadonlySet<string> = new Set(Object.values(OPERATIONS).map((op) => op.path).filter((path) => !path.includes(':')));
/** Fixed routes whose body names a model or assignment: the API answers 404 when that does not exist (spec 7). */
const NAMES_IDS: ReadonlySet<string> = new Set([OPERATIONS.onePass.path, OPERATIONS.batch.path, OPERATIONS.createAssignment.path, OPERATIONS.createEvaluation.path]);
/** No API answer is this large; a misbehaving endpoint must not exhaust memory. */
const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/** Connection-level failures worth another attempt. */
const TRANSIENT_NETWORK = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'ECONNABORTED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND']);
/** TLS and proxy failures: reported as connection problems, not retried (they will not heal). */
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH|ERR_PROXY)/;

function isNetworkError(code: string | undefined): boolean {
  if (code === undefined) return false;
  if (code === 'UND_ERR_INVALID_ARG' || code === 'UND_ERR_NOT_SUPPORTED' || code === 'UND_ERR_ABORTED') return false;
  return TRANSIENT_NETWORK.has(code) || code.startsWith('UND_ERR_') || TLS_CODE.test(code);
}

export class HttpClient {
  readonly baseUrl: string;
  private readonly options: HttpOptions;
  private readonly retryPolicy: RetryPolicy;
  private readonly timeouts: Timeouts;
  private dispatcherInstance?: Dispatcher;

  constructor(options: HttpOptions) {
    this.options = options;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    let parsed: URL | undefined;
    try {
      parsed = new URL(this.baseUrl);
    } catch {
      parsed = undefined;
    }
    if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) {
      throw new UsageError(`the base URL is not an http(s) URL: ${options.baseUrl}`, { suggestion: 'Use the form https://host/v1' });
    }
    this.retryPolicy = { ...DEFAULT_RETRY, ...options.retry };
    this.timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  }

  private get dispatcher(): Dispatcher {
    if (this.options.dispatcher) return this.options.dispatcher;
    if (!this.dispatcherInstance) {
      const agentOptions = {
        // a response that arrives while an upload is cut short wins over the broken write (connector.ts)
        connect: holdingConnector({ timeout: this.timeouts.connectMs }),
        headersTimeout: this.timeouts.headersMs,
        bodyTimeout: this.timeouts.bodyMs,
        keepAliveTimeout: 10_000,
      };
      const env = this.options.env ?? process.env;
      const proxied = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'].some((name) => env[name]);
      this.dispatcherInstance = proxied ? new EnvHttpProxyAgent(agentOptions) : new Agent(agentOptions);
    }
    return this.dispatcherInstance;
  }

  async close(): Promise<void> {
    await this.dispatcherInstance?.close();
    this.dispatcherInstance = undefined;
  }

  async send<T = unknown>(spec: RequestSpec): Promise<HttpResponse<T>> {
    const retryAllowed = spec.retry !== false && isRetrySafe(spec.method, spec.idempotencyKey);
    for (let attempt = 0; ; attempt++) {
      let outcome: Attempt;
      // every attempt is a request: it waits for its turn in the run's budget (reads first)
      await this.options.budget?.acquire(spec.method === 'GET' || spec.method === 'HEAD' ? 'read' : 'write', spec.signal);
      try {
        outcome = await this.attempt(spec);
      } catch (error) {
        if (spec.signal?.aborted) throw new InterruptedError('request interrupted', { cause: error });
        if (error instanceof KctError) throw error;
        // Only the network is retried; anything else (a local file gone, a bug) surfaces as it is.
        const code = errorCode(error);
        if (!isNetworkError(code)) throw error;
        const connection = toConnectionError(error, spec, this.baseUrl);
        const transient = TRANSIENT_NETWORK.has(code as string) || (code as string).startsWith('UND_ERR_');
        if (!retryAllowed || !transient || attempt >= this.retryPolicy.maxRetries) throw connection;
        const delay = retryDelay(attempt, undefined, this.retryPolicy, this.options.random);
        await this.pause(attempt, delay ?? 0, connection.message, spec.signal);
        continue;
      }
      if (outcome.status < 400) return outcome.response as HttpResponse<T>;
      const error = outcome.error;
      const retryAfter = parseRetryAfter(outcome.response.headers['retry-after']);
      // the service is overloaded or limiting us: the whole run slows down, not this request alone
      if (outcome.status === 429 || outcome.status === 503) this.options.budget?.penalize(retryAfter);
      const retryable = RETRYABLE_STATUSES.has(outcome.status);
      if (!retryable || !retryAllowed || attempt >= this.retryPolicy.maxRetries) throw error;
      const delay = retryDelay(attempt, retryAfter, this.retryPolicy, this.options.random);
      if (delay === undefined) throw error;
      await this.pause(attempt, delay, `HTTP ${outcome.status}`, spec.signal);
    }
  }

  private async pause(attempt: number, delayMs: number, reason: string, signal?: AbortSignal): Promise<void> {
    this.options.onRetry?.({ attempt: attempt + 1, delayMs, reason });
    this.trace(`retry ${attempt + 1}/${this.retryPolicy.maxRetries} in ${delayMs} ms (${reason})`);
    const sleep = this.options.sleep ?? abortableSleep;
    try {
      await sleep(delayMs, signal);
    } catch (error) {
      throw new InterruptedError('request interrupted', { cause: error });
    }
  }

  private async attempt(spec: RequestSpec): Promise<Attempt> {
    let url = new URL(this.baseUrl + spec.path);
    const origin = url.origin;
    let method: string = spec.method;
    let sendBody = true;
    for (let hop = 0; ; hop++) {
      const headers: Record<string, string> = {
        'user-agent': this.options.userAgent,
        accept: 'application/json',
        ...spec.headers,
      };
      if (this.options.apiKey && !spec.anonymous) headers['x-api-key'] = this.options.apiKey;
      if (spec.idempotencyKey) headers['idempotency-key'] = spec.idempotencyKey;
      let body: string | FormData | undefined;
      if (sendBody && spec.json !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(spec.json);
      } else if (sendBody && spec.form) {
        body = await spec.form();
      }
      const started = Date.now();
      this.trace(`> ${method} ${url.href}`);
      this.traceHeaders('>', headers);
      if (typeof body === 'string') this.traceBody('>', body);
      else if (body) this.trace('> [multipart body]');

      const stopPacing = this.options.paceUploads && body !== undefined && typeof body !== 'string' ? paceCollections(formFileBytes(body)) : undefined;
      let response;
      try {
        response = await exchange(this.dispatcher, {
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: method as UndiciDispatcher.HttpMethod,
          headers,
          body,
        }, MAX_RESPONSE_BYTES, spec.signal);
      } finally {
        stopPacing?.();
      }
      const text = response.text;
      const responseHeaders = response.headers;
      this.trace(`< ${response.statusCode} ${STATUS_CODES[response.statusCode] ?? ''} (${Date.now() - started} ms)`);
      if (response.truncated) this.trace(`< the connection broke before the whole answer arrived (${errorCode(response.truncated) ?? String(response.truncated)}); the status stands`);
      this.traceHeaders('<', responseHeaders);
      this.traceBody('<', text);

      if (response.statusCode >= 300 && response.statusCode < 400 && responseHeaders.location) {
        const target = new URL(String(responseHeaders.location), url);
        // The key goes only to the origin the user configured; never follow it elsewhere.
        if (target.origin !== origin) {
          throw new KctError('redirect_refused', `the server redirected ${method} ${url.href} to another host (${target.origin}); kct does not send the API key there`, {
            suggestion: `If the API moved, set the new base URL: kct config set base_url ${target.origin}${target.pathname.replace(/\/[^/]*$/, '')}`,
          });
        }
        if (hop >= MAX_REDIRECTS) throw new KctError('too_many_redirects', `too many redirects from ${spec.path}`);
        if (response.statusCode === 303 || ((response.statusCode === 301 || response.statusCode === 302) && method !== 'GET')) {
          method = 'GET';
          sendBody = false;
        }
        url = target;
        continue;
      }

      const { value: parsed, json } = parseBody(text, responseHeaders['content-type']);
      const notJson = json ? undefined : describeNonJson(text, responseHeaders['content-type']);
      if (notJson && spec.expectJson && response.statusCode < 400) {
        throw unknownAnswer(this.baseUrl, `${spec.method} ${spec.path} returned ${notTheApisJson(notJson)}`);
      }
      const requestId = headerValue(responseHeaders['x-request-id']) ?? headerValue(responseHeaders['request-id']) ?? bodyRequestId(parsed);
      const result: HttpResponse = {
        status: response.statusCode,
        headers: responseHeaders,
        data: unwrapEnvelope(parsed),
        body: parsed,
        requestId,
      };
      if (response.statusCode < 400) return { status: response.statusCode, response: result };
      const statusLine = `HTTP ${response.statusCode} ${STATUS_CODES[response.statusCode] ?? ''}`.trim();
      const message = notJson ? nonJsonErrorMessage(text, notJson, `${statusLine} from ${spec.method} ${spec.path}`) : serverMessage(parsed) ?? statusLine;
      const error = new ApiError({
        status: response.statusCode,
        message: redact(message, [this.options.apiKey]),
        method: spec.method,
        url: url.href,
        requestId,
        errorCode: serverErrorCode(parsed),
        body: parsed,
        headers: responseHeaders,
      }, { suggestion: errorSuggestion(response.statusCode, spec.path, this.baseUrl, notJson !== undefined) });
      return { status: response.statusCode, response: result, error };
    }
  }

  private trace(line: string): void {
    if (this.options.debug) this.options.debug(redact(line, [this.options.apiKey]));
  }

  private traceHeaders(direction: string, headers: Record<string, unknown>): void {
    if (!this.options.debug) return;
    for (const [name, value] of Object.entries(redactHeaders(headers, [this.options.apiKey]))) {
      this.options.debug(`${direction} ${name}: ${value}`);
    }
  }

  private traceBody(direction: string, text: string): void {
    if (!this.options.debug || text === '') return;
    const shown = text.length > 4000 ? `${text.slice(0, 4000)}… (${text.length} bytes)` : text;
    this.options.debug(`${direction} ${redact(redactFields(shown), [this.options.apiKey])}`);
  }
}

type Attempt =
  | { status: number; response: HttpResponse; error?: undefined }
  | { status: number; response: HttpResponse; error: ApiError };

/** The body, parsed when it is JSON; `json` is false for a non-empty body that is not. */
function parseBody(text: string, contentType: string | string[] | undefined): { value: unknown; json: boolean } {
  if (text.trim() === '') return { value: undefined, json: true };
  const type = headerValue(contentType) ?? '';
  if (type.includes('json') || /^\s*[[{]/.test(text)) {
    try {
      return { value: JSON.parse(text), json: true };
    } catch {
      return { value: text, json: false };
    }
  }
  return { value: text, json: false };
}

function describeNonJson(text: string, contentType: string | string[] | undefined): string {
  const type = (headerValue(contentType) ?? '').toLowerCase();
  return type.includes('html') || /^\s*</.test(text) ? 'an HTML page' : type.includes('json') ? 'invalid JSON' : 'plain text';
}

/** "an HTML page, not the API's JSON" */
function notTheApisJson(kind: string): string {
  return kind === 'invalid JSON' ? kind : `${kind}, not the API's JSON`;
}

/** The first line of a body, short and without control characters. */
function excerpt(text: string): string {
  const line = (text.split(/\r?\n/).find((candidate) => candidate.trim() !== '') ?? '').replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').replace(/\s+/g, ' ').trim();
  return line.length > EXCERPT_CHARS ? `${line.slice(0, EXCERPT_CHARS)}…` : line;
}

/**
 * A short plain-text line (a proxy's "Bad Gateway") is the message as it is; a page or a long text
 * is never printed whole, only named, with a one-line excerpt of text.
 */
function nonJsonErrorMessage(text: string, kind: string, what: string): string {
  const trimmed = text.trim();
  if (kind === 'plain text' && !/[\r\n]/.test(trimmed) && trimmed.length <= EXCERPT_CHARS) return excerpt(trimmed);
  const shown = kind === 'an HTML page' ? '' : `: "${excerpt(trimmed)}"`;
  return `${what} (the server answered with ${notTheApisJson(kind)}${shown})`;
}

function errorSuggestion(status: number, path: string, baseUrl: string, notJson: boolean): string | undefined {
  // A JSON 404 for a request that names a model under a /v1 base URL is most likely that model.
  const likelyMissingId = NAMES_IDS.has(path) && !notJson && baseUrl.endsWith('/v1');
  if (status === 404 && FIXED_PATHS.has(path) && !likelyMissingId) return `The base URL may be wrong. ${baseUrlAdvice(baseUrl)}`;
  // A 5xx page usually comes from a proxy in front of a service that is down, not from a wrong URL.
  return notJson && status < 500 ? baseUrlAdvice(baseUrl) : undefined;
}

/** What to check when the base URL seems to lead somewhere other than the API. */
function baseUrlAdvice(baseUrl: string): string {
  const where = '(--base-url, KCT_BASE_URL, or `kct config set base_url`)';
  const url = new URL(baseUrl);
  if (url.pathname === '/' || url.pathname === '') return `API routes live under /v1: try ${url.origin}/v1 ${where}.`;
  if (!url.pathname.endsWith('/v1')) return `The base URL ${baseUrl} does not end in /v1; it should be the root of the API, e.g. ${url.origin}/v1 ${where}.`;
  return `Check that ${baseUrl} is the root of the Public Evaluation API, the URL that ends in /v1 ${where}.`;
}

/** An answer that does not come from the API: a 2xx that is not JSON, or JSON of the wrong shape. */
export function unknownAnswer(baseUrl: string, what: string): KctError {
  return new KctError('unknown_answer', `the server at ${baseUrl} did not answer like the Public Evaluation API: ${what}`, { suggestion: baseUrlAdvice(baseUrl) });
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

const NOT_DELIVERED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT', 'EHOSTUNREACH', 'ENETUNREACH']);

function toConnectionError(error: unknown, spec: RequestSpec, baseUrl: string): ConnectionError {
  const code = errorCode(error);
  // the connection broke before the whole request was written: the server never saw its end, so
  // it cannot have accepted it (exchange.ts)
  const delivered = !NOT_DELIVERED.has(code ?? '') && !cutShort.has(error as object);
  const what = code ? `${code}` : error instanceof Error ? error.message : String(error);
  const reason = code === 'ECONNREFUSED' ? 'connection refused' : code === 'ENOTFOUND' ? 'host not found' : what;
  return new ConnectionError(`cannot reach ${baseUrl} (${reason}) during ${spec.method} ${spec.path}`, delivered, {
    cause: error,
    suggestion: 'Check the base URL (kct config get base_url) and your network or proxy settings, then try again.',
  });
}

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason ?? new Error('aborted'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason ?? new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
