// Before a run says that answers sent before are not sent again, the service is asked about one task
// this machine's ledger names for them. A ledger is per server, not per account: another account
// (or a server started afresh) knows none of its tasks; and when the service cannot be asked (a key
// refused, unreachable), no note promises anything of them.
import { NotFoundError } from '../api/errors.js';
import type { KctClient } from '../client/client.js';
import type { RunPlan } from './plan.js';

/**
 * What the service said of the ledger's task: it knows it; it knows one recorded before it for the
 * same answer ('earlier': another server or account had the latest); it knows none; or it could not
 * be asked (a key refused, unreachable, busy).
 */
export type LedgerCheck = 'known' | 'earlier' | 'unknown' | 'unasked';

/**
 * Asks the service about the first task the ledger names for an answer reused ('known' when none
 * is), then the tasks recorded for it before, while the service does not know them; one request
 * each, one attempt. When it cannot be asked, nothing is promised: the run's own
 * requests meet the same refusal and say it, with every row (a key refused: exit 4).
 */
export async function checkLedger(client: KctClient, plan: RunPlan, signal?: AbortSignal): Promise<LedgerCheck> {
  if (plan.ledgerTask === undefined) return 'known';
  // the latest task first; one this service does not know may be another's at the same address, and an earlier one its own
  for (const task of [plan.ledgerTask, ...(plan.ledgerEarlier ?? [])]) {
    try {
      await client.status(task, { signal, retry: false });
      return task === plan.ledgerTask ? 'known' : 'earlier';
    } catch (error) {
      if (!(error instanceof NotFoundError)) return 'unasked';
    }
  }
  return 'unknown';
}
