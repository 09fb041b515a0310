// kct evaluate and this machine's ledger (src/run/ledger.ts). The legacy path charges at acceptance
// and takes no Idempotency-Key, so the ledger alone keeps a re-run from charging twice: an answer
// sent to the same assignment with the same options is followed, not sent again, whatever its
// student id or file names (its identity: src/client/identity.ts).
import { NotFoundError } from '../../api/errors.js';
import type { LegacyEvaluationFields, StatusSnapshot } from '../../api/schemas.js';
import { isUnsuccessfulFinal, statusOf } from '../../api/status.js';
import type { KctClient } from '../../client/client.js';
import type { LocalFile } from '../../client/files.js';
import { hashFile } from '../../client/idempotency.js';
import { identityOf } from '../../client/identity.js';
import type { Ledger } from '../../run/ledger.js';

/** The answer's identity: the assignment, the options that change its mark and its content; not its student id or file names. */
export function evaluationIdentity(fields: LegacyEvaluationFields, files: readonly LocalFile[]): Promise<string> {
  return identityOf(
    fields as unknown as Record<string, unknown>,
    files.map((file) => ({ field: 'answer_files', file })),
    hashFile,
  );
}

type Recorded = StatusSnapshot & { task_id: string };

/** What the service says of the tasks recorded for this answer: one still marking it or that marked it, else the one that ended unmarked. */
export interface Earlier {
  /** A task of this answer the service knows, not FAILURE or CANCEL: followed instead of sending. */
  reuse?: Recorded;
  /** The latest recorded task that ended FAILURE or CANCEL: said when the answer is sent again. */
  unmarked?: Recorded;
}

/**
 * Asks the service about the tasks this machine recorded for the answer, latest first. A task it
 * does not know (another account, a sandbox started afresh) is passed over; any other error is the service's answer to the run too, and is thrown.
 */
export async function findEarlier(client: KctClient, ledger: Ledger | undefined, identity: string, signal: AbortSignal): Promise<Earlier> {
  const found: Earlier = {};
  for (const marked of ledger?.history(identity) ?? []) {
    if (!('taskId' in marked)) continue;
    let snapshot: Recorded;
    try {
      snapshot = { ...(await client.status(marked.taskId, { signal })), task_id: marked.taskId };
    } catch (error) {
      if (error instanceof NotFoundError) continue;
      throw error;
    }
    if (!isUnsuccessfulFinal(statusOf(snapshot))) return { reuse: snapshot };
    found.unmarked ??= snapshot;
  }
  return found;
}
