// Size limits of the text fields, lists and numbers of every request body (docs/sandbox.md,
// "Limits"), checked before validation and before anything is stored: a 10 MB rubric_text is a
// 400 naming the limit, not minutes of parsing. One table by field name, whatever the route.
import { MAX_FILES_PER_REQUEST } from 'kct/api/limits.js';
import { MAX_MODEL_CRITERIA, MAX_MODEL_QUESTIONS } from 'kct/api/schemas.js';
import { httpError } from './envelope.js';

/** Characters (JavaScript string length) a text field may hold, by field name. */
export const TEXT_LIMITS: Readonly<Record<string, number>> = {
  paper_content: 500_000,
  rubric_text: 100_000,
  question_text: 100_000,
  text: 100_000,
  assignment_desc: 20_000,
  comment: 20_000,
  description: 10_000,
  descriptor: 10_000,
  instruction: 2_000,
  url: 2_000,
  callback_url: 2_000,
  assignment_name: 1_000,
  specification: 1_000,
  item: 1_000,
  target_item: 1_000,
  name: 1_000,
  student_id: 200,
  mime_type: 200,
};
/** Any text field not in the table. */
export const DEFAULT_TEXT_LIMIT = 10_000;

/** Items a list may hold, by field name; `evaluations` is the batch route's own (1 to 100). */
const LIST_LIMITS: Readonly<Record<string, number>> = {
  rubrics: MAX_MODEL_CRITERIA,
  current_feedbacks: MAX_MODEL_CRITERIA,
  sections: MAX_MODEL_CRITERIA,
  levels: 20,
  questions: MAX_MODEL_QUESTIONS,
  assets: MAX_FILES_PER_REQUEST,
};
const DEFAULT_LIST_LIMIT = 1_000;

/** Fields holding marks: a number from 0 to MAX_MARKS. */
const MARK_FIELDS: ReadonlySet<string> = new Set(['score', 'max_score', 'total_score', 'marks']);
const MAX_MARKS = 10_000;

/** Objects and lists nested deeper than this are refused (a request never needs more than 5). */
const MAX_DEPTH = 16;

const fmt = (n: number) => n.toLocaleString('en-US');

/** The largest text limit: a multipart field longer than three bytes per character of it is over any limit. */
export const LONGEST_TEXT = Math.max(...Object.values(TEXT_LIMITS));

/**
 * Throws a 400 naming the first field over its limit (`field_too_long`, `too_many_items`,
 * `number_out_of_range`, `too_deep`). Walks the parsed body without recursion; `skip` names
 * lists checked by their route.
 */
export function checkFieldLimits(body: unknown, skip: ReadonlySet<string> = SKIPPED): void {
  const stack: { value: unknown; path: string; name: string; depth: number }[] = [{ value: body, path: '', name: '', depth: 0 }];
  while (stack.length > 0) {
    const { value, path, name, depth } = stack.pop()!;
    if (typeof value === 'string') {
      const limit = TEXT_LIMITS[name] ?? DEFAULT_TEXT_LIMIT;
      if (value.length > limit) throw tooLong(path, value.length, limit);
    } else if (typeof value === 'number') {
      checkNumber(path, name, value);
    } else if (value !== null && typeof value === 'object') {
      if (depth >= MAX_DEPTH) throw tooDeepError(path);
      if (Array.isArray(value)) {
        const limit = LIST_LIMITS[name] ?? DEFAULT_LIST_LIMIT;
        if (!skip.has(name) && value.length > limit) {
          throw httpError(400, `${path} holds ${fmt(value.length)} items; at most ${fmt(limit)} are accepted.`, 'too_many_items', [
            { path, message: `at most ${limit} items` },
          ]);
        }
        for (const [i, item] of value.entries()) stack.push({ value: item, path: `${path}[${i}]`, name, depth: depth + 1 });
      } else {
        for (const [key, item] of Object.entries(value)) {
          if (typeof key === 'string' && key.length > DEFAULT_TEXT_LIMIT)
            throw tooLong(`${path}(a field name)`, key.length, DEFAULT_TEXT_LIMIT);
          stack.push({ value: item, path: path ? `${path}.${key}` : key, name: key, depth: depth + 1 });
        }
      }
    }
  }
}

/**
 * Where a body nests past the depth any field allows, or undefined: such a body is refused
 * (`too_deep`) and never walked by recursion, nor copied between threads (the copy recurses too).
 */
export function tooDeep(body: unknown): string | undefined {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: body, path: '', depth: 0 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_DEPTH) return path;
    const entries: [string, unknown][] = Array.isArray(value) ? value.map((item, i) => [`[${i}]`, item]) : Object.entries(value);
    for (const [key, item] of entries)
      stack.push({ value: item, path: Array.isArray(value) ? `${path}${key}` : path ? `${path}.${key}` : key, depth: depth + 1 });
  }
  return undefined;
}

/** The refusal of a body nested deeper than MAX_DEPTH, at `path`. */
export function tooDeepError(path: string): Error {
  return httpError(
    400,
    `The body nests objects and lists deeper than ${MAX_DEPTH} levels (at ${path || 'the top'}); no field of the API needs that.`,
    'too_deep',
    [{ path: path || '(body)', message: `nested deeper than ${MAX_DEPTH} levels` }],
  );
}

const SKIPPED: ReadonlySet<string> = new Set(['evaluations']);

function checkNumber(path: string, name: string, value: number): void {
  if (MARK_FIELDS.has(name)) {
    if (value < 0 || value > MAX_MARKS) {
      throw httpError(400, `${path} is ${value}; marks must be from 0 to ${fmt(MAX_MARKS)}.`, 'number_out_of_range', [
        { path, message: `must be from 0 to ${MAX_MARKS}` },
      ]);
    }
    return;
  }
  if (!Number.isSafeInteger(value) && Math.abs(value) > Number.MAX_SAFE_INTEGER) {
    throw httpError(
      400,
      `${path} is ${value}, larger than any value the API takes (at most ${fmt(Number.MAX_SAFE_INTEGER)}).`,
      'number_out_of_range',
      [{ path, message: 'out of range' }],
    );
  }
}

/** A text field over its limit; for a multipart field cut short by the parser, `length` is undefined. */
export function tooLong(path: string, length: number | undefined, limit: number) {
  const hint = path === 'paper_content' ? ' Send a long answer as a file (up to 20 MB).' : '';
  const message =
    length === undefined
      ? `${path} is longer than its limit of ${fmt(limit)} characters.${hint}`
      : `${path} is ${fmt(length)} characters long; the limit is ${fmt(limit)} characters.${hint}`;
  return httpError(400, message, 'field_too_long', [{ path, message: `at most ${limit} characters` }]);
}
