// Model building (spec 1, 4.3, 4.4, 4.5): the two preview endpoints and POST /models. The shapes
// the spec leaves open are documented in docs/model-building.md.
import type { FastifyInstance } from 'fastify';
import { API_PREFIX, OPERATIONS } from '../../api/operations.js';
import { CreateModelRequest } from '../../api/schemas.js';
import { principalOf } from '../http/auth.js';
import type { SandboxContext } from '../context.js';
import { httpError, sendData, validationError } from '../http/envelope.js';
import { renderQuestions } from '../ingest/questions.js';
import { runPreview } from '../ingest/preview.js';
import type { ModelRow } from '../store/store.js';
import { Trainer, TRAINING_STATUS } from '../tasks/model-training.js';
import { modelItem } from '../http/responses.js';
import { jsonObjectBody } from '../http/body.js';

export function modelBuildingRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const trainer = new Trainer(ctx.store, ctx.settings.log);
  trainer.resume();
  app.addHook('onClose', async () => trainer.close());

  app.route({
    ...OPERATIONS.questionsPreview,
    url: API_PREFIX + OPERATIONS.questionsPreview.path,
    handler: async (request, reply) => sendData(reply, await runPreview('questions', request, ctx)),
  });
  app.route({
    ...OPERATIONS.rubricsPreview,
    url: API_PREFIX + OPERATIONS.rubricsPreview.path,
    handler: async (request, reply) => sendData(reply, await runPreview('rubrics', request, ctx)),
  });

  app.route({
    ...OPERATIONS.createModel,
    url: API_PREFIX + OPERATIONS.createModel.path,
    handler: async (request, reply) => {
      const principal = principalOf(request);
      if (request.isMultipart()) {
        throw httpError(400, 'POST /models takes a JSON body (Content-Type: application/json): the confirmed questions and rubrics, not files. Parse files first with the preview endpoints.', 'unsupported_content_type');
      }
      const parsed = CreateModelRequest.safeParse(jsonObjectBody(request));
      if (!parsed.success) throw validationError(parsed.error);
      const body = parsed.data;
      const delay = ctx.settings.trainingDelayMs ?? 0;
      const createdAt = Date.now();
      const readyAt = createdAt + delay;
      // A user key's model belongs to the user; an organization key's model to the organization
      // (every key of that organization sees it, as GET /models lists it for them).
      const organization = principal.scope === 'organization' && principal.orgId !== null;
      const row = ctx.store.db.transaction(() => {
        const modelId = ctx.store.nextObjectId('model');
        ctx.store.q(`INSERT INTO models (model_id, owner_user_id, org_id, assignment_name, assignment_desc, question_text,
            post_status, creation_method, total_score, cum_method, rubrics_json, created_at,
            questions_json, project_subject, created_by_user_id, ready_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, 'custom', ?, ?, ?, ?, ?, ?, ?, ?)`).run(
          modelId,
          organization ? null : principal.userId,
          organization ? principal.orgId : null,
          body.assignment_name,
          body.assignment_desc,
          renderQuestions(body.questions),
          TRAINING_STATUS,
          body.total_score,
          body.cum_method,
          JSON.stringify(body.rubrics),
          new Date(createdAt).toISOString(),
          JSON.stringify(body.questions),
          body.project_subject ?? null,
          principal.userId,
          readyAt,
        );
        return ctx.store.model(modelId) as ModelRow;
      }).immediate();
      trainer.schedule(row.model_id, readyAt, createdAt);
      return sendData(reply, createdModelView(row), 201);
    },
  });
}

/** The response of POST /models: the model as GET /models lists it (2.1), with its subject if one was given. */
export function createdModelView(row: ModelRow) {
  return {
    ...modelItem(row),
    ...(row.project_subject ? { project_subject: row.project_subject } : {}),
  };
}
