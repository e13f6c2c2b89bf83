import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RunningServer {
  url: string;
  port: number;
  server: Server;
  close(): Promise<void>;
}

/** Listens on an ephemeral loopback port. */
export async function listen(handler: RequestListener | Server): Promise<RunningServer> {
  const server = typeof handler === 'function' ? createServer(handler) : handler;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export type FakeReply = (request: RecordedRequest, res: ServerResponse) => void | Promise<void>;

/** A third party faked as a real HTTP server: records every request with its exact body bytes and answers with `reply`. */
export async function startFakeServer(reply: FakeReply): Promise<RunningServer & { requests: RecordedRequest[]; setReply(next: FakeReply): void }> {
  const requests: RecordedRequest[] = [];
  let current = reply;
  const running = await listen((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      requests.push(recorded);
      void Promise.resolve(current(recorded, res)).catch(() => res.destroy());
    });
  });
  return { ...running, requests, setReply: (next) => (current = next) };
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}
