/**
 * A per-process total of one shared, finite resource (upload bytes in flight, open streams…) that no group of holders
 * can take from another: the total is a soft cap shared fairly. While units are free, anyone may take them; once the
 * total is reached, a holder holding less than its fair share is still admitted, and only holders at or over their share
 * are refused. A holder's share is the total times its weight over the weights of the holders using the resource, itself
 * included (every weight 1: the total divided by the holders). So N holders filling the total never keep another from
 * its first unit; the total overshoots by at most the late-comers' shares (at most twice the total). Per-holder caps
 * are the caller's: this only answers for the shared total.
 */
export class FairShare {
  private readonly held = new Map<string, { units: number; weight: number }>();
  private used = 0;
  private weights = 0;

  constructor(readonly total: number) {}

  /** Whether `holder` (of `weight`, 1 by default) may take `units` more of the shared total. */
  admits(holder: string, units: number, weight = 1): boolean {
    return this.used + units <= this.total || this.heldBy(holder) < this.shareOf(holder, weight);
  }

  /** Counts `units` as held by `holder` (after `admits`, or unconditionally); its weight is the one it first took with. */
  take(holder: string, units: number, weight = 1): void {
    if (units <= 0) return;
    const entry = this.held.get(holder);
    if (entry) entry.units += units;
    else {
      this.held.set(holder, { units, weight });
      this.weights += weight;
    }
    this.used += units;
  }

  /** Gives back `units` that `holder` held. */
  give(holder: string, units: number): void {
    const entry = this.held.get(holder);
    if (units <= 0 || !entry) return;
    const given = Math.min(units, entry.units);
    entry.units -= given;
    this.used -= given;
    if (entry.units <= 0) {
      this.held.delete(holder);
      this.weights -= entry.weight;
    }
  }

  heldBy(holder: string): number {
    return this.held.get(holder)?.units ?? 0;
  }

  /** Units held by everyone together. */
  get inUse(): number {
    return this.used;
  }

  /** Holders holding units right now. */
  get holders(): number {
    return this.held.size;
  }

  /** `holder`'s part of the total: its weight over the weights of the holders holding units, itself counted. */
  shareOf(holder: string, weight = 1): number {
    const entry = this.held.get(holder);
    const own = entry?.weight ?? weight;
    return (this.total * own) / (this.weights + (entry ? 0 : own));
  }
}
