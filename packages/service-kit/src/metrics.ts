import client from 'prom-client';
import type { RequestHandler } from 'express';
import { routeOf } from './request-log';

export interface Metrics {
  registry: client.Registry;
  httpMiddleware(): RequestHandler;
  /** Records one answered request as `httpMiddleware` does (for a handler in front of Express, such as a fast lane). */
  observe(method: string, route: string, status: number, seconds: number): void;
  handler(): RequestHandler;
}

/** A registry per process with default Node metrics and HTTP request count/latency by route and status. */
export function createMetrics(service: string): Metrics {
  const registry = new client.Registry();
  registry.setDefaultLabels({ service });
  client.collectDefaultMetrics({ register: registry });
  const duration = new client.Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  return {
    registry,
    httpMiddleware() {
      return (req, res, next) => {
        const start = process.hrtime.bigint();
        res.once('finish', () => {
          const seconds = Number(process.hrtime.bigint() - start) / 1e9;
          duration.observe({ method: req.method, route: routeOf(req, res), status: String(res.statusCode) }, seconds);
        });
        next();
      };
    },
    observe(method, route, status, seconds) {
      duration.observe({ method, route, status: String(status) }, seconds);
    },
    handler() {
      return async (_req, res) => {
        res.setHeader('Content-Type', registry.contentType);
        res.send(await registry.metrics());
      };
    },
  };
}
