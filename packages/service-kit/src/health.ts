export type ReadinessCheck = () => Promise<unknown>;

/** `/readyz`'s answer: 200 when every dependency answers within the timeout, else 503 naming what is down. */
export async function readinessAnswer(checks: Record<string, ReadinessCheck>, timeoutMs: number) {
  const results = await runChecks(checks, timeoutMs);
  const down = Object.entries(results).filter(([, state]) => state !== 'up').map(([name]) => name);
  if (down.length === 0) return { status: 200 as const, body: { status: 'ready' as const, checks: results } };
  return { status: 503 as const, body: { status: 'unavailable' as const, checks: results, error: `Not ready: ${down.join(', ')} down`, code: 'not_ready' as const } };
}

export async function runChecks(checks: Record<string, ReadinessCheck>, timeoutMs: number): Promise<Record<string, 'up' | 'down'>> {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]) => [name, (await withTimeout(check(), timeoutMs)) ? 'up' : 'down'] as const),
  );
  return Object.fromEntries(entries);
}

async function withTimeout(work: Promise<unknown>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([work.then(() => true, () => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
