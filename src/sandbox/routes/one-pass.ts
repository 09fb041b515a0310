// POST /evaluations/one-pass (spec 4.8): JSON or multipart, idempotent, 202 with rule 5's fields.
import { join } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ANSWER_MIME_TYPES } from '../../api/limits.js';
import { ANSWER_FILE_FIELDS, API_PREFIX, OPERATIONS, QUESTION_FILE_FIELDS, RUBRIC_FILE_FIELDS } from '../../api/operations.js';
import { OnePassFields, OnePassJsonRequest } from '../../api/schemas.js';
import { accept } from '../tasks/accept.js';
import { usableModel } from '../accounts/model-access.js';
import type { Principal } from '../http/auth.js';
import { principalOf } from '../http/auth.js';
import type { SandboxContext } from '../context.js';
import { creditCost } from '../engines/jobs.js';
import { httpError, sendData, validationError } from '../http/envelope.js';
import { fingerprint, idempotencyKeyOf } from '../tasks/idempotency-keys.js';
import { newTaskId } from '../store/ids.js';
import type { FilePolicy, ReceivedFile } from '../http/multipart.js';
import type { FileRole } from '../store/store.js';
import { taskRecord } from '../http/responses.js';
import type { FormSubmission } from '../http/body.js';
import { readForm } from '../http/body.js';

const ENDPOINT = `POST ${API_PREFIX}${OPERATIONS.onePass.path}`;

export const EVALUATION_FILE_FIELDS: Readonly<Record<string, FileRole>> = Object.fromEntries([
  ...ANSWER_FILE_FIELDS.map((f) => [f, 'answer'] as const),
  ...RUBRIC_FILE_FIELDS.map((f) => [f, 'rubric'] as const),
  ...QUESTION_FILE_FIELDS.map((f) => [f, 'question'] as const),
]);

const FILE_POLICY: FilePolicy = { fileFields: EVALUATION_FILE_FIELDS, acceptedMimes: ANSWER_MIME_TYPES };

export type OnePassSubmission = FormSubmission<OnePassFields>;

export { newTaskId };

export function onePassRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.route({
    ...OPERATIONS.onePass,
    url: API_PREFIX + OPERATIONS.onePass.path,
    handler: async (request, reply) => {
      const principal = principalOf(request);
      const idempotencyKey = idempotencyKeyOf(request);
      const submission = await readSubmission(request, ctx);
      let filesDir = submission.dir;
      try {
        const print = fingerprint(submission.fields, submission.files);
        ctx.faults.check(submission.fields.student_id, `${principal.userId}\u0000${ENDPOINT}\u0000${idempotencyKey ?? `fp:${print}`}`);
        const taskId = newTaskId();
        // Files reach their final place before the task row that points at them is committed.
        if (filesDir) filesDir = await ctx.files.adopt(filesDir, taskId);
        const outcome = accept(ctx.store, {
          endpoint: ENDPOINT,
          idempotencyKey,
          fingerprint: print,
          task: newOnePassTask(ctx, principal, taskId, submission, filesDir),
          check: () => void usableModel(ctx.store, principal, submission.fields.model_id, ENDPOINT),
          respond: taskRecord,
        });
        if (outcome.kind === 'replayed') {
          if (filesDir) await ctx.files.remove(filesDir);
          reply.header('idempotent-replayed', 'true');
        } else {
          ctx.pool.kick();
        }
        return sendData(reply, outcome.body, 202);
      } catch (err) {
        if (filesDir) await ctx.files.remove(filesDir);
        throw err;
      }
    },
  });
}

function newOnePassTask(ctx: SandboxContext, principal: Principal, taskId: string, submission: OnePassSubmission, filesDir: string | undefined) {
  const { fields, files } = submission;
  const answerBytes = files.filter((f) => f.role === 'answer').map((f) => f.size);
  return {
    task_id: taskId,
    kind: 'one_pass' as const,
    owner_user_id: principal.userId,
    scope: principal.scope,
    model_id: fields.model_id,
    student_id: fields.student_id ?? null,
    credit_cost: creditCost({ ...(fields.paper_content !== undefined ? { textLength: fields.paper_content.length } : {}), fileBytes: answerBytes }),
    input: fields,
    files: storedFiles(ctx, files, filesDir),
  };
}

/** The task_files rows of received files, once they sit in the task's directory. */
export function storedFiles(ctx: SandboxContext, files: ReceivedFile[], filesDir: string | undefined) {
  return files.map((f, ord) => ({
    role: f.role, field: f.field, name: f.name, mime: f.mime, size: f.size, sha256: f.sha256,
    path: ctx.files.relative(join(filesDir ?? '', String(ord))),
  }));
}

/** The validated fields and stored files of a JSON or multipart one-pass request. */
export async function readSubmission(request: FastifyRequest, ctx: SandboxContext): Promise<OnePassSubmission> {
  if (request.isMultipart()) {
    return readForm(request, ctx, OnePassFields, FILE_POLICY, (fields, files) => {
      if (fields.paper_content === undefined && !files.some((f) => f.role === 'answer')) {
        throw httpError(400, `The answer is missing: send paper_content, or a file in one of ${ANSWER_FILE_FIELDS.join(', ')}.`, 'answer_missing');
      }
    });
  }
  if (request.body === undefined || request.body === null) {
    throw httpError(400, 'The request body is missing: send a JSON object with Content-Type: application/json, or multipart/form-data with files.', 'invalid_request');
  }
  if (typeof request.body !== 'object' || Array.isArray(request.body)) {
    throw httpError(400, 'The request body must be a JSON object (Content-Type: application/json), or multipart/form-data with files.', 'invalid_request');
  }
  const parsed = OnePassJsonRequest.safeParse(request.body);
  if (!parsed.success) throw validationError(parsed.error);
  return { fields: parsed.data, files: [] };
}
