// What kct callbacks listen did with each webhook-id: the one record its --count, its repeat marks
// and its exit code are read from. A delivery is handled once it is printed and, with --forward-to,
// taken (2xx) by that endpoint; only then is its id remembered, so a redelivery the endpoint takes
// after failed attempts is no repeat, and a repeat of a handled id counts no second event.

/** Deliveries are at least once: repeats of the last ids handled are marked as such. */
const REMEMBERED_IDS = 1000;

export class Deliveries {
  /** Ids handled, oldest first (a Set keeps its order): the last REMEMBERED_IDS. */
  private readonly handledIds = new Set<string>();
  /** Ids delivered and not handled (yet), with why their last attempt was not. */
  private readonly missedIds = new Map<string, string>();
  /** Events handled: each id once. */
  handled = 0;

  constructor(private readonly remembered = REMEMBERED_IDS) {}

  /** This id was handled before: a delivery of it again is a repeat. */
  isRepeat(id: string): boolean {
    return this.handledIds.has(id);
  }

  /** A delivery of this id was handled; true when it is a new event (it counts). */
  took(id: string): boolean {
    this.missedIds.delete(id);
    if (this.handledIds.has(id)) return false;
    this.handledIds.add(id);
    if (this.handledIds.size > this.remembered) this.handledIds.delete(this.handledIds.values().next().value as string);
    this.handled += 1;
    return true;
  }

  /** A delivery of this id was not handled (its sender was told so, and delivers it again). */
  missed(id: string, why: string): void {
    if (!this.handledIds.has(id)) this.missedIds.set(id, why);
  }

  /** The ids delivered and never handled, with why, in the order first missed. */
  unhandled(): [id: string, why: string][] {
    return [...this.missedIds];
  }
}
