import pg from 'pg';
import type { Logger } from './logger';

export interface ChannelHandlers {
  /** One call per notification, with its payload ('' when the sender sent none). */
  onNotify(payload: string): void;
  /** The LISTEN is in place (first time and after every reconnect): notifications sent while no one listened are lost. */
  onListening?(): void;
  /** The connection is gone; `onListening` follows once it is back. */
  onLost?(): void;
}

export interface ChannelListener {
  /** Settles once the first connection attempt has ended, listening or not. */
  ready: Promise<void>;
  close(): Promise<void>;
}

const RECONNECT_DELAY_MS = 1000;

/**
 * A dedicated Postgres connection that LISTENs on one channel. A lost connection is re-opened after a second; callers
 * learn of the gap through `onLost` / `onListening`, since notifications sent meanwhile never arrive.
 */
export function listenToChannel(databaseUrl: string, channel: string, handlers: ChannelHandlers, logger: Logger): ChannelListener {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Invalid channel name: ${channel}`);
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const reconnectSoon = () => {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, RECONNECT_DELAY_MS);
  };

  async function connect(): Promise<void> {
    const next = new pg.Client({ connectionString: databaseUrl });
    client = next;
    next.on('notification', (message) => handlers.onNotify(message.payload ?? ''));
    next.on('error', (err) => {
      logger.warn({ err, channel }, 'LISTEN connection lost; reconnecting');
      handlers.onLost?.();
      void next.end().catch(() => undefined);
      reconnectSoon();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${channel}`);
      if (closed) await next.end();
      else handlers.onListening?.();
    } catch (err) {
      if (closed) return;
      logger.warn({ err, channel }, 'could not LISTEN; retrying');
      void next.end().catch(() => undefined);
      reconnectSoon();
    }
  }

  const ready = connect();
  return {
    ready,
    async close() {
      closed = true;
      clearTimeout(retry);
      await ready;
      handlers.onLost?.();
      await client?.end().catch(() => undefined);
    },
  };
}
