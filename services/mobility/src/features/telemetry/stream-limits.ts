import type { RequestHandler } from 'express';
import { principalOf } from '@platform/api-keys';
import { ApiError } from '@platform/service-kit/errors';
import { FairShare } from '@platform/service-kit/fair-share';

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
 * cannot hold every socket (and Redis subscription) of a process, and many partners together cannot keep another from
 * its first stream: the process cap is shared fairly among the organizations holding streams (`FairShare`), so once it
 * is reached only organizations at or over their share are refused. `acquire` throws over any cap; the release it
 * returns is idempotent.
 */
export class StreamLimits {
  private readonly perKey = new Map<string, number>();
  private readonly slots: FairShare;

  constructor(private readonly caps: StreamCaps) {
    this.slots = new FairShare(caps.perProcess);
  }

  acquire({ keyId, organizationId }: StreamHolder): () => void {
    const held = this.perKey.get(keyId) ?? 0;
    if (held >= this.caps.perKey) throw new TooManyStreamsError(`This API key already holds ${held} open streams (at most ${this.caps.perKey}); close one first`);
    const heldByOrganization = this.slots.heldBy(organizationId);
    if (heldByOrganization >= this.caps.perOrganization) {
      throw new TooManyStreamsError(`Your organization's keys already hold ${heldByOrganization} open streams (at most ${this.caps.perOrganization}); close one first`);
    }
    if (!this.slots.admits(organizationId, 1)) throw new TooManyStreamsError('Too many open streams on this server, and your organization holds its share of them; try again shortly');
    this.slots.take(organizationId, 1);
    increment(this.perKey, keyId);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.slots.give(organizationId, 1);
      decrement(this.perKey, keyId);
    };
  }

  get open(): number {
    return this.slots.inUse;
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

/**
 * The route table's `cost: 'stream'` hook: one slot of the key's and its organization's open streams, taken before the
 * handler runs and given back when the answer ends (the stream closed, the client hung up, or a refusal was answered).
 * Mobility knows organizations, not the accounts that own them: here the organization is the account.
 */
export function streamSlotHook(limits: StreamLimits): RequestHandler {
  return (req, res, next) => {
    let release: () => void;
    try {
      release = limits.acquire(principalOf(req));
    } catch (error) {
      return next(error);
    }
    res.once('close', release);
    res.once('finish', release);
    next();
  };
}
