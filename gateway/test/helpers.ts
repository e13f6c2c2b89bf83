import pino from 'pino';
import { listen, type RunningServer } from '@platform/test-kit';
import { createApp } from '../src/app';

export async function startGateway(upstreams: { certificate: string; mobility: string }, timeoutMs = 30000): Promise<RunningServer> {
  const app = createApp({
    config: { CERTIFICATE_URL: upstreams.certificate, MOBILITY_URL: upstreams.mobility, UPSTREAM_TIMEOUT_MS: timeoutMs },
    logger: pino({ level: 'silent' }),
  });
  const { createServer } = await import('node:http');
  return listen(createServer(app));
}
