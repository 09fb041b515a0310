// The one response envelope of the sandbox (docs/sandbox.md): success is
// `{data, request_id}`, every failure `{error: {code, message, status, details?}, request_id}`,
// whatever raised it (a route, zod, fastify's body parser, the multipart plugin).
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fieldPath } from 'kct/api/field-path.js';
import { MAX_FILE_BYTES, MAX_FILES_PER_REQUEST } from 'kct/api/limits.js';
import { API_PREFIX, OPERATIONS } from 'kct/api/operations.js';
import { PRODUCT_OPERATIONS } from 'kct/api/product.js';
import { ERROR_CODES } from 'kct/api/schemas.js';
import type { core } from 'zod';
import { ZodError } from 'zod';
import { connectionAfterRefusal } from './connections.js';

export interface IssueDetail {
  path: string;
  message: string;
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: IssueDetail[],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

function codeFor(status: number): string {
  return (ERROR_CODES as Record<number, string>)[status] ?? (status >= 500 ? 'internal_error' : 'invalid_request');
}

export function httpError(status: number, message: string, code = codeFor(status), details?: IssueDetail[]): HttpError {
  return new HttpError(status, code, message, details);
}

export function sendData(reply: FastifyReply, data: unknown, status = 200): FastifyReply {
  return reply.code(status).send({ data, request_id: reply.request.id });
}

/** A character of a key or a session token, or one percent-encoded as a URL holds it ("%5F" for "_"). */
const KEY_CHAR = '(?:[A-Za-z0-9_-]|%5[Ff]|%2[Dd])';
/** Anything shaped like an API key or a session token, as sent or percent-encoded in a URL ("kct%5Fsbx%5F…"). */
const KEY_SHAPE = new RegExp(`kct(?:_|%5[Ff])${KEY_CHAR}{6,}`, 'g');
const SESSION_SHAPE = new RegExp(`sess(?:_|%5[Ff])sbx(?:_|%5[Ff])${KEY_CHAR}{6,}`, 'g');

/** The text with every key and session token taken out: what an error echoes of a request, and every log line. */
export const withoutKeys = (text: string) => text.replace(KEY_SHAPE, 'kct_[redacted]').replace(SESSION_SHAPE, 'sess_sbx_[redacted]');

export function sendError(reply: FastifyReply, err: HttpError): FastifyReply {
  for (const [name, value] of Object.entries(err.headers)) reply.header(name, value);
  const error: Record<string, unknown> = { code: err.code, message: withoutKeys(err.message), status: err.status };
  if (err.details?.length) error.details = err.details.map((d) => ({ path: withoutKeys(d.path), message: withoutKeys(d.message) }));
  return reply.code(err.status).send({ error, request_id: reply.request.id });
}

// ---------- zod ----------

function issueDetails(error: ZodError): IssueDetail[] {
  return error.issues.map((issue) => ({ path: issuePath(issue), message: issueMessage(issue) }));
}

function issuePath(issue: core.$ZodIssue): string {
  return fieldPath(issue.path) || '(body)';
}

function issueMessage(issue: core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') {
    return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
  }
  return issue.message;
}

/** A 400 naming the first problem in words, with every problem in `details`. */
export function validationError(error: ZodError, what = 'request body'): HttpError {
  const details = issueDetails(error);
  const first = details[0];
  const more = details.length > 1 ? ` (and ${details.length - 1} more problem${details.length > 2 ? 's' : ''}, see details)` : '';
  const where = first.path === '(body)' ? '' : `${first.path}: `;
  return httpError(
    400,
    `The ${what} is invalid: ${where}${first.message}${more}. Fix it and send the request again.`,
    'invalid_request',
    details,
  );
}

// ---------- errors raised outside the routes ----------

const MB = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;

/** JSON and multipart-text bodies of every route but the batch (whose limit is the sandbox's bodyLimit). */
export const REQUEST_BODY_LIMIT = 4 * 1024 * 1024;

/** Maps what fastify and @fastify/multipart throw to our envelope, with a human message. */
export function toHttpError(err: FastifyError | Error, bodyLimit: number): HttpError {
  if (err instanceof HttpError) return err;
  if (err instanceof ZodError) return validationError(err);
  const code = (err as FastifyError).code;
  switch (code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return httpError(
        400,
        'The body is not valid JSON, or it holds a "__proto__" or "constructor" key, which are refused. Send a JSON object with Content-Type: application/json.',
        'invalid_json',
      );
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return httpError(
        413,
        `The request body is larger than the ${MB(bodyLimit)} limit of this endpoint. ${bodyLimit > REQUEST_BODY_LIMIT ? 'Send fewer items per request.' : 'Send long answers as files (multipart).'}`,
        'body_too_large',
      );
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return httpError(
        400,
        'Unsupported Content-Type: send application/json, or multipart/form-data for requests that carry files.',
        'unsupported_content_type',
      );
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return httpError(400, 'The Content-Length header does not match the body that was sent.', 'invalid_request');
    case 'FST_REQ_FILE_TOO_LARGE':
      return fileTooLarge();
    case 'FST_FILES_LIMIT':
      return tooManyFiles();
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return httpError(400, 'The multipart request has too many fields or parts.', 'invalid_request');
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return httpError(400, 'A multipart field declared as application/json does not hold valid JSON.', 'invalid_json_field');
    case 'FST_PROTO_VIOLATION':
      return httpError(400, 'A multipart field name is not allowed (it names a JavaScript prototype property).', 'invalid_request');
    case 'FST_MP_PREMATURE_CLOSE':
      return httpError(400, 'The request ended before the multipart body was complete.', 'incomplete_body');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return httpError(400, 'This request must be sent as multipart/form-data.', 'unsupported_content_type');
  }
  if (err.message === 'Unexpected end of form' || err.message === 'Unexpected end of multipart data' || /multipart/i.test(err.message)) {
    return httpError(400, `The multipart body could not be read: ${err.message}.`, 'invalid_multipart');
  }
  const status = (err as FastifyError).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) return httpError(status, err.message);
  return httpError(500, 'The sandbox hit an internal error; the request was not completed. See the sandbox log.', 'internal_error');
}

export function fileTooLarge(name?: string): HttpError {
  const which = name ? `"${name}" is` : 'A file is';
  return httpError(
    413,
    `${which} larger than the ${MB(MAX_FILE_BYTES)} limit per file. Send a smaller or compressed file.`,
    'file_too_large',
  );
}

function tooManyFiles(): HttpError {
  return httpError(400, `Too many files: at most ${MAX_FILES_PER_REQUEST} files may be sent in one request.`, 'too_many_files');
}

export function installErrorHandling(app: FastifyInstance, log?: (line: string) => void): void {
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const httpErr = toHttpError(err, request.routeOptions.bodyLimit ?? REQUEST_BODY_LIMIT);
    // an internal error is logged with its stack; a refusal the sandbox chose (503 too_many_connections,
    // under a flood of them) is a line of the request log like any answer, not a stack per connection
    if (httpErr.status >= 500 && !(err instanceof HttpError))
      log?.(`error ${request.id} ${request.method} ${request.url}: ${err.stack ?? err.message}`);
    // A body not read: drained when small (the connection stays usable), else closed gently.
    const connection = connectionAfterRefusal(request.raw);
    if (connection) reply.header('connection', connection);
    return sendError(reply, httpErr);
  });
  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    return sendError(reply, notFoundRoute(request.method, request.url));
  });
}

function notFoundRoute(method: string, url: string): HttpError {
  const path = url.split('?')[0];
  const allowed = methodsOf(path);
  if (allowed.length > 0) {
    const err = httpError(405, `${method} is not allowed on ${path}; use ${allowed.join(' or ')}.`, 'method_not_allowed');
    err.headers.allow = allowed.join(', ');
    return err;
  }
  const hint =
    path.startsWith('/v1/') || path === '/v1'
      ? 'See the route table of the API specification.'
      : path.startsWith('/public_api/')
        ? `The key routes are ${Object.values(PRODUCT_OPERATIONS)
            .map((op) => `${op.method} ${op.path}`)
            .join(', ')}.`
        : 'API routes live under /v1.';
  return httpError(404, `There is no route ${method} ${path}. ${hint}`, 'route_not_found');
}

/** The methods the API defines for a concrete path (so a wrong method gets 405, not 404). */
function methodsOf(path: string): string[] {
  const methods = new Set<string>();
  for (const op of Object.values(OPERATIONS)) {
    const pattern = new RegExp(`^${API_PREFIX}${op.path.replace(/:\w+/g, '[^/]+')}/?$`);
    if (pattern.test(path)) methods.add(op.method);
  }
  for (const op of Object.values(PRODUCT_OPERATIONS)) {
    if (path === op.path || path === `${op.path}/`) methods.add(op.method);
  }
  return [...methods];
}
