/** Requests in flight per client address bucket: a cap so one address cannot hold every connection the gateway serves. */
export class InFlightCounter {
  private readonly counts = new Map<string, number>();

  constructor(private readonly limit: number) {}

  /** Counts the request in, or returns false when the bucket already has `limit` in flight. */
  enter(bucket: string): boolean {
    const count = this.counts.get(bucket) ?? 0;
    if (count >= this.limit) return false;
    this.counts.set(bucket, count + 1);
    return true;
  }

  leave(bucket: string): void {
    const count = this.counts.get(bucket) ?? 0;
    if (count <= 1) this.counts.delete(bucket);
    else this.counts.set(bucket, count - 1);
  }
}
