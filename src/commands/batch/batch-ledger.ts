// kct batch and this machine's ledger (src/run/ledger.ts). An item marked before (by one-pass, or in
// another batch) is reused, not sent (reuse.ts); with --mark-again it is sent, and a batch request
// is charged whole, so it is charged again when it goes in a request the service has not seen (the
// same request again it replays, free): said before anything is sent. Every request and item
// accepted is recorded, so a later run (kct batch or kct one-pass) of the same answer reuses its
// mark, and the same request again is known for the replay it is.
import type { BatchRequest } from '../../api/schemas.js';
import { stateDir } from '../../cli/core/config-store.js';
import { type BatchIdempotency, batchKeyFromIdentities, idempotencyKeyFor } from '../../client/idempotency.js';
import { sha256 } from '../../client/identity.js';
import { Ledger, type Marked } from '../../run/ledger.js';
import type { ManifestItem } from './manifest.js';

/** One request of a manifest: its body and how its key is made (as client.batch makes it). */
export interface BatchSend {
  body: BatchRequest;
  idempotency: BatchIdempotency;
  items: readonly ManifestItem[];
  /** Each item's index among the manifest's distinct items (copies.ts). */
  at: readonly number[];
  /** For an item a task did not mark, that task: a derived key names it, so the request is a new one. */
  again?: readonly (string | undefined)[];
}

export class BatchLedger {
  /** Each request's key: derived from its items' identities (computed once, here), or the caller's base key and names. */
  private keys: (string | undefined)[] = [];
  private sends: readonly BatchSend[] = [];

  private constructor(
    private readonly ledger: Ledger | undefined,
    /** Each distinct item's identity, in manifest order. */
    private readonly identities: readonly string[],
  ) {}

  /** The ledger of the server (none: nothing is reused, said or kept). */
  static open(env: NodeJS.ProcessEnv, baseUrl: string, identities: readonly string[]): BatchLedger {
    return new BatchLedger(Ledger.open(stateDir(env), baseUrl).ledger, identities);
  }

  /** The latest task this machine knows marked item `at` (or did not mark it: `failed`). */
  latest(at: number): Marked | undefined {
    return this.ledger?.lookup(this.identities[at]);
  }

  /** The requests to send, each keyed (in order of `sends`). */
  async keyed(sends: readonly BatchSend[]): Promise<void> {
    this.sends = sends;
    this.keys = [];
    for (const send of sends)
      this.keys.push(
        send.idempotency === 'derive'
          ? batchKeyFromIdentities(
              send.body as unknown as Record<string, unknown>,
              send.at.map((at) => this.identities[at]),
              send.again,
            )
          : await idempotencyKeyFor(send.idempotency, { endpoint: 'batch', fields: send.body }),
      );
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

  /** Items marked before that the requests would charge again (--mark-again): known to the ledger (and not failed there), in a request not sent before. */
  chargedAgain(): number {
    if (!this.ledger) return 0;
    let again = 0;
    for (const [index, send] of this.sends.entries())
      if (this.ledger.lookup(this.request(index)) === undefined)
        for (const at of send.at) {
          // an item that ended FAILURE or CANCEL was not charged: sending it again charges it once
          const known = this.latest(at);
          if (known && !known.failed) again += 1;
        }
    return again;
  }

  /** Request `index` accepted as `taskId`: it, and each of its items as an item of that batch. */
  accepted(index: number, taskId: string): void {
    this.ledger?.accepted(this.request(index), { taskId });
    for (const [item, at] of this.sends[index].at.entries()) this.record(at, { batchId: taskId, item });
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

  /** Item `item` of batch `taskId` (item `at` of the manifest) ended FAILURE or CANCEL: not charged, so sent again by the next run. */
  failed(taskId: string, at: number, item: number): void {
    this.record(at, { batchId: taskId, item, failed: true });
  }

  /** Item `at`'s earlier task (reused) did not mark it: not charged, so sent again. */
  failedBefore(at: number, marked: Marked): void {
    this.ledger?.accepted(this.identities[at], { ...marked, failed: true });
  }

  close(): void {
    this.ledger?.close();
  }
}
