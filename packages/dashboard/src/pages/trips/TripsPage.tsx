/** /rides and /deliveries: newest first, filtered by status, a page at a time. */
import { useState } from 'react';
import { Link } from '../../mode/links';
import { DataTable } from '../../ui/DataTable';
import { SelectField } from '../../ui/fields';
import { formatDate, formatMoney } from '../../ui/format';
import { humanLabel } from '../../ui/labels';
import { Pager } from '../../ui/Pager';
import { usePagedList } from '../../ui/usePagedList';
import { listTrips, STATUSES, type Trip, type TripKind } from './trips-api';
import { TRIP_VALUES } from '../../ui/list-columns';

const TITLES: Record<TripKind, string> = { rides: 'Rides', deliveries: 'Deliveries' };

function amountOf(trip: Trip) {
  return 'fare' in trip ? formatMoney(trip.fare as { amount: number; currency: string }) : formatMoney(trip.fee);
}

export function TripsPage({ kind }: { kind: TripKind }) {
  const [status, setStatus] = useState('');
  const list = usePagedList({ queryKey: [kind, status], fetchPage: (cursor) => listTrips(kind, status || undefined, cursor), keepPreviousPage: true });
  const page = list.query;
  return (
    <section>
      <h1>{TITLES[kind]}</h1>
      <SelectField label="Status" name="status" value={status} onChange={(event) => { setStatus(event.target.value); list.toFirstPage(); }}
        options={[{ value: '', label: 'Any' }, ...STATUSES[kind].map((value) => ({ value, label: humanLabel(value) }))]} />
      <DataTable dataMode="current" query={page} what={kind} caption={`${TITLES[kind]}, newest first`} columns={['ID', 'Status', kind === 'rides' ? 'Fare' : 'Fee', 'Created']}
        rows={page.data?.data} rowKey={(trip) => trip.id} values={TRIP_VALUES} exportName={kind} loadAllRows={list.loadAll}
        empty={status ? `No ${kind} with this status. Choose another status, or Any.` : `No ${kind} yet. Create one with the partner API (an API key is on the API keys page).`}
        renderRow={(trip) => (
          <tr>
            <td>
              <Link to={`/${kind}/${encodeURIComponent(trip.id)}`}>{trip.id}</Link>
            </td>
            <td>{humanLabel(trip.status)}</td>
            <td>{amountOf(trip)}</td>
            <td>{formatDate(trip.created_at)}</td>
          </tr>
        )}
        footer={<Pager label={`${TITLES[kind]} pages`} {...list.pager} />} />
    </section>
  );
}
