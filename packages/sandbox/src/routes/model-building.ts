// Model building (spec 1, 4.3, 4.4, 4.5): the two preview endpoints and POST /models. The shapes
// the spec leaves open are documented in docs/model-building.md.
import { PREVIEW_MIME_TYPES } from 'kct/api/limits.js';
import { CreateModelRequest, IngestPreviewFields, QuestionsPreviewFields } from 'kct/api/schemas.js';
import type { SandboxContext } from '../context.js';
import type { Principal } from '../http/auth.js';
import type { OperationInput } from '../http/operation.js';
import { defineOperation } from '../http/operation.js';
import { publicOrigin } from '../http/public-url.js';
import { modelItem } from '../http/responses.js';
import type { PreviewKind } from '../ingest/preview.js';
import { PREVIEW_FILE_FIELDS, runPreview } from '../ingest/preview.js';
import type { Fields } from '../ingest/preview-parse.js';
import { renderQuestions } from '../ingest/questions.js';
import type { ModelRow } from '../store/store.js';
import { TRAINING_STATUS } from '../tasks/model-training.js';

function previewFiles(kind: PreviewKind) {
  const role = kind === 'questions' ? ('question' as const) : ('rubric' as const);
  return { policy: { fileFields: Object.fromEntries(PREVIEW_FILE_FIELDS.map((f) => [f, role])), acceptedMimes: PREVIEW_MIME_TYPES } };
}

function preview(kind: PreviewKind) {
  return async (ctx: SandboxContext, _principal: Principal, { fields, files, request }: OperationInput<Fields>) => ({
    data: await runPreview(kind, { fields, files, connection: request, publicOrigin: publicOrigin(ctx, request) }, ctx),
  });
}

export const questionsPreview = defineOperation<Fields>(
  'questionsPreview',
  { body: QuestionsPreviewFields, files: previewFiles('questions') },
  preview('questions'),
);
export const rubricsPreview = defineOperation<Fields>(
  'rubricsPreview',
  { body: IngestPreviewFields, files: previewFiles('rubrics') },
  preview('rubrics'),
);

export const createModel = defineOperation(
  'createModel',
  {
    body: CreateModelRequest,
    jsonOnly:
      'POST /models takes a JSON body (Content-Type: application/json): the confirmed questions and rubrics, not files. Parse files first with the preview endpoints.',
    status: 201,
  },
  (ctx, principal, { fields: body }) => {
    const delay = ctx.settings.trainingDelayMs ?? 0;
    const createdAt = Date.now();
    const readyAt = createdAt + delay;
    // A user key's model belongs to the user; an organization key's model to the organization
    // (every key of that organization sees it, as GET /models lists it for them).
    const organization = principal.scope === 'organization' && principal.orgId !== null;
    const row = ctx.store.db
      .transaction(() => {
        const modelId = ctx.store.nextObjectId('model');
        ctx.store
          .prepared(`INSERT INTO models (model_id, owner_user_id, org_id, assignment_name, assignment_desc, question_text,
        post_status, creation_method, total_score, cum_method, rubrics_json, created_at,
        questions_json, project_subject, created_by_user_id, ready_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, 'custom', ?, ?, ?, ?, ?, ?, ?, ?)`)
          .run(
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
      })
      .immediate();
    ctx.trainer.schedule(row.model_id, readyAt, createdAt);
    return { data: createdModelView(row) };
  },
);

/** The response of POST /models: the model as GET /models lists it (2.1), with its subject if one was given. */
function createdModelView(row: ModelRow) {
  return {
    ...modelItem(row),
    ...(row.project_subject ? { project_subject: row.project_subject } : {}),
  };
}
