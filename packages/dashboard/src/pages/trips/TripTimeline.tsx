/** A trip's outcome, its timeline (with the webhook messages of each change) and its price in parts. */
import { Link } from '../../mode/links';
import { formatMoney } from '../../ui/format';
import { humanLabel } from '../../ui/labels';
import { messageLogPath, type PriceBreakdown, type TimelineEntry, type TripTimeline } from './trips-api';

export const ABSOLUTE_TIME: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit', timeZoneName: 'short' };

/** "29 Nov 2026, 14:05:10 GMT+1": the viewer's own time zone, named. */
export function absoluteTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, ABSOLUTE_TIME);
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
  ['second', 1],
];

/** "5 minutes ago", from `now`. */
export function relativeTime(iso: string, now = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const [unit, size] = UNITS.find(([, size]) => Math.abs(seconds) >= size) ?? ['second', 1];
  return new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' }).format(Math.round(seconds / size), unit);
}

export function OutcomeNote({ outcome }: { outcome: NonNullable<TripTimeline['outcome']> }) {
  return (
    <div className="outcome" role="note" aria-labelledby="outcome-heading" data-testid="trip-outcome">
      <h2 id="outcome-heading">Why it ended</h2>
      <p>
        <strong>{outcome.summary}</strong>
      </p>
      <p>{outcome.next_step}</p>
      <p className="muted">
        Reason code: <code>{outcome.code}</code>
      </p>
    </div>
  );
}

const MESSAGE_STATUS: Record<string, string> = { pending: 'Pending', succeeded: 'Delivered', failed: 'Failed' };

function EntryEvents({ entry }: { entry: TimelineEntry }) {
  if (entry.events.length === 0) return null;
  return (
    <ul className="timeline-events">
      {entry.events.map((event) => (
        <li key={event.id}>
          Event <code>{event.type}</code> <span className="muted">{event.id}</span>
          {event.messages.length === 0 ? (
            <span className="muted"> — no endpoint subscribed, nothing sent</span>
          ) : (
            <ul>
              {event.messages.map((message) => (
                <li key={message.id}>
                  <Link to={messageLogPath(event.type, message)}>Message {message.id}</Link> to {message.endpoint_url ?? `${message.endpoint_id} (deleted)`}:{' '}
                  <span data-testid="message-status">{MESSAGE_STATUS[message.status] ?? humanLabel(message.status)}</span>
                  {message.last_status_code !== null && ` (HTTP ${message.last_status_code}, ${message.attempts} attempt${message.attempts === 1 ? '' : 's'})`}
                </li>
              ))}
            </ul>
          )}
        </li>
      ))}
    </ul>
  );
}

export function TimelineList({ timeline }: { timeline: TimelineEntry[] }) {
  return (
    <ol className="timeline" data-testid="status-history">
      {timeline.map((entry, index) => (
        <li key={`${entry.status}-${index}`}>
          <strong>{humanLabel(entry.status)}</strong> — <time dateTime={entry.at}>{absoluteTime(entry.at)}</time> <span className="muted">({relativeTime(entry.at)})</span>
          <EntryEvents entry={entry} />
        </li>
      ))}
    </ol>
  );
}

export function PriceTable({ price, kind }: { price: PriceBreakdown; kind: 'rides' | 'deliveries' }) {
  const money = (amount: number) => formatMoney({ amount, currency: price.currency });
  const km = (price.distance_meters / 1000).toFixed(1);
  const rows: [string, string, string][] = [
    ['Base', money(price.base), kind === 'rides' ? 'Flat amount of the tier' : 'Flat amount of the weight tier'],
    ['Distance', money(price.distance), `${km} km by road (straight line × 1.3)`],
    ['Time', money(price.time), price.duration_seconds === null ? 'Deliveries are not charged by time' : `${Math.round(price.duration_seconds / 60)} min at the tier's average speed`],
    ['Surge', money(price.surge), 'No surge pricing'],
    ['Adjustment', money(price.adjustment), 'Minimum fare top-up and rounding'],
  ];
  return (
    <table className="price" data-testid="price-breakdown">
      <caption>{kind === 'rides' ? 'Fare' : 'Fee'} in parts ({price.currency})</caption>
      <thead>
        <tr>
          <th scope="col">Part</th>
          <th scope="col">Amount</th>
          <th scope="col">How</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(([part, amount, how]) => (
          <tr key={part}>
            <th scope="row">{part}</th>
            <td>{amount}</td>
            <td className="muted">{how}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">Total</th>
          <td>
            <strong>{money(price.total)}</strong>
          </td>
          <td className="muted">Currency {price.currency}</td>
        </tr>
      </tfoot>
    </table>
  );
}
