import { ApiError } from '@platform/service-kit';

/** Over the cap of open streams: 429 with `Retry-After`, as a partner would expect from a rate limit. */
export class TooManyStreamsError extends ApiError {
  constructor(message: string) {
    super(429, 'too_many_streams', message, {}, { 'Retry-After': '5' });
  }
}

/**
 * Open event streams counted per process and per API key, so one partner's leaked loop of reconnects cannot hold every
 * socket (and Redis subscription) of a process. `acquire` throws over either cap; the release it returns is idempotent.
 */
export class StreamLimits {
  private total = 0;
  private readonly perKey = new Map<string, number>();

  constructor(private readonly caps: { perProcess: number; perKey: number }) {}

  acquire(keyId: string): () => void {
    const held = this.perKey.get(keyId) ?? 0;
    if (held >= this.caps.perKey) throw new TooManyStreamsError(`This API key already holds ${held} open streams (at most ${this.caps.perKey}); close one first`);
    if (this.total >= this.caps.perProcess) throw new TooManyStreamsError('Too many open streams on this server; try again shortly');
    this.total += 1;
    this.perKey.set(keyId, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total -= 1;
      const left = (this.perKey.get(keyId) ?? 1) - 1;
      if (left > 0) this.perKey.set(keyId, left);
      else this.perKey.delete(keyId);
    };
  }

  get open(): number {
    return this.total;
  }
}
