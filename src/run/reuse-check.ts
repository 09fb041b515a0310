// Before a run says that answers sent before are not sent again, the service is asked about one task
// this machine's ledger names for them. A ledger is per server, not per account: another account
// (or a server started afresh) knows none of its tasks, and a key that is not valid is refused now,
// before any note promises what the run will not do.
import { ApiError, NotFoundError, RateLimitError, ServerError } from '../api/errors.js';
import type { KctClient } from '../client/client.js';
import type { RunPlan } from './plan.js';

/**
 * Whether the service knows the ledger's tasks (true when the run reuses none); one request, one
 * attempt. A key refused is thrown; a service that cannot be asked now (unreachable, busy) is left to
 * the run's own requests, which say so with their hints.
 */
export async function serviceKnowsLedger(client: KctClient, plan: RunPlan, signal?: AbortSignal): Promise<boolean> {
  if (plan.ledgerTask === undefined) return true;
  try {
    await client.status(plan.ledgerTask, { signal, retry: false });
    return true;
  } catch (error) {
    if (error instanceof NotFoundError) return false;
    // a refusal (401, 403 …) is the key's: said now; anything else is said by the run's own requests
    if (error instanceof ApiError && !(error instanceof RateLimitError || error instanceof ServerError)) throw error;
    return true;
  }
}
