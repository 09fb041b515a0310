// The HTTP layer's request loop: the API key header, the request budget, retries, redirects,
// envelope unwrapping, typed errors and a redacted debug trace. Where requests go out is
// transport.ts; reading a wrong answer, response-errors.ts; failures below HTTP, network-errors.ts.

import { STATUS_CODES } from 'node:http';
import type { Dispatcher as UndiciDispatcher } from 'undici';
import { ApiError, bodyRequestId, InterruptedError, KctError, serverErrorCode, UsageError } from '../api/errors.js';
import { checkBaseUrl, routeUrl } from './base-url.js';
import type { PaceReading, RequestBudget } from './budget.js';
import { serverMessage, unwrapEnvelope } from './envelope.js';
import { cutShort, exchange } from './exchange.js';
import type { EncodedForm } from './multipart.js';
import { errorCode, isNetworkError, maybeAcceptedAdvice, TRANSIENT_NETWORK, toConnectionError } from './network-errors.js';
import { keyInPath, redact, redactFields, redactHeaders, redactSecrets, redactValue } from './redact.js';
import { advised, describeNonJson, headerValue, nonJsonErrorMessage, notTheApisJson, parseBody, unknownAnswer } from './response-errors.js';
import { DEFAULT_RETRY, isRetrySafe, parseRetryAfter, RETRYABLE_STATUSES, type RetryPolicy, retryDelay } from './retry.js';
import { abortableSleep } from './sleep.js';
import { DEFAULT_TIMEOUTS, MAX_REDIRECTS, MAX_RESPONSE_BYTES, newDispatcher, type Timeouts } from './transport.js';
import { type Dispatcher, FormData } from './undici.js';

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
  /** Built anew for every attempt, so file streams are reopened on a retry: a FormData undici encodes, or a body encoded already. */
  form?: () => Promise<FormData | EncodedForm>;
  idempotencyKey?: string;
  /** Extra headers (kct api -H); they cannot replace the key, the content type or the idempotency key. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /**
   * Ends the first attempt's wait for its turn in the budget, when it is not `signal`: Ctrl-C stops a
   * request not yet started at once, while one already under way keeps its grace (marking.ts).
   */
  turnSignal?: AbortSignal;
  /**
   * A request of a run that must go through whatever the pace (a submission, a result read): a 429 or
   * 503 sends it again after the budget's pause up to MAX_PACED_REFUSALS times, not using up its
   * retries. A single command is not patient: it says the service is busy after its retries.
   */
  patient?: boolean;
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

/**
 * How often one patient request (a run's: RequestSpec.patient) is sent again after a 429 or 503: each one
 * pauses and slows the whole run, so repeated refusals mean a service slower than kct's slowest
 * pace, not a failed request (docs/guides/large-runs-and-reruns.md, "Polite by construction").
 */
export const MAX_PACED_REFUSALS = 30;

export class HttpClient {
  readonly baseUrl: string;
  /** The key, in a field of the language's own privacy: util.inspect and JSON.stringify of a client never show it. */
  readonly #apiKey: string | undefined;
  private readonly options: Omit<HttpOptions, 'apiKey'>;
  private readonly retryPolicy: RetryPolicy;
  private readonly timeouts: Timeouts;
  private dispatcherInstance?: Dispatcher;
  /** The server has answered a request of this client: a refusal after that is a server that stopped answering. */
  answeredOnce = false;

  constructor({ apiKey, ...options }: HttpOptions) {
    this.#apiKey = apiKey;
    this.options = options;
    checkBaseUrl(options.baseUrl);
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.retryPolicy = { ...DEFAULT_RETRY, ...options.retry };
    this.timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  }

  private get dispatcher(): Dispatcher {
    if (this.options.dispatcher) return this.options.dispatcher;
    this.dispatcherInstance ??= newDispatcher(this.timeouts, this.options.env ?? process.env);
    return this.dispatcherInstance;
  }

  /** The run's pace (budget.ts), when this client has a request budget. */
  pace(): PaceReading | undefined {
    return this.options.budget?.pace();
  }

  async close(): Promise<void> {
    await this.dispatcherInstance?.close();
    this.dispatcherInstance = undefined;
  }

  async send<T = unknown>(spec: RequestSpec): Promise<HttpResponse<T>> {
    if (keyInPath(spec.path)) {
      throw new UsageError('that looks like an API key, where an id goes: a key is never sent in a URL', {
        suggestion:
          'Give the task, batch or model id (tsk_..., or a number) instead; a key pasted where others may see it is best revoked.',
      });
    }
    // refused before any attempt: a route outside the base URL never gets the key
    const url = routeUrl(this.baseUrl, spec.path);
    const retryAllowed = spec.retry !== false && isRetrySafe(spec.method, spec.idempotencyKey);
    /** Whether an attempt so far may have reached the server: the last one refused does not undo it. */
    let maybeDelivered = false;
    /** Refusals for the pace (429, 503) under a run's budget: they do not use up the request's retries. */
    let paced = 0;
    /** No attempt so far can have been taken by the server (none made, or each refused): its waits end on turnSignal. */
    let untaken = true;
    const waits = () => (untaken ? (spec.turnSignal ?? spec.signal) : spec.signal);
    for (let attempt = 0; ; attempt++) {
      let outcome: Attempt;
      // every attempt is a request: it waits for its turn in the run's budget (reads first)
      await this.options.budget?.acquire(spec.method === 'GET' || spec.method === 'HEAD' ? 'read' : 'write', waits());
      const sentAt = performance.now();
      try {
        outcome = await this.attempt(spec, url);
      } catch (error) {
        if (spec.signal?.aborted) throw stoppedAfterSending(spec, error, maybeDelivered);
        if (error instanceof KctError) throw error;
        // Only the network is retried; anything else (a local file gone, a bug) surfaces as it is.
        const code = errorCode(error);
        if (!isNetworkError(code)) throw error;
        const connection = toConnectionError(error, spec, this.baseUrl, maybeDelivered);
        maybeDelivered = connection.maybeDelivered;
        untaken &&= !maybeDelivered;
        const transient = TRANSIENT_NETWORK.has(code as string) || (code as string).startsWith('UND_ERR_');
        if (!retryAllowed || !transient || attempt - paced >= this.retryPolicy.maxRetries) throw connection;
        const delay = retryDelay(attempt, undefined, this.retryPolicy, this.options.random);
        await this.pause(attempt, delay ?? 0, connection.message, waits());
        continue;
      }
      const retryAfter = parseRetryAfter(outcome.response.headers['retry-after']);
      // the service is overloaded or limiting us: the whole run slows down, not this request alone
      // (a Retry-After on a success is a polling hint for that task, read by the polling loop)
      const pacing = outcome.status === 429 || outcome.status === 503;
      const refused = pacing || (outcome.status >= 400 && retryAfter !== undefined);
      this.answeredOnce = true;
      this.options.budget?.answered({ latencyMs: performance.now() - sentAt, refused, retryAfterMs: refused ? retryAfter : undefined });
      if (outcome.status < 400) return outcome.response as HttpResponse<T>;
      const error = outcome.error;
      const retryable = RETRYABLE_STATUSES.has(outcome.status);
      // with a budget, a refusal for the pace is the service saying when: the budget waits and slows for it
      // KCT_MAX_RETRIES=0 turns every retry off, this patience too: a CI job that asked to fail fast does
      const forPace = pacing && spec.patient === true && this.options.budget !== undefined && this.retryPolicy.maxRetries > 0;
      if (forPace) paced += 1;
      const spent = forPace ? paced > MAX_PACED_REFUSALS : attempt - paced >= this.retryPolicy.maxRetries;
      if (!retryable || !retryAllowed || spent) throw error;
      const delay = retryDelay(attempt, retryAfter, this.retryPolicy, this.options.random);
      if (delay === undefined) throw error;
      // a refusal (429, 503) was not taken: sent again, it is a new submission, which Ctrl-C stops
      untaken &&= pacing;
      await this.pause(attempt, delay, `HTTP ${outcome.status} from ${spec.method} ${spec.path}`, waits());
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

  private async attempt(spec: RequestSpec, start: URL): Promise<Attempt> {
    let url = start;
    const origin = url.origin;
    let method: string = spec.method;
    let sendBody = true;
    for (let hop = 0; ; hop++) {
      const headers: Record<string, string> = {
        'user-agent': this.options.userAgent,
        accept: 'application/json',
        ...spec.headers,
      };
      if (this.#apiKey && !spec.anonymous) headers['x-api-key'] = this.#apiKey;
      if (spec.idempotencyKey) headers['idempotency-key'] = spec.idempotencyKey;
      let body: string | FormData | Uint8Array | undefined;
      if (sendBody && spec.json !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(spec.json);
      } else if (sendBody && spec.form) {
        const form = await spec.form();
        if (form instanceof FormData) body = form;
        else [body, headers['content-type']] = [form.bytes, form.contentType];
      }
      const started = Date.now();
      if (this.options.debug) this.trace(`> ${method} ${url.href}`);
      this.traceHeaders('>', headers);
      if (typeof body === 'string') this.traceBody('>', body);
      else if (body) this.trace('> [multipart body]');

      const response = await exchange(
        this.dispatcher,
        {
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: method as UndiciDispatcher.HttpMethod,
          headers,
          body,
        },
        MAX_RESPONSE_BYTES,
        spec.signal,
      );
      // the caller's key echoed back in any answer is never handed on: printed, saved or returned
      const text = redactSecrets(response.text, [this.#apiKey]);
      const responseHeaders = response.headers;
      if (this.options.debug)
        this.trace(`< ${response.statusCode} ${STATUS_CODES[response.statusCode] ?? ''} (${Date.now() - started} ms)`);
      if (response.truncated)
        this.trace(
          `< the connection broke before the whole answer arrived (${errorCode(response.truncated) ?? String(response.truncated)}); the status stands`,
        );
      this.traceHeaders('<', responseHeaders);
      this.traceBody('<', text);

      if (response.statusCode >= 300 && response.statusCode < 400 && responseHeaders.location) {
        const target = new URL(String(responseHeaders.location), url);
        // The key goes only to the origin the user configured; never follow it elsewhere.
        if (target.origin !== origin) {
          throw new KctError(
            'redirect_refused',
            `the server redirected ${method} ${url.href} to another host (${target.origin}); kct does not send the API key there`,
            {
              suggestion: `If the API moved, use its new base URL: ${target.origin}${target.pathname.replace(/\/[^/]*$/, '')}`,
            },
          );
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
      // a page refusing the method (501) is a web server that is not the API, not a busy service
      if (notJson && spec.expectJson && (response.statusCode < 400 || response.statusCode === 501)) {
        const returned = response.statusCode < 400 ? '' : `HTTP ${response.statusCode}, `;
        throw unknownAnswer(this.baseUrl, `${spec.method} ${spec.path} returned ${returned}${notTheApisJson(notJson)}`);
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
      const message = notJson
        ? nonJsonErrorMessage(text, notJson, `${statusLine} from ${spec.method} ${spec.path}`)
        : (serverMessage(parsed) ?? statusLine);
      // an error is logged, printed and kept: no field of it holds the key, whatever the server echoed
      const error = advised(
        ApiError.from(response.statusCode, redactValue(parsed, [this.#apiKey]), {
          message: redact(message, [this.#apiKey]),
          method: spec.method,
          url: url.href,
          requestId: requestId === undefined ? undefined : redact(requestId, [this.#apiKey]),
          errorCode: serverErrorCode(parsed),
          headers: redactHeaders(responseHeaders, [this.#apiKey]),
        }),
        { path: spec.path, baseUrl: this.baseUrl, notJson: notJson !== undefined, keyed: this.#apiKey !== undefined && !spec.anonymous },
      );
      return { status: response.statusCode, response: result, error };
    }
  }

  private trace(line: string): void {
    if (this.options.debug) this.options.debug(redact(line, [this.#apiKey]));
  }

  private traceHeaders(direction: string, headers: Record<string, unknown>): void {
    if (!this.options.debug) return;
    for (const [name, value] of Object.entries(redactHeaders(headers, [this.#apiKey]))) {
      this.options.debug(`${direction} ${name}: ${value}`);
    }
  }

  private traceBody(direction: string, text: string): void {
    if (!this.options.debug || text === '') return;
    const shown = text.length > 4000 ? `${text.slice(0, 4000)}… (${text.length} bytes)` : text;
    this.options.debug(`${direction} ${redact(redactFields(shown), [this.#apiKey])}`);
  }
}

type Attempt = { status: number; response: HttpResponse; error?: undefined } | { status: number; response: HttpResponse; error: ApiError };

export { DEFAULT_TIMEOUTS, type Timeouts, unknownAnswer };

/**
 * A request stopped by its signal: a submission whose body may have gone out may have been accepted
 * (and charged), which the error says, with how to find out without a second charge.
 */
function stoppedAfterSending(spec: RequestSpec, error: unknown, earlier: boolean): InterruptedError {
  const delivered = earlier || (spec.method !== 'GET' && spec.method !== 'HEAD' && !cutShort.has(error as object));
  if (!delivered) return new InterruptedError('request interrupted', { cause: error });
  const suggestion = maybeAcceptedAdvice(spec.idempotencyKey !== undefined, true);
  return new InterruptedError(`request interrupted after it was sent: ${spec.method} ${spec.path}`, { cause: error, suggestion }, true);
}
