/**
 * Keys seen within the last `windowMs`, at most `capacity` of them (the oldest forgotten first): the signed bodies
 * of accepted webhook deliveries. GitHub, Gitea and GitLab's secret token sign no timestamp and no delivery id, so
 * a captured delivery replays under a fresh id; the body is what cannot change without the secret. A replay
 * after the window, or after the capacity is passed, costs one fetch.
 */
export class ReplayWindow {
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly windowMs = 24 * 60 * 60 * 1000,
    private readonly capacity = 1000,
  ) {}

  /** True the first time a key is offered within the window, false for a replay. */
  remember(key: string, now = Date.now()): boolean {
    const at = this.seen.get(key);
    if (at !== undefined && now - at < this.windowMs) return false;
    this.seen.delete(key);
    this.seen.set(key, now);
    for (const [k, t] of this.seen) {
      if (this.seen.size <= this.capacity && now - t < this.windowMs) break;
      this.seen.delete(k);
    }
    return true;
  }

  get size(): number {
    return this.seen.size;
  }
}
