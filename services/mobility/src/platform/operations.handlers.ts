import { openApiRoute, type OpenApiDocument } from '@platform/service-kit/openapi';
import { readinessAnswer, type ReadinessCheck } from '@platform/service-kit/health';
import type { Metrics } from '@platform/service-kit/metrics';
import type { Handlers } from '@platform/service-kit/operations';
import type { operationsContract } from './operations.contract';

export interface OperationsHandlerDeps {
  /** `/readyz`: each dependency's probe (Postgres, Redis), answered within `timeoutMs` or counted down. */
  readiness: Record<string, ReadinessCheck>;
  timeoutMs?: number;
  metrics: Metrics;
  /** `/openapi.json`: the description, serialised once. */
  description: OpenApiDocument;
}

/** The service's own operations: liveness, readiness, Prometheus metrics and the published description. */
export function operationsHandlers({ readiness, timeoutMs = 2000, metrics, description }: OperationsHandlerDeps): Handlers<typeof operationsContract> {
  const scrape = metrics.handler();
  const describe = openApiRoute(description);
  return {
    healthz: () => ({ status: 200, body: { status: 'ok' } }),
    readyz: () => readinessAnswer(readiness, timeoutMs),
    // Prometheus text and the description's bytes are written by service-kit's own handlers.
    metrics: async ({ req, res }) => {
      await scrape(req, res, (error?: unknown) => {
        if (error) throw error;
      });
    },
    openapi: ({ req, res }) => {
      void describe(req, res, () => undefined);
    },
  };
}
