/**
 * An endpoint's delivery statistics as Svix shows them: over the last 24 hours and 7 days, the share of attempts
 * answered 2xx, the attempts' median and 95th-percentile latency, and how many messages and attempts were sent.
 */
import { useQuery } from '@tanstack/react-query';
import { DataModeLabel } from '../../mode/DataModeLabel';
import { QueryState } from '../../ui/QueryState';
import { formatDateTime } from '../../ui/format';
import { getEndpointStats, type EndpointStats as Stats } from './webhooks-api';

type Window = Stats['windows'][number];

const WINDOW_LABELS: Record<Window['window'], string> = { '24h': 'Last 24 hours', '7d': 'Last 7 days' };

const percent = (rate: number | null) => (rate === null ? '—' : `${(rate * 100).toFixed(rate === 1 || rate === 0 ? 0 : 1)} %`);
const millis = (value: number | null) => (value === null ? '—' : `${Math.round(value)} ms`);

const ROWS: { label: string; value: (window: Window) => string; testId: string }[] = [
  { label: 'Success rate', value: (w) => percent(w.success_rate), testId: 'success-rate' },
  { label: 'Latency p50', value: (w) => millis(w.latency_ms.p50), testId: 'latency-p50' },
  { label: 'Latency p95', value: (w) => millis(w.latency_ms.p95), testId: 'latency-p95' },
  { label: 'Messages', value: (w) => String(w.messages), testId: 'messages' },
  { label: 'Attempts', value: (w) => `${w.attempts} (${w.failed} failed)`, testId: 'attempts' },
];

export function EndpointStats({ endpointId }: { endpointId: string }) {
  const stats = useQuery({ queryKey: ['webhook-deliveries', endpointId, 'endpoint-stats'], queryFn: () => getEndpointStats(endpointId) });
  const windows = stats.data?.windows ?? [];
  const time = stats.data ? formatDateTime(stats.data.computed_at) : undefined;
  return (
    <section aria-labelledby="endpoint-stats-title" className="card">
      <h2 id="endpoint-stats-title">Delivery statistics</h2>
      <p className="hint">
        <DataModeLabel scope="current" />
      </p>
      <QueryState isLoading={stats.isLoading} error={stats.error} what="the endpoint's statistics" />
      {stats.data && windows.every((w) => w.attempts === 0) && (
        <p data-testid="endpoint-stats-empty">No attempts in the last 7 days. Send a test or example event below to see this endpoint's success rate and latency.</p>
      )}
      {stats.data && windows.some((w) => w.attempts > 0) && (
        <div className="table-wrap">
          <table data-testid="endpoint-stats">
            <caption>
              Attempts to this endpoint (each HTTP request sent), as of <time dateTime={stats.data.computed_at} title={time?.absolute}>{time?.relative}</time>
            </caption>
            <thead>
              <tr>
                <th scope="col">Measure</th>
                {windows.map((w) => (
                  <th key={w.window} scope="col">
                    {WINDOW_LABELS[w.window]}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {ROWS.map((row) => (
                <tr key={row.label}>
                  <th scope="row">{row.label}</th>
                  {windows.map((w) => (
                    <td key={w.window} data-testid={`${row.testId}-${w.window}`}>
                      {row.value(w)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
