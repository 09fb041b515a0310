// GET /models (spec 4.2): the models the key's scope can see.
import { defineOperation } from '../http/operation.js';
import { modelItem } from '../http/responses.js';

export const listModels = defineOperation('listModels', {}, (ctx, principal) => {
  const models = ctx.store.visibleModels({ user_id: principal.userId, scope: principal.scope, org_id: principal.orgId });
  return { data: models.map(modelItem) };
});
