import { ApiError } from '@platform/service-kit';

/** Over the cap of open streams: 429 with `Retry-After`, as a partner would expect from a rate limit. */
export class TooManyStreamsError extends ApiError {
  constructor(message: string) {
    super(429, 'too_many_streams', message, {}, { 'Retry-After': '5' });
  }
}

export interface StreamCaps {
  perProcess: number;
  perKey: number;
  /** Every key of one organization together, so a tenant with many keys cannot take every slot of the process. */
  perOrganization: number;
}

/** Who holds a stream: the API key and its organization (partner). */
export interface StreamHolder {
  keyId: string;
  organizationId: string;
}

/**
 * Open event streams counted per process, per organization and per API key, so one partner (however many keys it makes)
 * cannot hold every socket (and Redis subscription) of a process. `acquire` throws over any cap; the release it returns
 * is idempotent.
 */
export class StreamLimits {
  private total = 0;
  private readonly perKey = new Map<string, number>();
  private readonly perOrganization = new Map<string, number>();

  constructor(private readonly caps: StreamCaps) {}

  acquire({ keyId, organizationId }: StreamHolder): () => void {
    const held = this.perKey.get(keyId) ?? 0;
    if (held >= this.caps.perKey) throw new TooManyStreamsError(`This API key already holds ${held} open streams (at most ${this.caps.perKey}); close one first`);
    const heldByOrganization = this.perOrganization.get(organizationId) ?? 0;
    if (heldByOrganization >= this.caps.perOrganization) {
      throw new TooManyStreamsError(`Your organization's keys already hold ${heldByOrganization} open streams (at most ${this.caps.perOrganization}); close one first`);
    }
    if (this.total >= this.caps.perProcess) throw new TooManyStreamsError('Too many open streams on this server; try again shortly');
    this.total += 1;
    increment(this.perKey, keyId);
    increment(this.perOrganization, organizationId);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total -= 1;
      decrement(this.perKey, keyId);
      decrement(this.perOrganization, organizationId);
    };
  }

  get open(): number {
    return this.total;
  }
}

function increment(counts: Map<string, number>, id: string): void {
  counts.set(id, (counts.get(id) ?? 0) + 1);
}

function decrement(counts: Map<string, number>, id: string): void {
  const left = (counts.get(id) ?? 1) - 1;
  if (left > 0) counts.set(id, left);
  else counts.delete(id);
}
