// Where each waiting task stands in the one global queue, in O(log n): a Fenwick tree (binary
// indexed tree) over task seqs, counting the waiting runnable tasks. GET /status used to count
// them in SQL, a scan of the whole queue per poll (100,000 rows at district scale). The database
// stays the truth: Store rebuilds this from it at start, and docs/design/sandbox-notes.md, "Queue positions",
// says how exact it is.

/** Slots to start with; the tree doubles (and moves its base up to the oldest waiting task) as seqs grow. */
const INITIAL_SLOTS = 1024;

export class QueuePlaces {
  /** The seq held in slot 0. */
  private base = 0;
  /** Fenwick tree, 1-based: tree[i] counts the members in slots (i - lowbit(i), i]. */
  private tree = new Int32Array(INITIAL_SLOTS + 1);
  /** 1 where the seq at that slot is waiting, so add and remove are idempotent. */
  private member = new Uint8Array(INITIAL_SLOTS);
  private count = 0;

  constructor(seqs: Iterable<number> = []) {
    for (const seq of seqs) this.add(seq);
  }

  /** How many tasks wait. */
  get length(): number {
    return this.count;
  }

  has(seq: number): boolean {
    const slot = seq - this.base;
    return slot >= 0 && slot < this.member.length && this.member[slot] === 1;
  }

  /** A task joined the queue (no-op when it is there already). */
  add(seq: number): void {
    if (this.count === 0) this.reset(seq);
    if (seq < this.base || seq - this.base >= this.member.length) this.resize(seq);
    const slot = seq - this.base;
    if (this.member[slot] === 1) return;
    this.member[slot] = 1;
    this.count += 1;
    this.bump(slot, 1);
  }

  /** A task left the queue: picked by a worker, cancelled or failed (no-op when it was not there). */
  remove(seq: number): void {
    if (!this.has(seq)) return;
    this.member[seq - this.base] = 0;
    this.count -= 1;
    this.bump(seq - this.base, -1);
  }

  /** 1-based place of `seq` among the waiting tasks (those with a seq up to its own), and the queue's length. */
  place(seq: number): { position: number; length: number } {
    const slot = Math.min(seq - this.base, this.member.length - 1);
    let position = 0;
    for (let i = slot + 1; i > 0; i -= i & -i) position += this.tree[i]!;
    return { position, length: this.count };
  }

  private bump(slot: number, by: number): void {
    for (let i = slot + 1; i < this.tree.length; i += i & -i) this.tree[i]! += by;
  }

  /** Empty: start afresh at `seq`, so the tree spans only the live queue, not every task ever made. */
  private reset(seq: number): void {
    this.base = seq;
    if (this.member.length > INITIAL_SLOTS * 64) {
      this.member = new Uint8Array(INITIAL_SLOTS);
      this.tree = new Int32Array(INITIAL_SLOTS + 1);
    } else {
      this.member.fill(0);
      this.tree.fill(0);
    }
  }

  /** Room for `seq`: a base at the oldest waiting seq (or `seq`), twice the slots the span needs; O(slots). */
  private resize(seq: number): void {
    const members: number[] = [];
    for (let slot = 0; slot < this.member.length; slot++) if (this.member[slot] === 1) members.push(this.base + slot);
    const low = Math.min(seq, members[0] ?? seq);
    const high = Math.max(seq, members[members.length - 1] ?? seq);
    let slots = INITIAL_SLOTS;
    while (slots <= (high - low) * 2) slots *= 2;
    this.base = low;
    this.member = new Uint8Array(slots);
    this.tree = new Int32Array(slots + 1);
    this.count = 0;
    for (const kept of members) {
      this.member[kept - low] = 1;
      this.count += 1;
      this.bump(kept - low, 1);
    }
  }
}
