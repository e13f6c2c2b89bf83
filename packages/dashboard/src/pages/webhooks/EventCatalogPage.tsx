/** Every event an endpoint can receive: its `data` schema and an example payload (from the platform's /openapi.json). */
import { useQuery } from '@tanstack/react-query';
import { Link } from '../../mode/links';
import { QueryState } from '../../ui/QueryState';
import { catalogOf, loadDescription } from './event-catalog';
import { SendExampleForm } from './SendExampleForm';
import { EVENT_TYPES, LOCATION_EVENT_TYPES } from './webhooks-api';

export function EventCatalogPage() {
  const description = useQuery({ queryKey: ['openapi'], queryFn: loadDescription, staleTime: Infinity });
  const entries = description.data ? catalogOf(description.data, EVENT_TYPES, LOCATION_EVENT_TYPES) : [];
  return (
    <section>
      <p>
        <Link to="/webhooks">← Webhooks</Link>
      </p>
      <h1>Event catalog</h1>
      <p>
        Each event is sent as <code>{'{ id, type, created_at, livemode, data }'}</code>. Location events are opt-in: an endpoint receives them only when it
        lists them.
      </p>
      <QueryState isLoading={description.isLoading} error={description.error} what="the event catalog" />
      {entries.map((entry) => (
        <article key={entry.type} className="card" data-testid={`event-${entry.type}`} aria-labelledby={`event-${entry.type}-title`}>
          <h2 id={`event-${entry.type}-title`}>
            {entry.type} {entry.optIn && <span className="badge badge-test">Opt-in</span>}
          </h2>
          <p className="muted">
            <code>data</code>: <code>{entry.schemaName}</code> object
          </p>
          <details>
            <summary>Schema</summary>
            <pre className="code" tabIndex={0} aria-label={`Schema of ${entry.type}`}>
              {JSON.stringify(entry.schema, null, 2)}
            </pre>
          </details>
          <details>
            <summary>Example payload</summary>
            <pre className="code" tabIndex={0} aria-label={`Example payload of ${entry.type}`} data-testid="example-payload">
              {JSON.stringify(entry.example, null, 2)}
            </pre>
          </details>
          <details>
            <summary>Send example event</summary>
            <SendExampleForm eventType={entry.type} />
          </details>
        </article>
      ))}
    </section>
  );
}
