// kct batch and this machine's ledger (src/run/ledger.ts). A batch request is charged whole, so an
// item marked before (by one-pass, or in another batch) is charged again when it goes in a request
// that is not a replay of the one that marked it: said before anything is sent. Every item
// accepted is recorded, so a later `kct one-pass` of the same answer reuses its mark.
import { stateDir } from '../../cli/core/config-store.js';
import { hashFile } from '../../client/idempotency.js';
import { identityOf } from '../../client/identity.js';
import { Ledger } from '../../run/ledger.js';
import type { ManifestItem } from './manifest.js';

export class BatchLedger {
  private constructor(
    private readonly ledger: Ledger | undefined,
    private readonly identities: string[],
  ) {}

  /** The ledger of the server, with the identity of every item (undefined ledger: it cannot be used, nothing is said or kept). */
  static async open(env: NodeJS.ProcessEnv, baseUrl: string, items: readonly ManifestItem[]): Promise<BatchLedger> {
    const { ledger } = Ledger.open(stateDir(env), baseUrl);
    const identities = ledger ? await Promise.all(items.map((item) => identityOf({ ...item.fields }, [], hashFile))) : [];
    return new BatchLedger(ledger, identities);
  }

  /**
   * Items marked before that these requests would charge again: known to the ledger, in a request
   * that is not the very one that marked them (that one the service replays, free).
   */
  chargedAgain(groups: readonly (readonly ManifestItem[])[]): number {
    if (!this.ledger) return 0;
    let again = 0;
    let first = 0;
    for (const group of groups) {
      const marked = group.map((_, i) => this.ledger?.lookup(this.identities[first + i]));
      const batch = marked[0] && 'batchId' in marked[0] ? marked[0].batchId : undefined;
      const replay =
        batch !== undefined && marked.every((m, i) => m !== undefined && 'batchId' in m && m.batchId === batch && m.item === i);
      if (!replay) again += marked.filter((m) => m !== undefined).length;
      first += group.length;
    }
    return again;
  }

  /** The items of an accepted request, from `first`, as items of its batch task. */
  accepted(taskId: string, first: number, count: number): void {
    for (let i = 0; i < count; i++) this.ledger?.accepted(this.identities[first + i], { batchId: taskId, item: i });
  }

  close(): void {
    this.ledger?.close();
  }
}
