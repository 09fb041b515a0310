// GET /models (spec 4.2): the models the key's scope can see.
import type { FastifyInstance } from 'fastify';
import { API_PREFIX, OPERATIONS } from '../../api/operations.js';
import { principalOf } from '../http/auth.js';
import type { SandboxContext } from '../context.js';
import { sendData } from '../http/envelope.js';
import { modelItem } from '../http/responses.js';

export function modelsRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.route({
    ...OPERATIONS.listModels,
    url: API_PREFIX + OPERATIONS.listModels.path,
    handler: async (request, reply) => {
      const principal = principalOf(request);
      const models = ctx.store.visibleModels({ user_id: principal.userId, scope: principal.scope, org_id: principal.orgId });
      return sendData(reply, models.map(modelItem));
    },
  });
}
