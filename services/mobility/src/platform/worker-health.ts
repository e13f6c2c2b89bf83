import { createServer, type Server, type ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';

/** What the health endpoint needs of a BullMQ Worker. */
export interface RunningWorker {
  readonly name: string;
  isRunning(): boolean;
}

/**
 * The worker's optional probe and metrics listener (WORKER_METRICS_PORT): `/healthz` answers 200 while every BullMQ
 * worker runs and 503 naming the stopped ones otherwise; `/metrics` is Prometheus text; anything else is a 404.
 */
export function createWorkerHealthServer(workers: RunningWorker[], registry: Registry): Server {
  return createServer((req, res) => {
    const route = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, { error: 'Method not allowed', code: 'method_not_allowed' });
    if (route === '/healthz') return sendHealth(res, workers);
    if (route === '/metrics') {
      return void registry.metrics().then(
        (text) => res.writeHead(200, { 'Content-Type': registry.contentType }).end(text),
        () => sendJson(res, 503, { error: 'Metrics unavailable', code: 'metrics_unavailable' }),
      );
    }
    sendJson(res, 404, { error: 'Route not found', code: 'route_not_found' });
  });
}

function sendHealth(res: ServerResponse, workers: RunningWorker[]): void {
  const states = Object.fromEntries(workers.map((worker) => [worker.name, worker.isRunning() ? 'running' : 'stopped']));
  const stopped = workers.filter((worker) => !worker.isRunning()).map((worker) => worker.name);
  if (stopped.length === 0) return sendJson(res, 200, { status: 'ok', workers: states });
  sendJson(res, 503, { status: 'unavailable', workers: states, error: `Not running: ${stopped.join(', ')}`, code: 'not_running' });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
}
