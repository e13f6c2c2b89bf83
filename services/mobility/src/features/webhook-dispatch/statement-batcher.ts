/**
 * Group commit for per-job statements: the first call runs at once (on the next turn of the event loop, so calls made
 * together share it); calls made while a statement is in flight wait for it and then go together in the next one, up
 * to `maxBatch` items. A quiet pipeline pays no extra latency, a busy one sends one multi-row statement instead of
 * one round trip per job. When a batch fails, each of its items is tried alone, so one bad row fails only its caller.
 */
export function createStatementBatcher<I, O>(run: (items: I[]) => Promise<O[]>, maxBatch = 200) {
  let queued: { item: I; resolve: (value: O) => void; reject: (error: unknown) => void }[] = [];
  let inFlight = 0;
  const maxInFlight = 2; // one statement filling while another commits keeps the connection pool busy but not flooded

  async function flush(): Promise<void> {
    if (inFlight >= maxInFlight || queued.length === 0) return;
    const batch = queued.slice(0, maxBatch);
    queued = queued.slice(batch.length);
    inFlight += 1;
    try {
      const results = await run(batch.map((b) => b.item));
      batch.forEach((b, i) => b.resolve(results[i]!));
    } catch (error) {
      if (batch.length === 1) batch[0]!.reject(error);
      else {
        await Promise.all(
          batch.map(async (b) => {
            try {
              b.resolve((await run([b.item]))[0]!);
            } catch (alone) {
              b.reject(alone);
            }
          }),
        );
      }
    } finally {
      inFlight -= 1;
      void flush();
    }
  }

  return function submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      queued.push({ item, resolve, reject });
      if (queued.length === 1) setImmediate(() => void flush());
      else if (queued.length >= maxBatch) void flush();
    });
  };
}
