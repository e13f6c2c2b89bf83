import { request, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';

export interface ServerSentEvent {
  id?: string;
  event: string;
  data: string;
}

export interface EventStreamClient {
  status: number;
  headers: IncomingHttpHeaders;
  /** The raw answer, for a body that is not a stream (an error's JSON). */
  response: IncomingMessage;
  /** Every event received so far, in order (comments and `retry:`-only blocks are not events). */
  events: ServerSentEvent[];
  /** How many `: comment` lines (heartbeats) arrived. */
  comments: number;
  /** Resolves with the `index`-th event (0-based) once it has arrived; rejects if the stream ends first. */
  event(index: number): Promise<ServerSentEvent>;
  /** Resolves when the server ended the stream. */
  ended: Promise<void>;
  /** Hangs up, as a browser tab closing would. */
  close(): void;
}

/** A real HTTP client reading a `text/event-stream` answer as it arrives (WHATWG event-stream parsing, enough for tests). */
export function openEventStream(url: string, headers: Record<string, string> = {}): Promise<EventStreamClient> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { Accept: 'text/event-stream', ...headers } }, (res) => {
      const events: ServerSentEvent[] = [];
      const waiters: { index: number; resolve(event: ServerSentEvent): void; reject(error: Error): void }[] = [];
      let buffer = '';
      let finished = false;
      const client: EventStreamClient = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        response: res,
        events,
        comments: 0,
        event(index) {
          const ready = events[index];
          if (ready) return Promise.resolve(ready);
          if (finished) return Promise.reject(new Error(`the stream ended after ${events.length} events, before event ${index}`));
          return new Promise((resolveEvent, rejectEvent) => waiters.push({ index, resolve: resolveEvent, reject: rejectEvent }));
        },
        ended: new Promise<void>((resolveEnd) => res.once('close', () => resolveEnd())),
        close: () => req.destroy(),
      };
      const settleWaiters = () => {
        for (const waiter of [...waiters]) {
          const ready = events[waiter.index];
          if (ready) waiter.resolve(ready);
          else if (finished) waiter.reject(new Error(`the stream ended after ${events.length} events, before event ${waiter.index}`));
          else continue;
          waiters.splice(waiters.indexOf(waiter), 1);
        }
      };
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk.replace(/\r\n?/g, '\n');
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event: ServerSentEvent = { event: 'message', data: '' };
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) {
              client.comments += 1;
              continue;
            }
            const colon = line.indexOf(':');
            const field = colon < 0 ? line : line.slice(0, colon);
            const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
            if (field === 'data') data.push(value);
            else if (field === 'event') event.event = value;
            else if (field === 'id') event.id = value;
          }
          if (data.length === 0) continue;
          event.data = data.join('\n');
          events.push(event);
        }
        settleWaiters();
      });
      res.once('close', () => {
        finished = true;
        settleWaiters();
      });
      res.on('error', () => undefined);
      resolve(client);
    });
    req.once('error', reject);
    req.end();
  });
}
