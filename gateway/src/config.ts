import path from 'node:path';
import { z } from 'zod';
import { env } from '@platform/service-kit';

export const DEFAULT_OPENAPI_FILES = {
  certificate: path.resolve(__dirname, '../../services/certificate/openapi.yaml'),
  mobility: path.resolve(__dirname, '../../services/mobility/openapi.yaml'),
};

export const gatewayConfigSchema = z.object({
  PORT: env.port(8080),
  CERTIFICATE_URL: env.url('http://127.0.0.1:3001'),
  MOBILITY_URL: env.url('http://127.0.0.1:3002'),
  UPSTREAM_TIMEOUT_MS: env.positiveInt(30000),
  LOG_LEVEL: env.logLevel(),
  /** Where the gateway reads each service's description for `/openapi.json` and `/docs` (read at start-up, so docs work while a service is down). */
  CERTIFICATE_OPENAPI_FILE: z.string().min(1).default(DEFAULT_OPENAPI_FILES.certificate),
  MOBILITY_OPENAPI_FILE: z.string().min(1).default(DEFAULT_OPENAPI_FILES.mobility),
});

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;
