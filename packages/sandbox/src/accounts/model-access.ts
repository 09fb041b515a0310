// Whether a key may mark with a model (spec 5, 7): 404 unknown, 403 not visible, 409 not ready.
import type { Principal } from '../http/auth.js';
import { httpError } from '../http/envelope.js';
import type { ModelAccessRow, Store } from '../store/store.js';

export function canSee(principal: Principal, model: Pick<ModelAccessRow, 'owner_user_id' | 'org_id'>): boolean {
  return principal.scope === 'organization'
    ? model.org_id !== null && model.org_id === principal.orgId
    : model.owner_user_id === principal.userId;
}

/**
 * The model a submission names, or the error that explains why it cannot be used. Reads only the
 * columns that decide (every submission runs this; the rubrics are read when marking).
 */
export function usableModel(store: Store, principal: Principal, modelId: number, endpoint: string): ModelAccessRow {
  const model = store.modelAccess(modelId);
  if (!model) {
    // The hint only for an assignment of this key's own: another account's ids are not told.
    if (store.assignmentOwner(modelId) === principal.userId) {
      throw httpError(
        404,
        `There is no model ${modelId}, but there is an assignment ${modelId}: ${modelId} is an assignment_id. ${endpoint} needs a model_id from GET /models (assignment ids go to POST /evaluations).`,
        'model_not_found',
      );
    }
    throw httpError(404, `Model ${modelId} does not exist. List the models your key can use with GET /models.`, 'model_not_found');
  }
  if (!canSee(principal, model)) {
    const scope = principal.scope === 'organization' ? "your organization's models" : 'its own models';
    throw httpError(
      403,
      `This key has no access to model ${modelId}: a ${principal.scope}-scope key can use only ${scope}. Choose a model from GET /models.`,
      'model_forbidden',
    );
  }
  if (model.post_status !== 'ready') {
    throw httpError(
      409,
      `Model ${modelId} is not ready (post_status "${model.post_status}"); only ready models can mark answers. Wait until it is ready, or choose another model from GET /models.`,
      'model_not_ready',
    );
  }
  return model;
}
