import { createRenderPool, type RenderPool } from '../src/features/documents/render-pool';
import { pngBase64 } from './factories/templates';

/**
 * The render pool's queue serves organizations in turn, not first come first served: real worker threads, held busy
 * on purpose (`pool.hold()`), so the order the queue chose is the order in which the jobs end.
 */
let pool: RenderPool;
beforeEach(() => {
  pool = createRenderPool({ workers: 1, maxQueued: 16, timeoutMs: 60000 });
});
afterEach(() => pool.close());

const image = Buffer.from(pngBase64(8, 8), 'base64');

/** Queues a decode for `organization`, noting `name` in `ended` when it is done. */
function queue(organization: string, name: string, ended: string[]): Promise<void> {
  return pool.decode([image], { organization }).then(() => void ended.push(name));
}

describe('the render queue', () => {
  it("gives the next free worker to an organization asking for its first render, before another's backlog", async () => {
    const release = await pool.hold('org_a');
    const ended: string[] = [];
    const jobs = [queue('org_a', 'a1', ended), queue('org_a', 'a2', ended), queue('org_a', 'a3', ended), queue('org_b', 'b1', ended)];
    expect(pool.load()).toEqual({ running: 1, queued: 4, workers: 1 });
    release();
    await Promise.all(jobs);
    // b1 came last, but org_a has just had a turn (the held job) and org_b none yet.
    expect(ended).toEqual(['b1', 'a1', 'a2', 'a3']);
  });

  it('takes turns between organizations with jobs waiting, each in the order its own jobs came', async () => {
    const release = await pool.hold();
    const ended: string[] = [];
    const jobs = [
      queue('org_a', 'a1', ended), queue('org_a', 'a2', ended), queue('org_a', 'a3', ended),
      queue('org_b', 'b1', ended), queue('org_b', 'b2', ended),
      queue('org_c', 'c1', ended),
    ];
    release();
    await Promise.all(jobs);
    expect(ended).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
  });

  it("tells an organization when to ask again from its own place, not the queue's length", async () => {
    const release = await pool.hold('org_a');
    const ended: string[] = [];
    const jobs = Array.from({ length: 6 }, (_, i) => queue('org_a', `a${i + 1}`, ended));
    try {
      // org_a's last job waits for the held one and the five before it; a job of org_b would be next.
      expect(pool.retryAfterSeconds('org_a')).toBe(7);
      expect(pool.retryAfterSeconds('org_b')).toBe(2);
      jobs.push(queue('org_b', 'b1', ended));
      expect(pool.retryAfterSeconds('org_b')).toBe(2);
    } finally {
      release();
    }
    await Promise.all(jobs);
    expect(ended[0]).toBe('b1');
  });

  it('withdraws a job whose signal aborts while it waits; one already running ends as usual', async () => {
    const release = await pool.hold();
    const withdrawn = new AbortController();
    const waiting = pool.decode([image], { organization: 'org_a', signal: withdrawn.signal });
    expect(pool.load().queued).toBe(1);
    withdrawn.abort();
    await expect(waiting).rejects.toThrow('withdrawn');
    expect(pool.load().queued).toBe(0);
    release();
    const running = new AbortController();
    const drawn = pool.decode([image], { organization: 'org_a', signal: running.signal });
    while (pool.load().queued > 0) await new Promise((resolve) => setImmediate(resolve));
    running.abort();
    await expect(drawn).resolves.toEqual([true]);
  });
});
