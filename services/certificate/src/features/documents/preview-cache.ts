import { createHash } from 'node:crypto';
import type { TemplateDraft } from '../templates';

export interface PreviewCacheLimits {
  /** Previews kept per organization (rendering or drawn). */
  perOrganization: number;
  /** Previews kept in all. */
  total: number;
  /** How long a drawn preview (or a failure, until told) is kept once its render has ended. */
  ttlMs: number;
}

/** One preview: its render (running in the pool, or ended), and whether and when it ended. */
export interface PreviewEntry {
  organization: string;
  key: string;
  render: Promise<Buffer>;
  endedAt: number | null;
  /** Withdraws the render from the pool's queue (a render already running goes on; its result is dropped). */
  abort: AbortController;
}

/**
 * The key of a preview: what the renderer draws (the design, the images, the issuer's name), hashed; one organization's
 * key never finds another's preview (the cache is looked up by organization too).
 */
export function previewKey(draft: TemplateDraft, issuerName: string): string {
  const hash = createHash('sha256').update(JSON.stringify({ issuerName, definition: draft.definition }));
  for (const image of [draft.background, draft.logo, draft.signature]) {
    hash.update(image ? `\n${image.length}\n` : '\n-\n');
    if (image) hash.update(image);
  }
  return hash.digest('hex');
}

/**
 * The previews being drawn and drawn lately, so that a client told to ask again (202) gets the PNG at once when it
 * sends the same draft again: bounded per organization and in all, the oldest dropped first (its render withdrawn from
 * the pool's queue if it has not started), each kept `ttlMs` once drawn.
 */
export function createPreviewCache(limits: PreviewCacheLimits, now: () => number = Date.now) {
  /** Oldest first. */
  const entries: PreviewEntry[] = [];

  function drop(entry: PreviewEntry): void {
    const index = entries.indexOf(entry);
    if (index < 0) return;
    entries.splice(index, 1);
    if (entry.endedAt === null) entry.abort.abort();
  }

  function sweep(): void {
    const stale = entries.filter((entry) => entry.endedAt !== null && now() - entry.endedAt >= limits.ttlMs);
    for (const entry of stale) drop(entry);
  }

  return {
    find(organization: string, key: string): PreviewEntry | undefined {
      sweep();
      return entries.find((entry) => entry.organization === organization && entry.key === key);
    },
    /** Starts a preview's render (`start` may throw, and then nothing is kept) and keeps it, dropping the oldest past the bounds. */
    add(organization: string, key: string, start: (signal: AbortSignal) => Promise<Buffer>): PreviewEntry {
      sweep();
      const abort = new AbortController();
      const entry: PreviewEntry = { organization, key, render: start(abort.signal), endedAt: null, abort };
      const ended = () => {
        entry.endedAt = now();
      };
      // Settled whether or not anyone waits for it: an unwatched failure is kept (and told to the next ask), not thrown.
      entry.render.then(ended, ended);
      const own = entries.filter((other) => other.organization === organization);
      for (const old of own.slice(0, Math.max(0, own.length - limits.perOrganization + 1))) drop(old);
      while (entries.length >= limits.total) drop(entries[0]!);
      entries.push(entry);
      return entry;
    },
    drop,
  };
}
