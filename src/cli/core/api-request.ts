// What `kct api` sends, worked out from its arguments (pure, unit-tested): the method, the path,
// fields (-f strings, -F typed values and @files), extra headers, and where the fields go.
import { UsageError } from '../../api/errors.js';
import type { HttpMethod } from '../../client/http.js';

export const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'];

export type FieldValue = string | number | boolean | null | FieldValue[];

export interface ParsedFields {
  /** Plain values; `key[]=v` makes an array. */
  values: Record<string, FieldValue>;
  /** `-F key=@path`: files for a multipart body, in order. */
  files: { field: string; path: string }[];
}

/** Headers kct sets itself: -H may not replace them. */
const RESERVED_HEADERS = new Set(['x-api-key', 'x-token-key', 'authorization', 'content-type', 'content-length', 'host']);

/** `kct api /credits` is a GET; `kct api POST /x` names its method. */
export function methodAndPath(first: string, second: string | undefined, hasBody: boolean): { method: HttpMethod; path: string } {
  if (second === undefined) {
    // `kct api GET` alone is a method with its route left out, not a route named GET
    if (METHODS.includes(first.toUpperCase() as HttpMethod))
      throw new UsageError(`kct api ${first} needs a route after the method`, { suggestion: `For example: kct api ${first} /credits` });
    return { method: hasBody ? 'POST' : 'GET', path: first };
  }
  const method = first.toUpperCase() as HttpMethod;
  if (!METHODS.includes(method)) {
    throw new UsageError(`"${first}" is not an HTTP method kct api sends`, {
      suggestion: `Use one of ${METHODS.join(', ')}, e.g. kct api GET /credits.`,
    });
  }
  return { method, path: second };
}

/**
 * The path relative to the base URL, with a leading slash. A full URL is accepted only under the
 * base URL (the key goes nowhere else); `/v1/...` under a base URL that ends in /v1 drops the repeat.
 */
export function routePath(path: string, baseUrl: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) {
    if (path === base || path.startsWith(`${base}/`) || path.startsWith(`${base}?`))
      return routePath(path.slice(base.length) || '/', baseUrl);
    throw new UsageError(`${path} is not under the base URL ${base}: kct api sends the key only there`, {
      suggestion: 'Give the route relative to the base URL, e.g. /credits, or change the base URL with --base-url.',
    });
  }
  const withSlash = path.startsWith('/') ? path : `/${path}`;
  const basePath = new URL(base).pathname.replace(/\/+$/, '');
  if (basePath !== '' && (withSlash === basePath || withSlash.startsWith(`${basePath}/`) || withSlash.startsWith(`${basePath}?`))) {
    return withSlash.slice(basePath.length) || '/';
  }
  return withSlash;
}

/** One -f or -F as given: the flag and its key=value. */
export type FieldArg = readonly ['-f' | '-F', string];

/** -f and -F from the repeatable flags' values in the order given (OptionsOf's repeatedInOrder). */
export function fieldArgs(inOrder: readonly (readonly string[])[] = []): FieldArg[] {
  return inOrder.flatMap(([name, value]): FieldArg[] => (name === 'rawField' ? [['-f', value]] : name === 'field' ? [['-F', value]] : []));
}

/**
 * -f values are strings as typed; -F values are JSON literals (true, 12, null) or @file, else
 * strings. `key[]=v` appends in the order given, whichever flag gives it.
 */
export function parseFields(args: readonly FieldArg[]): ParsedFields {
  const values: Record<string, FieldValue> = {};
  const files: ParsedFields['files'] = [];
  const add = (flag: string, entry: string, isTyped: boolean) => {
    const at = entry.indexOf('=');
    if (at <= 0)
      throw new UsageError(`${flag} ${JSON.stringify(entry)}: expected key=value`, { suggestion: `For example ${flag} model_id=12.` });
    const name = entry.slice(0, at);
    const text = entry.slice(at + 1);
    const array = name.endsWith('[]');
    const key = array ? name.slice(0, -2) : name;
    if (key === '') throw new UsageError(`${flag} ${JSON.stringify(entry)}: the field has no name`);
    if (isTyped && text.startsWith('@')) {
      if (text.length === 1) throw new UsageError(`${flag} ${key}=@: name the file after @`);
      files.push({ field: key, path: text.slice(1) });
      return;
    }
    const value = isTyped ? typedValue(text) : text;
    if (!array) {
      values[key] = value;
      return;
    }
    const existing = values[key];
    values[key] = Array.isArray(existing) ? [...existing, value] : [value];
  };
  for (const [flag, entry] of args) add(flag, entry, flag === '-F');
  return { values, files };
}

function typedValue(text: string): FieldValue {
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text === 'null') return null;
  if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(text)) return Number(text);
  return text;
}

/** `-H "Name: value"` into lower-case names; the key and the content type are kct's to set. */
export function parseHeaders(entries: readonly string[] = []): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const entry of entries) {
    const at = entry.indexOf(':');
    const name = at > 0 ? entry.slice(0, at).trim().toLowerCase() : '';
    if (!/^[a-z0-9!#$%&'*+.^_`|~-]+$/.test(name))
      throw new UsageError(`-H ${JSON.stringify(entry)}: expected name:value`, { suggestion: 'For example -H Idempotency-Key:essay-1.' });
    if (RESERVED_HEADERS.has(name)) {
      throw new UsageError(`-H ${name}: kct sets this header itself`, {
        suggestion:
          name === 'x-api-key' || name === 'authorization'
            ? 'The key comes from KCT_API_KEY or `kct auth login`, never from an argument.'
            : 'Leave it out.',
      });
    }
    headers[name] = entry.slice(at + 1).trim();
  }
  return headers;
}

/** Fields as a query string (GET, or alongside --input): arrays repeat their key. */
export function withQuery(path: string, values: Record<string, FieldValue>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    for (const item of Array.isArray(value) ? value : [value])
      query.append(key, item === null ? '' : typeof item === 'object' ? JSON.stringify(item) : String(item));
  }
  const text = query.toString();
  if (text === '') return path;
  return `${path}${path.includes('?') ? '&' : '?'}${text}`;
}
