// Reading an answer that is not what the API sends: a body that is not JSON (a proxy's page, a
// wrong base URL), told in one line with what to check; and what to do after an HTTP error, the
// one place the library advises on one (src/cli/core/hints.ts words its settings for kct).
import {
  type ApiError,
  AuthenticationError,
  formatDuration,
  InsufficientCreditsError,
  KctError,
  PermissionError,
  RateLimitError,
  refusalOf,
  ServerError,
} from '../api/errors.js';
import { OPERATIONS } from '../api/operations.js';
import { parseRetryAfter } from './retry.js';

/** How much of a body that is not JSON may appear in a message: a hint, never a page. */
const EXCERPT_CHARS = 120;
/** Routes with no id in their path: a 404 there means the route itself is missing. */
const FIXED_PATHS: ReadonlySet<string> = new Set(
  Object.values(OPERATIONS)
    .map((op) => op.path)
    .filter((path) => !path.includes(':')),
);
/** Fixed routes whose body names a model or assignment: the API answers 404 when that does not exist (spec 7). */
const NAMES_IDS: ReadonlySet<string> = new Set([
  OPERATIONS.onePass.path,
  OPERATIONS.batch.path,
  OPERATIONS.createAssignment.path,
  OPERATIONS.createEvaluation.path,
]);

/** The body, parsed when it is JSON; `json` is false for a non-empty body that is not. */
export function parseBody(text: string, contentType: string | string[] | undefined): { value: unknown; json: boolean } {
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

export function describeNonJson(text: string, contentType: string | string[] | undefined): string {
  const type = (headerValue(contentType) ?? '').toLowerCase();
  return type.includes('html') || /^\s*</.test(text) ? 'an HTML page' : type.includes('json') ? 'invalid JSON' : 'plain text';
}

/** "an HTML page, not the API's JSON" */
export function notTheApisJson(kind: string): string {
  return kind === 'invalid JSON' ? kind : `${kind}, not the API's JSON`;
}

/** The first line of a body, short and without control characters. */
function excerpt(text: string): string {
  const line = (text.split(/\r?\n/).find((candidate) => candidate.trim() !== '') ?? '')
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > EXCERPT_CHARS ? `${line.slice(0, EXCERPT_CHARS)}…` : line;
}

/**
 * A short plain-text line (a proxy's "Bad Gateway") is the message as it is; a page or a long text
 * is never printed whole, only named, with a one-line excerpt of text.
 */
export function nonJsonErrorMessage(text: string, kind: string, what: string): string {
  const trimmed = text.trim();
  if (kind === 'plain text' && !/[\r\n]/.test(trimmed) && trimmed.length <= EXCERPT_CHARS) return excerpt(trimmed);
  const shown = kind === 'an HTML page' ? '' : `: "${excerpt(trimmed)}"`;
  return `${what} (the server answered with ${notTheApisJson(kind)}${shown})`;
}

/** Where an HTTP error's request went: `keyed`, it carried the API key (the product's key routes do not, and advise on their own). */
export interface ErrorRequest {
  path: string;
  baseUrl: string;
  notJson: boolean;
  keyed: boolean;
}

/** The error with the library's advice as its `suggestion`: a base URL that leads elsewhere first, then what its status means. */
export function advised(error: ApiError, request: ErrorRequest): ApiError {
  const suggestion = baseUrlSuggestion(error.status, request) ?? (request.keyed ? statusAdvice(error) : undefined);
  return suggestion === undefined ? error : error.retold(error.message, { suggestion });
}

function baseUrlSuggestion(status: number, { path, baseUrl, notJson }: ErrorRequest): string | undefined {
  // A JSON 404 for a request that names a model under a /v1 base URL is most likely that model.
  const likelyMissingId = NAMES_IDS.has(path) && !notJson && baseUrl.endsWith('/v1');
  if (status === 404 && FIXED_PATHS.has(path) && !likelyMissingId) return `The base URL may be wrong. ${baseUrlAdvice(baseUrl)}`;
  // A 5xx page usually comes from a proxy in front of a service that is down, not from a wrong URL.
  return notJson && status < 500 ? baseUrlAdvice(baseUrl) : undefined;
}

/** What an API error's status (and refusal) asks of the caller, in the library's words: options and methods, never a kct command. */
function statusAdvice(error: ApiError): string | undefined {
  const refusal = refusalOf(error);
  if (error instanceof AuthenticationError)
    return 'Check the API key (the apiKey option): the service refuses a key that is missing, mistyped or revoked.';
  if (refusal === 'model_forbidden')
    return "Choose one of the models the key can use: a key sees only its owner's models, or its organization's.";
  if (error instanceof PermissionError)
    return 'The key is accepted but may not do this: check its scope and its account (an organization key holds only while its owner is an organization admin).';
  if (error instanceof InsufficientCreditsError)
    return "Add credits to the key owner's account (the credits() method shows the balance); a one-pass or batch task is charged only when it succeeds.";
  if (refusal === 'task_not_found') return 'Check the task id (it starts with tsk_): a key sees only the tasks of its own account.';
  if (refusal === 'model_not_found') return 'Check the model id: it must be one of the models the key can use.';
  if (refusal === 'assignment_not_found')
    return 'Check the assignment id: an assignment is made from a ready model (createAssignment), and its id is not the model id.';
  const wait = retryAfterWords(error);
  if (error instanceof RateLimitError)
    return `The service is limiting this key's requests: wait ${wait ?? 'a minute'}, then send the request again (a refused request is not taken, so it is not charged).`;
  if (error instanceof ServerError)
    return `The service failed or is busy: try again in ${wait ?? 'a minute'} (a request sent again with its idempotency key is never charged twice).`;
  return undefined;
}

/** "30 s (its Retry-After)", when the answer said how long to wait. */
function retryAfterWords(error: ApiError): string | undefined {
  const ms = parseRetryAfter(error.headers?.['retry-after']);
  return ms === undefined ? undefined : `${formatDuration(Math.max(1, Math.ceil(ms / 1000)) * 1000)} (its Retry-After)`;
}

/** What to check when the base URL seems to lead somewhere other than the API. */
function baseUrlAdvice(baseUrl: string): string {
  const where = '(the baseUrl option)';
  const url = new URL(baseUrl);
  if (url.pathname === '/' || url.pathname === '') return `API routes live under /v1: try ${url.origin}/v1 ${where}.`;
  if (!url.pathname.endsWith('/v1'))
    return `The base URL ${baseUrl} does not end in /v1; it should be the root of the API, e.g. ${url.origin}/v1 ${where}.`;
  return `Check that ${baseUrl} is the root of the Public Evaluation API, the URL that ends in /v1 ${where}.`;
}

/** An answer that does not come from the API: a 2xx that is not JSON, or JSON of the wrong shape. */
export function unknownAnswer(baseUrl: string, what: string): KctError {
  return new KctError('unknown_answer', `the server at ${baseUrl} did not answer like the Public Evaluation API: ${what}`, {
    suggestion: baseUrlAdvice(baseUrl),
  });
}

export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
