import { z } from 'zod';
import { env } from '@platform/service-kit';

export const gatewayConfigSchema = z.object({
  PORT: env.port(8080),
  CERTIFICATE_URL: env.url('http://127.0.0.1:3001'),
  MOBILITY_URL: env.url('http://127.0.0.1:3002'),
  UPSTREAM_TIMEOUT_MS: env.positiveInt(30000),
  LOG_LEVEL: env.logLevel(),
});

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;
