import pg from 'pg';
import type { Logger } from '@platform/service-kit';

/** The channel the `outbox_events_notify` trigger (migration 0120) notifies when outbox events commit. */
export const OUTBOX_NOTIFY_CHANNEL = 'mobility_outbox_events';

/**
 * A dedicated Postgres connection that LISTENs for committed outbox events and calls `onCommit` for each
 * notification. A lost connection is re-opened after a second; meanwhile the relay's poll still finds every event.
 */
export function listenForOutboxCommits(databaseUrl: string, onCommit: () => void, logger: Logger) {
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const reconnectSoon = () => {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, 1000);
  };

  async function connect(): Promise<void> {
    const next = new pg.Client({ connectionString: databaseUrl });
    client = next;
    next.on('notification', () => onCommit());
    next.on('error', (err) => {
      logger.warn({ err }, 'outbox LISTEN connection lost; polling until it is back');
      void next.end().catch(() => undefined);
      reconnectSoon();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${OUTBOX_NOTIFY_CHANNEL}`);
      if (closed) await next.end();
      else onCommit(); // events committed while no one listened
    } catch (err) {
      if (closed) return;
      logger.warn({ err }, 'could not LISTEN for outbox events; polling until it works');
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
      await client?.end().catch(() => undefined);
    },
  };
}
