// kct batch and this machine's ledger (src/run/ledger.ts). A batch request is charged whole, so an
// item marked before (by one-pass, or in another batch) is charged again when it goes in a request
// the service has not seen (the same request again it replays, free): said before anything is sent.
// Every request and item accepted is recorded, so a later `kct one-pass` of the same answer reuses
// its mark, and the same request again is known for the replay it is.
import type { BatchRequest } from '../../api/schemas.js';
import { stateDir } from '../../cli/core/config-store.js';
import { type BatchIdempotency, batchKeyFromIdentities, idempotencyKeyFor } from '../../client/idempotency.js';
import { sha256 } from '../../client/identity.js';
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
    /** Each request's key: derived from its items' identities (computed once, here), or the caller's base key and names. */
    private readonly keys: (string | undefined)[],
    private readonly sends: readonly BatchSend[],
  ) {}

  /** Each request's key from its items' identities (in order of `sends`), and the ledger of the server (no ledger: nothing is said or kept). */
  static async open(env: NodeJS.ProcessEnv, baseUrl: string, sends: readonly BatchSend[], identities: string[]): Promise<BatchLedger> {
    let first = 0;
    const keys: (string | undefined)[] = [];
    for (const send of sends) {
      const own = identities.slice(first, (first += send.items.length));
      keys.push(
        send.idempotency === 'derive'
          ? batchKeyFromIdentities(send.body as unknown as Record<string, unknown>, own)
          : await idempotencyKeyFor(send.idempotency, { endpoint: 'batch', fields: send.body }),
      );
    }
    return new BatchLedger(Ledger.open(stateDir(env), baseUrl).ledger, identities, keys, sends);
  }

  /** How request `index` is keyed: its derived key as computed here, or the caller's base key and names as given. */
  idempotencyOf(index: number): BatchIdempotency {
    const key = this.keys[index];
    return this.sends[index].idempotency === 'derive' && key !== undefined ? { key } : this.sends[index].idempotency;
  }

  /** The ledger's entry of request `index`: a digest of its Idempotency-Key. */
  private request(index: number): string {
    return `request ${sha256(this.keys[index] ?? '')}`;
  }

  /** Items marked before that these requests would charge again: known to the ledger (and not failed there), in a request not sent before. */
  chargedAgain(sends: readonly BatchSend[]): number {
    if (!this.ledger) return 0;
    let [again, first] = [0, 0];
    for (const [index, send] of sends.entries()) {
      if (this.ledger.lookup(this.request(index)) === undefined)
        for (let i = 0; i < send.items.length; i++) {
          // an item that ended FAILURE or CANCEL was not charged: sending it again charges it once
          const known = this.ledger.lookup(this.identities[first + i]);
          if (known && !known.failed) again += 1;
        }
      first += send.items.length;
    }
    return again;
  }

  /** Request `index` accepted as `taskId`: it, and each of its items (from `first`) as an item of that batch. */
  accepted(index: number, taskId: string, first: number, count: number): void {
    this.ledger?.accepted(this.request(index), { taskId });
    for (let i = 0; i < count; i++) this.record(first + i, { batchId: taskId, item: i });
  }

  /**
   * An item recorded, unless the ledger has it already: a batch replayed is written once, so an
   * answer marked since (by one-pass, say) stays the latest, and is not taken for unmarked.
   */
  private record(at: number, marked: { batchId: string; item: number; failed?: true }): void {
    const history = this.ledger?.history(this.identities[at]) ?? [];
    const known = history.some(
      (e) => 'batchId' in e && e.batchId === marked.batchId && e.item === marked.item && (e.failed || !marked.failed),
    );
    if (!known) this.ledger?.accepted(this.identities[at], marked);
  }

  /** Item `item` of batch `taskId` (the manifest's item `first + item`) ended FAILURE or CANCEL: not charged, so not refused when sent again. */
  failed(taskId: string, first: number, item: number): void {
    this.record(first + item, { batchId: taskId, item, failed: true });
  }

  close(): void {
    this.ledger?.close();
  }
}
