/**
 * A least-recently-used memo of async results, at most `entries` of them: the first caller of a key starts `make`, and
 * everyone asking for that key meanwhile and afterwards shares its promise. A failure is not kept (the next call tries
 * again). For results that depend only on their key, so nothing ever needs to be invalidated by hand.
 */
export function promiseLru<T>(entries: number) {
  const kept = new Map<string, Promise<T>>();
  return {
    get(key: string, make: () => Promise<T>): Promise<T> {
      let value = kept.get(key);
      if (value) kept.delete(key);
      else {
        value = make();
        value.catch(() => {
          if (kept.get(key) === value) kept.delete(key);
        });
      }
      kept.set(key, value); // re-inserted last: the most recently used
      for (const oldest of kept.keys()) {
        if (kept.size <= entries) break;
        kept.delete(oldest);
      }
      return value;
    },
    get size() {
      return kept.size;
    },
  };
}
