import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { PROBLEM_CONTENT_TYPE, problemBody } from '@platform/service-kit/problem-details';

/** The gateway's own error answers: always a Problem Details document (RFC 9457) keeping `{error, code}`, never HTML. */
export function answerJson(res: ServerResponse, status: number, body: { error: string; code: string }, headers: OutgoingHttpHeaders = {}): void {
  if (res.headersSent || res.destroyed) {
    res.destroy();
    return;
  }
  const text = JSON.stringify(problemBody(status, body.code, body.error));
  res.writeHead(status, { ...headers, 'Content-Type': PROBLEM_CONTENT_TYPE, 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}
