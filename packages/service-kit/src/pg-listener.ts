import pg from 'pg';
import type { Logger } from './logger';

export interface ChannelHandlers {
  /** One call per notification, with its payload ('' when the sender sent none) and the channel it came on. */
  onNotify(payload: string, channel: string): void;
  /** The LISTEN is in place (first time and after every reconnect): notifications sent while no one listened are lost. */
  onListening?(): void;
  /** The connection is gone; `onListening` follows once it is back. */
  onLost?(): void;
}

export interface ChannelListenerOptions {
  /**
   * Set as the connection's `application_name` once its LISTENs are in place, so other sessions can find every
   * listening connection in `pg_stat_activity` (and none that is still connecting).
   */
  applicationName?: string;
}

export interface ChannelListener {
  /** Settles once the first connection attempt has ended, listening or not. */
  ready: Promise<void>;
  /** Runs a statement on the listening connection; rejects while it is down. */
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<pg.QueryResult<R>>;
  close(): Promise<void>;
}

const RECONNECT_DELAY_MS = 1000;
const CHANNEL_NAME = /^[a-z_][a-z0-9_]*$/;

/**
 * A dedicated Postgres connection that LISTENs on one or more channels. A lost connection is re-opened after a second;
 * callers learn of the gap through `onLost` / `onListening`, since notifications sent meanwhile never arrive.
 */
export function listenToChannel(
  databaseUrl: string,
  channel: string | string[],
  handlers: ChannelHandlers,
  logger: Logger,
  options: ChannelListenerOptions = {},
): ChannelListener {
  const channels = typeof channel === 'string' ? [channel] : channel;
  for (const name of channels) if (!CHANNEL_NAME.test(name)) throw new Error(`Invalid channel name: ${name}`);
  let client: pg.Client | undefined;
  let listening = false;
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
    listening = false;
    next.on('notification', (message) => handlers.onNotify(message.payload ?? '', message.channel));
    next.on('error', (err) => {
      logger.warn({ err, channel }, 'LISTEN connection lost; reconnecting');
      if (client === next) listening = false;
      handlers.onLost?.();
      void next.end().catch(() => undefined);
      reconnectSoon();
    });
    try {
      await next.connect();
      for (const name of channels) await next.query(`LISTEN ${name}`);
      if (options.applicationName) await next.query('select set_config($1, $2, false)', ['application_name', options.applicationName]);
      if (closed) await next.end();
      else {
        listening = true;
        handlers.onListening?.();
      }
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
    query(sql, params) {
      if (!client || !listening) return Promise.reject(new Error('The LISTEN connection is down'));
      return client.query(sql, params);
    },
    async close() {
      closed = true;
      listening = false;
      clearTimeout(retry);
      await ready;
      handlers.onLost?.();
      await client?.end().catch(() => undefined);
    },
  };
}
