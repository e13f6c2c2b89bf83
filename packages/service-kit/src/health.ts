import { Router } from 'express';

export type ReadinessCheck = () => Promise<unknown>;

/** `/healthz`: the process answers. `/readyz`: every dependency answers within the timeout, else 503 naming what is down. */
export function healthRoutes(checks: Record<string, ReadinessCheck>, timeoutMs = 2000): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const results = await runChecks(checks, timeoutMs);
    const down = Object.entries(results).filter(([, state]) => state !== 'up').map(([name]) => name);
    if (down.length === 0) {
      res.json({ status: 'ready', checks: results });
      return;
    }
    res.status(503).json({ status: 'unavailable', checks: results, error: `Not ready: ${down.join(', ')} down`, code: 'not_ready' });
  });
  return router;
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
