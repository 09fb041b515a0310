// Request bodies: JSON bodies (present and an object, or a 400 that says how to send one) and
// multipart forms (text fields validated by the same zod schema as JSON, files stored).
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { SandboxContext } from '../context.js';
import { httpError, validationError } from './envelope.js';
import { checkFieldLimits } from './field-limits.js';
import { coerceMultipartFields } from './form-fields.js';
import type { FilePolicy, ReceivedFile } from './multipart.js';
import { receiveMultipart } from './multipart.js';

/** The JSON body as an object; `orForm`: the 400 also names the multipart form the route takes. */
export function jsonObjectBody(request: FastifyRequest, orForm = false): Record<string, unknown> {
  const body = request.body;
  const form = orForm ? ', or multipart/form-data with files' : '';
  if (body === undefined || body === null) {
    throw httpError(400, `The request body is missing: send a JSON object with Content-Type: application/json${form}.`, 'invalid_request');
  }
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw httpError(400, `The request body must be a JSON object (Content-Type: application/json)${form}.`, 'invalid_request');
  }
  return body as Record<string, unknown>;
}

/** A JSON object body validated by `schema`, or the 400 that names every problem. */
export function validJsonBody<S extends z.ZodType>(request: FastifyRequest, schema: S, orForm = false): z.output<S> {
  const parsed = schema.safeParse(jsonObjectBody(request, orForm));
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}

export interface FormSubmission<T> {
  fields: T;
  files: ReceivedFile[];
  /** Where the received files wait until a task adopts them; absent when no file was sent. */
  dir?: string;
}

/**
 * A multipart form: its files stored under `files.incoming` (as `policy` allows), its text fields
 * coerced and validated by `schema` (`null`: left as sent, for the caller to judge), then `check`
 * (e.g. "an answer is present") run on both. On any refusal the received files are deleted; with
 * no files their directory is deleted at once.
 */
export async function readForm<S extends z.ZodType>(
  request: FastifyRequest,
  ctx: Pick<SandboxContext, 'files'>,
  schema: S | null,
  policy: FilePolicy,
  check?: (fields: z.output<S>, files: ReceivedFile[]) => void,
): Promise<FormSubmission<z.output<S>>> {
  const received = await receiveMultipart(request, ctx.files.incoming, policy);
  try {
    const fields = schema === null ? (received.fields as z.output<S>) : validFields(schema, received.fields);
    check?.(fields, received.files);
    if (received.files.length === 0) {
      await ctx.files.remove(received.dir);
      return { fields, files: [] };
    }
    return { fields, files: received.files, dir: received.dir };
  } catch (err) {
    await ctx.files.remove(received.dir);
    throw err;
  }
}

function validFields<S extends z.ZodType>(schema: S, raw: Record<string, unknown>): z.output<S> {
  const coerced = coerceMultipartFields(raw);
  checkFieldLimits(coerced);
  const parsed = schema.safeParse(coerced);
  if (!parsed.success) throw validationError(parsed.error, 'multipart form');
  return parsed.data;
}
