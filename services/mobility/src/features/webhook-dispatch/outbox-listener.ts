import { listenToChannel } from '@platform/service-kit/pg-listener';
import type { Logger } from '@platform/service-kit/logger';

/** The channel the `outbox_events_notify` trigger (migration 0120) notifies when outbox events commit. */
export const OUTBOX_NOTIFY_CHANNEL = 'mobility_outbox_events';

/**
 * LISTENs for committed outbox events and calls `onCommit` for each notification, and once whenever the LISTEN is
 * (re)established, for events committed while no one listened. A lost connection is re-opened after a second;
 * meanwhile the relay's poll still finds every event.
 */
export function listenForOutboxCommits(databaseUrl: string, onCommit: () => void, logger: Logger) {
  return listenToChannel(databaseUrl, OUTBOX_NOTIFY_CHANNEL, { onNotify: () => onCommit(), onListening: onCommit }, logger);
}
