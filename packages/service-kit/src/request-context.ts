import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

const storage = new AsyncLocalStorage<{ requestId: string }>();

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request id from the caller when it is a sane token, else a new one. */
export function requestIdFor(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  if (typeof given === 'string' && REQUEST_ID_PATTERN.test(given)) return given;
  return randomUUID();
}

export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

/** Express middleware: sets X-Request-Id on the response and keeps it for the logger. */
export function requestContext() {
  return (req: IncomingMessage & { id?: string }, res: ServerResponse, next: () => void) => {
    const requestId = requestIdFor(req);
    req.id = requestId;
    req.headers['x-request-id'] = requestId;
    res.setHeader('X-Request-Id', requestId);
    storage.run({ requestId }, next);
  };
}
