// Liberal reading of server bodies (spec 1: fields may sit at the top level or inside `data`).

const ENVELOPE_KEYS = new Set([
  'data',
  'code',
  'msg',
  'message',
  'success',
  'ok',
  'error',
  'errors',
  'meta',
  'timestamp',
  'request_id',
  'requestId',
]);
const TASK_STATUS_LIKE = /^[A-Z][A-Z_]*$/;

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Returns the resource a body carries. With `{data: {...}}`, the inner object wins and top-level
 * resource fields it lacks are kept, except a top-level `status` that is an envelope flag
 * ("ok", 200) rather than a task status.
 */
export function unwrapEnvelope(body: unknown): unknown {
  if (!isPlainObject(body) || !('data' in body)) return body;
  const data = body.data;
  if (Array.isArray(data)) return data;
  if (!isPlainObject(data)) return body;
  const merged: Record<string, unknown> = { ...data };
  for (const [key, value] of Object.entries(body)) {
    if (ENVELOPE_KEYS.has(key) || key in merged) continue;
    if (key === 'status' && !(typeof value === 'string' && TASK_STATUS_LIKE.test(value))) continue;
    merged[key] = value;
  }
  return merged;
}

/** Finds the array in a list response: a bare array, or one under a conventional key. */
export function listFrom(value: unknown, keys: readonly string[] = ['items', 'results', 'list']): unknown[] {
  return findList(value, keys) ?? [];
}

/**
 * Like listFrom, but undefined when the value is no list in any known shape, so that a caller can
 * tell "an empty list" from "not a list answer at all". A conventional key holding null, or a
 * total or count of 0 with the array left out, is an empty list.
 */
export function findList(value: unknown, keys: readonly string[] = ['items', 'results', 'list']): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (!isPlainObject(value)) return undefined;
  for (const key of keys) {
    const candidate = value[key];
    if (Array.isArray(candidate)) return candidate;
  }
  const arrays = Object.values(value).filter(Array.isArray);
  if (arrays.length === 1) return arrays[0] as unknown[];
  const emptyPage = value.total === 0 || value.count === 0 || keys.some((key) => value[key] === null);
  return emptyPage ? [] : undefined;
}

/** The server's human message, whichever field it chose to put it in. */
export function serverMessage(body: unknown): string | undefined {
  if (typeof body === 'string') {
    const text = body.trim();
    return text === '' ? undefined : text.slice(0, 500);
  }
  if (!isPlainObject(body)) return undefined;
  const error = body.error;
  if (isPlainObject(error)) {
    const nested = firstString(error.message, error.msg, error.detail, error.description);
    if (nested) return nested;
  }
  const detail = body.detail;
  if (Array.isArray(detail) && isPlainObject(detail[0])) {
    const first = firstString(detail[0].msg, detail[0].message);
    if (first) return first;
  }
  const errors = body.errors;
  if (Array.isArray(errors) && errors.length > 0) {
    const first = errors[0];
    const text = isPlainObject(first) ? firstString(first.message, first.msg, first.detail) : firstString(first);
    if (text) return text;
  }
  const direct = firstString(error, body.message, body.msg, body.detail, body.error_description, body.title);
  if (direct) return direct;
  return isPlainObject(body.data) ? serverMessage(body.data) : undefined;
}

/** A machine-readable error code, when the server gives one. */
function firstString(...values: unknown[]): string | undefined {
  for (const value of values) if (typeof value === 'string' && value.trim() !== '') return value.trim();
  return undefined;
}
