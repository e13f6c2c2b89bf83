import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_REDIS_URL, env } from '@platform/service-kit/config';

export const DEFAULT_OPENAPI_FILES = {
  certificate: path.resolve(__dirname, '../../services/certificate/openapi.yaml'),
  mobility: path.resolve(__dirname, '../../services/mobility/openapi.yaml'),
};

export const gatewayConfigSchema = z
  .object({
    PORT: env.port(8080),
    CERTIFICATE_URL: env.url('http://127.0.0.1:3001'),
    MOBILITY_URL: env.url('http://127.0.0.1:3002'),
    UPSTREAM_TIMEOUT_MS: env.positiveInt(30000),
    LOG_LEVEL: env.logLevel(),
    REDIS_URL: env.url(DEFAULT_REDIS_URL),
    REDIS_PREFIX: z.string().regex(/^[A-Za-z0-9_.-]+$/, 'must be letters, digits, _ . or -').default('platform'),
    RATE_LIMIT_PER_MINUTE: env.positiveInt(600),
    /** Hops of trusted reverse proxies in front of the gateway (0: the socket's address is the client's IP). */
    TRUST_PROXY_HOPS: z.coerce.number({ message: 'must be a whole number' }).int('must be a whole number').min(0, 'must be 0 or more').default(0),
    TLS_CERT_FILE: z.string().optional(),
    TLS_KEY_FILE: z.string().optional(),
    /** Where the gateway reads each service's description for `/openapi.json` and `/docs` (read at start-up, so docs work while a service is down). */
    CERTIFICATE_OPENAPI_FILE: z.string().min(1).default(DEFAULT_OPENAPI_FILES.certificate),
    MOBILITY_OPENAPI_FILE: z.string().min(1).default(DEFAULT_OPENAPI_FILES.mobility),
  })
  .superRefine((config, ctx) => {
    if ((config.TLS_CERT_FILE === undefined) !== (config.TLS_KEY_FILE === undefined)) {
      const [missing, other] = config.TLS_CERT_FILE === undefined ? ['TLS_CERT_FILE', 'TLS_KEY_FILE'] : ['TLS_KEY_FILE', 'TLS_CERT_FILE'];
      ctx.addIssue({ code: 'custom', path: [missing], message: `must be set when ${other} is` });
    }
  });

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;
