// GET /credits (spec 4.1; the response fields are the sandbox's choice, docs/sandbox.md).
import type { FastifyInstance } from 'fastify';
import { API_PREFIX, OPERATIONS } from '../../api/operations.js';
import { principalOf } from '../http/auth.js';
import type { SandboxContext } from '../context.js';
import { sendData } from '../http/envelope.js';

export function creditsRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.route({
    ...OPERATIONS.getCredits,
    url: API_PREFIX + OPERATIONS.getCredits.path,
    handler: async (request, reply) => {
      const principal = principalOf(request);
      const { credits, reserved } = ctx.store.balance(principal.userId);
      return sendData(reply, {
        credits,
        reserved,
        available: credits - reserved,
        billing_mode: 'owner_user',
        scope: principal.scope,
        // who the key belongs to, for `kct auth status` and `kct doctor` (docs/sandbox.md)
        account: { id: principal.userId, name: principal.userName },
        ...(principal.orgId === null ? {} : { organization: { id: principal.orgId, name: ctx.store.organizationName(principal.orgId) } }),
      });
    },
  });
}
