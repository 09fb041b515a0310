// GET /credits (spec 4.1; the response fields are the sandbox's choice, docs/sandbox.md).
import { defineOperation } from '../http/operation.js';

export const getCredits = defineOperation('getCredits', {}, (ctx, principal) => {
  const { credits, reserved } = ctx.store.balance(principal.userId);
  return {
    data: {
      credits,
      reserved,
      available: credits - reserved,
      billing_mode: 'owner_user',
      scope: principal.scope,
      // who the key belongs to, for `kct auth status` and `kct doctor` (docs/sandbox.md)
      account: { id: principal.userId, name: principal.userName },
      ...(principal.orgId === null ? {} : { organization: { id: principal.orgId, name: ctx.store.organizationName(principal.orgId) } }),
    },
  };
});
