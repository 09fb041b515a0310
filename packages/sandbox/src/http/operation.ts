// One declared path per API operation, as stripe-mock's one request pipeline: the /v1 hook has
// authenticated the key; here the body is read and validated (JSON, or a multipart form whose
// files wait under files.incoming), the handler runs, and its answer goes out in the envelope.
// Received files the handler did not move into place are deleted, whatever happened.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { OperationName } from 'kct/api/operations.js';
import { API_PREFIX, OPERATIONS } from 'kct/api/operations.js';
import type { z } from 'zod';
import type { SandboxContext } from '../context.js';
import { fingerprint } from '../tasks/fingerprint.js';
import { idempotencyKeyOf } from '../tasks/idempotency-keys.js';
import type { Principal } from './auth.js';
import { principalOf } from './auth.js';
import { jsonObjectBody, readForm } from './body.js';
import { httpError, sendData, validationError } from './envelope.js';
import { bodyFingerprint } from './json-parser.js';
import type { FilePolicy, ReceivedFile } from './multipart.js';

interface FileRule<F> {
  policy: FilePolicy;
  /** The form's text-field schema when it differs from the JSON body's; `null`: the fields as sent, unchecked. */
  fields?: z.ZodType<F> | null;
  /** The 400 for a request that is not multipart: set when this operation takes only files. */
  formOnly?: string;
}

export interface OperationRules<T> {
  /** Takes an Idempotency-Key (spec 4.8 rule 6): its syntax checked before any body is read. */
  idempotent?: boolean;
  /** The JSON body's schema; absent with `files` absent too: the operation reads no body. */
  body?: z.ZodType<T>;
  /** Multipart forms accepted, with these file fields. */
  files?: FileRule<T>;
  /** Checks of the raw JSON object before its schema (a list's length, named as such). */
  beforeBody?: (raw: Record<string, unknown>) => void;
  /** Checks of the validated fields and received files, before anything is kept ("an answer is present"). */
  check?: (fields: T, files: ReceivedFile[]) => void;
  /** The 400 for a multipart body sent to an operation that takes only JSON. */
  jsonOnly?: string;
  /** Status of a success. Default 200. */
  status?: 200 | 201 | 202;
  /** The body limit when it is not the default one (the batch's). */
  bodyLimit?: (ctx: SandboxContext) => number;
}

export interface OperationInput<T> {
  fields: T;
  /** Files of a multipart request, stored under `dir`; empty for JSON. */
  files: ReceivedFile[];
  /** Where the received files wait: move it (FileArea.adopt) to keep them, else it is deleted after the handler. */
  dir?: string;
  params: Record<string, string>;
  /** The Idempotency-Key of an idempotent operation, when sent. */
  idempotencyKey?: string;
  /** The request's fingerprint (tasks/fingerprint.ts): of a big JSON body, computed with its parse on a request thread. */
  fingerprint(): string;
  /** For what only the connection knows: headers, the socket. */
  request: FastifyRequest;
  /** Aborted when the caller hangs up before its answer was sent: stops work done for it. */
  hangUp(): AbortSignal;
}

export interface Answer {
  data: unknown;
  /** Overrides the operation's success status. */
  status?: number;
  headers?: Record<string, string>;
}

export type Handler<T> = (ctx: SandboxContext, principal: Principal, input: OperationInput<T>) => Answer | Promise<Answer>;

export interface Operation {
  name: OperationName;
  /** Registered where the multipart plugin is (it reads forms). */
  readsForms: boolean;
  register(app: FastifyInstance, ctx: SandboxContext): void;
}

export function defineOperation<T = undefined>(name: OperationName, rules: OperationRules<T>, handler: Handler<T>): Operation {
  const op = OPERATIONS[name];
  const readsBody = rules.body !== undefined || rules.files !== undefined;
  return {
    name,
    readsForms: rules.files !== undefined,
    register(app, ctx) {
      app.route({
        method: op.method,
        url: API_PREFIX + op.path,
        ...(rules.bodyLimit ? { bodyLimit: rules.bodyLimit(ctx) } : {}),
        // Without a body the handler stays synchronous: no promise and no extra tick (clients poll the status route).
        handler: readsBody
          ? async (request, reply) => answerWithBody(ctx, rules, handler, request, reply)
          : (request, reply) => {
              const input: OperationInput<T> = {
                fields: undefined as T,
                files: [],
                params: request.params as Record<string, string>,
                request,
                hangUp: () => hangUp(reply),
                fingerprint: () => fingerprint(undefined, []),
              };
              const answer = handler(ctx, principalOf(request), input);
              if (answer instanceof Promise) return answer.then((a) => send(reply, a, rules.status));
              send(reply, answer, rules.status);
            },
      });
    },
  };
}

async function answerWithBody<T>(
  ctx: SandboxContext,
  rules: OperationRules<T>,
  handler: Handler<T>,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const principal = principalOf(request);
  const idempotencyKey = rules.idempotent ? idempotencyKeyOf(request) : undefined;
  const body = await readBody(ctx, rules, request);
  let answer: Answer;
  try {
    const input: OperationInput<T> = {
      ...body,
      params: request.params as Record<string, string>,
      request,
      hangUp: () => hangUp(reply),
      ...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
      // with the fields as validated: the same as the raw body's, since the schemas transform nothing
      fingerprint: () => bodyFingerprint(request) ?? fingerprint(body.fields, body.files),
    };
    answer = await handler(ctx, principal, input);
  } finally {
    // Before the answer goes out: a client that reads the data dir next finds nothing left over.
    if (body.dir) await ctx.files.remove(body.dir);
  }
  return send(reply, answer, rules.status);
}

function hangUp(reply: FastifyReply): AbortSignal {
  const gone = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) gone.abort();
  });
  return gone.signal;
}

function send(reply: FastifyReply, answer: Answer, status = 200): FastifyReply {
  for (const [name, value] of Object.entries(answer.headers ?? {})) reply.header(name, value);
  return sendData(reply, answer.data, answer.status ?? status);
}

const MULTIPART = /^\s*multipart\/form-data/i;

async function readBody<T>(
  ctx: SandboxContext,
  rules: OperationRules<T>,
  request: FastifyRequest,
): Promise<{ fields: T; files: ReceivedFile[]; dir?: string }> {
  const { files } = rules;
  // Outside the forms' scope the multipart plugin is not there to ask.
  if (files ? request.isMultipart() : MULTIPART.test(request.headers['content-type'] ?? '')) {
    if (!files)
      throw httpError(
        400,
        rules.jsonOnly ?? 'The request body is missing: send a JSON object with Content-Type: application/json.',
        rules.jsonOnly ? 'unsupported_content_type' : 'invalid_request',
      );
    const schema = files.fields === undefined ? rules.body : files.fields;
    return readForm(request, ctx, schema ?? null, files.policy, rules.check) as Promise<{ fields: T; files: ReceivedFile[]; dir?: string }>;
  }
  if (files?.formOnly) throw httpError(400, files.formOnly, 'unsupported_content_type');
  const raw = jsonObjectBody(request, files !== undefined);
  rules.beforeBody?.(raw);
  const parsed = rules.body!.safeParse(raw);
  if (!parsed.success) throw validationError(parsed.error);
  rules.check?.(parsed.data, []);
  return { fields: parsed.data, files: [] };
}
