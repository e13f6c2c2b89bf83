/**
 * A per-process total of one shared, finite resource (upload bytes in flight, open streams…) that no group of holders
 * can take from another: the total is a soft cap shared fairly. While units are free, anyone may take them; once the
 * total is reached, a holder holding less than its fair share (the total divided by the holders using the resource,
 * itself included) is still admitted, and only holders at or over their share are refused. So N holders filling the
 * total never keep another from its first unit; the total overshoots by at most the late-comers' shares (at most
 * twice the total). Per-holder caps are the caller's: this only answers for the shared total.
 */
export class FairShare {
  private readonly held = new Map<string, number>();
  private used = 0;

  constructor(readonly total: number) {}

  /** Whether `holder` may take `units` more of the shared total. */
  admits(holder: string, units: number): boolean {
    return this.used + units <= this.total || this.heldBy(holder) < this.shareOf(holder);
  }

  /** Counts `units` as held by `holder` (after `admits`, or unconditionally). */
  take(holder: string, units: number): void {
    if (units <= 0) return;
    this.held.set(holder, this.heldBy(holder) + units);
    this.used += units;
  }

  /** Gives back `units` that `holder` held. */
  give(holder: string, units: number): void {
    if (units <= 0) return;
    const left = this.heldBy(holder) - units;
    if (left > 0) this.held.set(holder, left);
    else this.held.delete(holder);
    this.used -= units;
  }

  heldBy(holder: string): number {
    return this.held.get(holder) ?? 0;
  }

  /** Units held by everyone together. */
  get inUse(): number {
    return this.used;
  }

  /** The total divided among the holders that hold units, `holder` counted whether or not it holds any yet. */
  shareOf(holder: string): number {
    return this.total / (this.held.size + (this.held.has(holder) ? 0 : 1));
  }
}
