import { openApiRoute } from '@platform/service-kit/openapi';
import { readinessAnswer, type ReadinessCheck } from '@platform/service-kit/health';
import type { Metrics } from '@platform/service-kit/metrics';
import type { OpenApiDocument } from '@platform/service-kit/openapi';
import type { Handlers } from '@platform/service-kit/operations';
import type { operationsRouteTable } from './operations.contract';

/** How long `/readyz` waits for each dependency. */
const READINESS_TIMEOUT_MS = 2000;

/**
 * `/healthz` (the process answers), `/readyz` (every dependency answers within the timeout, else 503 naming what is
 * down), `/metrics` (Prometheus text) and `/openapi.json` (the description, built once).
 */
export function operationsHandlers({ checks, metrics, openApi }: { checks: Record<string, ReadinessCheck>; metrics: Metrics; openApi: OpenApiDocument }): Handlers<typeof operationsRouteTable> {
  const serveOpenApi = openApiRoute(openApi);
  return {
    healthz: () => ({ status: 200, body: { status: 'ok' } }),
    readyz: () => readinessAnswer(checks, READINESS_TIMEOUT_MS),
    metrics: async ({ res }) => {
      res.setHeader('Content-Type', metrics.registry.contentType);
      res.send(await metrics.registry.metrics());
    },
    openapi: ({ req, res }) => {
      serveOpenApi(req, res, () => undefined);
    },
  };
}
