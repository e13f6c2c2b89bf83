import { sendJson, startFakeServer } from '@platform/test-kit';
import { createApp } from '../../src/app';
import type { TestContext } from './context';
import { createIsolatedContext, silentLogger, type IsolatedContext } from './webhooks';

export interface DeliveringApp {
  isolated: IsolatedContext;
  /** The whole mobility app on the isolated database and Redis prefix. */
  ctx: TestContext;
  /** A loopback receiver answering every delivery 200. */
  receiver: Awaited<ReturnType<typeof startFakeServer>>;
}

/**
 * The mobility app on its own database and Redis prefix with webhook delivery running, and a receiver that accepts
 * everything: for suites that follow an event from a partner request to a signed POST.
 */
export async function startDeliveringApp(): Promise<DeliveringApp> {
  const isolated = await createIsolatedContext();
  const { db, redis, config } = isolated;
  const ctx = { app: createApp({ db, redis, config, logger: silentLogger }), db, redis, config, close: async () => undefined } as TestContext;
  const receiver = await startFakeServer((_req, res) => sendJson(res, 200, { ok: true }));
  isolated.startDelivery();
  return { isolated, ctx, receiver };
}

export async function stopDeliveringApp(app: DeliveringApp | undefined): Promise<void> {
  await app?.receiver.close();
  await app?.isolated.close();
}
