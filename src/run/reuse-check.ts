// Before a run says that answers sent before are not sent again, the service is asked about one task
// this machine's ledger names for them. A ledger is per server, not per account: another account
// (or a server started afresh) knows none of its tasks, and a key that is not valid is refused now,
// before any note promises what the run will not do.
import { NotFoundError } from '../api/errors.js';
import type { KctClient } from '../client/client.js';
import type { RunPlan } from './plan.js';

/** Whether the service knows the ledger's tasks (true when the run reuses none); one request at most. */
export async function serviceKnowsLedger(client: KctClient, plan: RunPlan, signal?: AbortSignal): Promise<boolean> {
  if (plan.ledgerTask === undefined) return true;
  try {
    await client.status(plan.ledgerTask, { signal });
    return true;
  } catch (error) {
    if (error instanceof NotFoundError) return false;
    if (signal?.aborted) return true; // the run says it was interrupted, as before anything is sent
    throw error;
  }
}
