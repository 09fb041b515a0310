// Reading an answer that is not what the API sends: a body that is not JSON (a proxy's page, a
// wrong base URL), told in one line with what to check; and the advice for a base URL.
import { KctError } from '../api/errors.js';
import { OPERATIONS } from '../api/operations.js';

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

export function errorSuggestion(status: number, path: string, baseUrl: string, notJson: boolean): string | undefined {
  // A JSON 404 for a request that names a model under a /v1 base URL is most likely that model.
  const likelyMissingId = NAMES_IDS.has(path) && !notJson && baseUrl.endsWith('/v1');
  if (status === 404 && FIXED_PATHS.has(path) && !likelyMissingId) return `The base URL may be wrong. ${baseUrlAdvice(baseUrl)}`;
  // A 5xx page usually comes from a proxy in front of a service that is down, not from a wrong URL.
  return notJson && status < 500 ? baseUrlAdvice(baseUrl) : undefined;
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
