// kct api: an authenticated request to any route, for what the spec leaves open and whatever the
// service adds next (like gh api). Prints the answer without its envelope (--raw keeps it); an
// HTTP error prints its body too and exits with the usual code for its status.

import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { STATUS_CODES } from 'node:http';
import { basename } from 'node:path';
import { ApiError, UsageError } from '../../api/errors.js';
import { mimeFromName } from '../../api/mime.js';
import { fieldArgs, methodAndPath, parseFields, parseHeaders, routePath, withQuery } from '../../cli/core/api-request.js';
import type { Context } from '../../cli/core/context.js';
import type { OptionsOf } from '../../cli/core/define-command.js';
import { type IO, out, outRaw } from '../../cli/core/io.js';
import { readStdinText } from '../../cli/core/stdin.js';
import type { LocalFile } from '../../client/files.js';
import type { HttpResponse, RequestSpec } from '../../client/http.js';
import { buildForm } from '../../client/multipart.js';
import type { command } from './command.js';

type Options = OptionsOf<typeof command>;

export async function run(options: Options, context: Context): Promise<void> {
  const fields = parseFields(fieldArgs(options.repeatedInOrder));
  const hasFields = Object.keys(fields.values).length > 0 || fields.files.length > 0;
  const { method, path } = methodAndPath(options.method, options.path, hasFields || options.input !== undefined);
  const headers = parseHeaders(options.header);
  const idempotencyKey = headers['idempotency-key'];
  delete headers['idempotency-key'];
  if (options.input !== undefined && fields.files.length > 0) {
    throw new UsageError('--input and -F key=@file cannot be combined: a body is either JSON or multipart', {
      suggestion: 'Send files with -F and the other fields with -f/-F, or everything as JSON with --input.',
    });
  }
  const bodyless = method === 'GET' || method === 'HEAD';
  if (bodyless && (fields.files.length > 0 || options.input !== undefined)) {
    throw new UsageError(`a ${method} request has no body: --input and -F key=@file need POST, PUT or PATCH`);
  }
  const files = fields.files.map(({ field, path: file }) => ({ field, file: localFile(file) }));
  const input = options.input === undefined ? undefined : await readJsonInput(options.input, context.io);

  const client = await context.client();
  let route = routePath(path, client.baseUrl);
  const spec: RequestSpec = { method, path: route, headers, idempotencyKey, signal: context.signal };
  if (files.length > 0) spec.form = () => buildForm(fields.values, files);
  else if (input !== undefined) {
    spec.json = input;
    route = withQuery(route, fields.values);
  } else if (bodyless || method === 'DELETE') route = withQuery(route, fields.values);
  else if (hasFields) spec.json = fields.values;
  spec.path = route;

  let response: HttpResponse;
  try {
    response = await client.http.send(spec);
  } catch (error) {
    if (error instanceof ApiError) {
      // as gh api does: the error body on stdout for scripts, the error itself on stderr
      if (options.include) printHead(context.io, error.status, error.headers ?? {});
      if (method !== 'HEAD') printBody(context.io, error.body);
    }
    throw error;
  }
  if (options.include) printHead(context.io, response.status, response.headers);
  if (method !== 'HEAD') printBody(context.io, options.raw ? response.body : response.data);
}

function localFile(path: string): LocalFile {
  let size: number;
  try {
    const info = statSync(path);
    if (!info.isFile()) throw new UsageError(`-F @${path}: not a regular file`);
    size = info.size;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? `-F @${path}: file not found` : `-F @${path}: cannot read it (${code ?? String(error)})`, {
      suggestion: 'Check the path.',
    });
  }
  return { path, name: basename(path), type: mimeFromName(path) ?? 'application/octet-stream', size };
}

async function readJsonInput(source: string, io: IO): Promise<unknown> {
  let text: string;
  try {
    text = source === '-' ? await readStdinText(io) : await readFile(source, 'utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      code === 'ENOENT' ? `--input ${source}: file not found` : `--input ${source}: cannot read it (${code ?? String(error)})`,
    );
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--input ${source === '-' ? '(standard input)' : source} is not valid JSON: ${(error as Error).message}`, {
      suggestion: 'kct api sends --input as a JSON body; check it with `jq . <file>`.',
    });
  }
}

function printHead(io: IO, status: number, headers: Record<string, string | string[] | undefined>): void {
  out(io, `HTTP ${status} ${STATUS_CODES[status] ?? ''}`.trimEnd());
  for (const [name, value] of Object.entries(headers)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) out(io, `${name}: ${item}`);
  }
  out(io, '');
}

function printBody(io: IO, body: unknown): void {
  if (body === undefined) return;
  if (typeof body === 'string') outRaw(io, body.endsWith('\n') || body === '' ? body : `${body}\n`);
  else out(io, JSON.stringify(body, null, 2));
}
