/** /rides and /deliveries: newest first, filtered by status, a page at a time. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { SelectField } from '../../ui/fields';
import { formatDate, formatMoney } from '../../ui/format';
import { humanLabel } from '../../ui/labels';
import { Pager } from '../../ui/Pager';
import { QueryState } from '../../ui/QueryState';
import { listTrips, STATUSES, type Trip, type TripKind } from './trips-api';

const TITLES: Record<TripKind, string> = { rides: 'Rides', deliveries: 'Deliveries' };

function amountOf(trip: Trip) {
  return 'fare' in trip ? formatMoney(trip.fare as { amount: number; currency: string }) : formatMoney(trip.fee);
}

export function TripsPage({ kind }: { kind: TripKind }) {
  const [status, setStatus] = useState('');
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const page = useQuery({ queryKey: [kind, status, cursor], queryFn: () => listTrips(kind, status || undefined, cursor), placeholderData: keepPreviousData });
  return (
    <section>
      <h1>{TITLES[kind]}</h1>
      <SelectField label="Status" name="status" value={status} onChange={(event) => { setStatus(event.target.value); setCursors([undefined]); }}
        options={[{ value: '', label: 'Any' }, ...STATUSES[kind].map((value) => ({ value, label: humanLabel(value) }))]} />
      <QueryState isLoading={page.isLoading} error={page.error} what={kind} />
      {page.data && (
        <>
          <div className="table-wrap">
            <table>
              <caption>{TITLES[kind]}, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">ID</th>
                  <th scope="col">Status</th>
                  <th scope="col">{kind === 'rides' ? 'Fare' : 'Fee'}</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {page.data.data.length === 0 && (
                  <tr>
                    <td colSpan={4}>Nothing here yet.</td>
                  </tr>
                )}
                {page.data.data.map((trip) => (
                  <tr key={trip.id}>
                    <td>
                      <Link to={`/${kind}/${encodeURIComponent(trip.id)}`}>{trip.id}</Link>
                    </td>
                    <td>{humanLabel(trip.status)}</td>
                    <td>{amountOf(trip)}</td>
                    <td>{formatDate(trip.created_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager label={`${TITLES[kind]} pages`} hasPrevious={cursors.length > 1} hasNext={Boolean(page.data.has_more)}
            onPrevious={() => setCursors(cursors.slice(0, -1))} onNext={() => setCursors([...cursors, page.data.next_cursor ?? undefined])} />
        </>
      )}
    </section>
  );
}
