// kct batch and this machine's ledger (src/run/ledger.ts). A batch request is charged whole, so an
// item marked before (by one-pass, or in another batch) is charged again when it goes in a request
// the service has not seen (the same request again it replays, free): said before anything is sent.
// Every request and item accepted is recorded, so a later `kct one-pass` of the same answer reuses
// its mark, and the same request again is known for the replay it is.
import type { BatchRequest } from '../../api/schemas.js';
import { stateDir } from '../../cli/core/config-store.js';
import { type BatchIdempotency, hashFile, idempotencyKeyFor } from '../../client/idempotency.js';
import { identityOf, sha256 } from '../../client/identity.js';
import { Ledger } from '../../run/ledger.js';
import type { ManifestItem } from './manifest.js';

/** One request of a manifest: its body and how its key is made (as client.batch makes it). */
export interface BatchSend {
  body: BatchRequest;
  idempotency: BatchIdempotency;
  items: readonly ManifestItem[];
}

export class BatchLedger {
  private constructor(
    private readonly ledger: Ledger | undefined,
    /** Each item's identity, in manifest order. */
    private readonly identities: string[],
    /** Each request's entry in the ledger: a digest of its Idempotency-Key. */
    private readonly requests: string[],
  ) {}

  /** The ledger of the server, with the identity of every item and request (no ledger: nothing is said or kept). */
  static async open(env: NodeJS.ProcessEnv, baseUrl: string, sends: readonly BatchSend[]): Promise<BatchLedger> {
    const { ledger } = Ledger.open(stateDir(env), baseUrl);
    if (!ledger) return new BatchLedger(undefined, [], []);
    const items = sends.flatMap((send) => send.items);
    const identities = await Promise.all(items.map((item) => identityOf({ ...item.fields }, [], hashFile)));
    const keys = await Promise.all(sends.map((send) => idempotencyKeyFor(send.idempotency, { endpoint: 'batch', fields: send.body })));
    return new BatchLedger(
      ledger,
      identities,
      keys.map((key) => `request ${sha256(key ?? '')}`),
    );
  }

  /** Items marked before that these requests would charge again: known to the ledger, in a request not sent before. */
  chargedAgain(sends: readonly BatchSend[]): number {
    if (!this.ledger) return 0;
    let [again, first] = [0, 0];
    for (const [index, send] of sends.entries()) {
      if (this.ledger.lookup(this.requests[index]) === undefined)
        for (let i = 0; i < send.items.length; i++) if (this.ledger.lookup(this.identities[first + i])) again += 1;
      first += send.items.length;
    }
    return again;
  }

  /** Request `index` accepted as `taskId`: it, and each of its items (from `first`) as an item of that batch. */
  accepted(index: number, taskId: string, first: number, count: number): void {
    this.ledger?.accepted(this.requests[index], { taskId });
    for (let i = 0; i < count; i++) this.ledger?.accepted(this.identities[first + i], { batchId: taskId, item: i });
  }

  close(): void {
    this.ledger?.close();
  }
}
