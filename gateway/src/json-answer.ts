import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

/** The gateway's own error answers: always JSON `{error, code}`, never HTML. */
export function answerJson(res: ServerResponse, status: number, body: { error: string; code: string }, headers: OutgoingHttpHeaders = {}): void {
  if (res.headersSent || res.destroyed) {
    res.destroy();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}
