/**
 * Delivery ids already accepted, so a replayed webhook is refused. Bounded: the oldest ids are forgotten first,
 * which is safe because a delivery only ever hints "fetch now" — a replay older than the window costs a fetch.
 */
export class RecentDeliveries {
  private readonly seen = new Set<string>();

  constructor(private readonly capacity = 1000) {}

  /** True the first time an id is offered, false for a replay. */
  remember(id: string): boolean {
    if (this.seen.has(id)) return false;
    this.seen.add(id);
    if (this.seen.size > this.capacity) this.seen.delete(this.seen.values().next().value!);
    return true;
  }

  get size(): number {
    return this.seen.size;
  }
}
