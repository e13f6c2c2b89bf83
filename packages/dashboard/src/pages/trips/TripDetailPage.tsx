/** One ride or delivery: its fields and its status history. */
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { Link } from '../../mode/links';
import { errorUnlessInOtherMode, OtherModeNotice, useOtherMode } from '../../mode/OtherModeNotice';
import type { Delivery, Ride } from '../../api/types';
import { formatDate, formatMoney } from '../../ui/format';
import { humanLabel, vehicleLine } from '../../ui/labels';
import { QueryState } from '../../ui/QueryState';
import { getTrip, listTripEvents, type TripKind } from './trips-api';

const place = (value: { lat: number; lng: number; address?: string | null }) => value.address ?? `${value.lat}, ${value.lng}`;

export function TripDetailPage({ kind }: { kind: TripKind }) {
  const { id = '' } = useParams();
  const trip = useQuery({ queryKey: [kind, 'one', id], queryFn: () => getTrip(kind, id) });
  const history = useQuery({ queryKey: ['events', id], queryFn: () => listTripEvents(id) });
  const other = useOtherMode(trip.error, (mode) => getTrip(kind, id, mode));
  const data = trip.data;
  return (
    <section>
      <p>
        <Link to={`/${kind}`}>← All {kind}</Link>
      </p>
      <h1>{kind === 'rides' ? 'Ride' : 'Delivery'} {id}</h1>
      <QueryState isLoading={trip.isLoading || other.checking} error={errorUnlessInOtherMode(trip.error, other)} what={kind === 'rides' ? 'the ride' : 'the delivery'} />
      <OtherModeNotice other={other} what={kind === 'rides' ? 'ride' : 'delivery'} />
      {data && (
        <dl className="details" data-testid="trip-details">
          <dt>Status</dt>
          <dd>{humanLabel(data.status)}</dd>
          <dt>Pickup</dt>
          <dd>{place(data.pickup)}</dd>
          <dt>Drop-off</dt>
          <dd>{place(data.dropoff)}</dd>
          {kind === 'rides' ? <RideFields ride={data as Ride} /> : <DeliveryFields delivery={data as Delivery} />}
          <dt>Created</dt>
          <dd>{formatDate(data.created_at)}</dd>
          <dt>Updated</dt>
          <dd>{formatDate(data.updated_at)}</dd>
        </dl>
      )}
      {/* The history of a job this mode has: none for one missing here (its events are in the other mode). */}
      {!trip.error && (
        <>
          <h2>Status history</h2>
          <QueryState isLoading={history.isLoading} error={history.error} what="the status history" />
          {history.data && (
            <ol data-testid="status-history">
              {history.data.length === 0 && <li>No status change yet.</li>}
              {history.data.map((event) => (
                <li key={event.id}>
                  <time dateTime={event.created_at}>{formatDate(event.created_at)}</time> — {event.data?.status ? humanLabel(event.data.status) : event.type}
                </li>
              ))}
            </ol>
          )}
        </>
      )}
    </section>
  );
}

function RideFields({ ride }: { ride: Ride }) {
  return (
    <>
      <dt>Tier</dt>
      <dd>{humanLabel(ride.tier)}</dd>
      <dt>Fare</dt>
      <dd>{formatMoney(ride.fare as unknown as { amount: number; currency: string })}</dd>
      {typeof ride.fare.covered_by_pass === 'number' && (
        <>
          <dt>Event pass covered</dt>
          <dd data-testid="pass-covered">
            {formatMoney({ amount: ride.fare.covered_by_pass, currency: ride.fare.currency })}; the rider pays{' '}
            {formatMoney({ amount: ride.fare.rider_pays ?? ride.fare.amount - ride.fare.covered_by_pass, currency: ride.fare.currency })}
          </dd>
        </>
      )}
      <dt>Passenger</dt>
      <dd>{ride.passenger.name}</dd>
      <dt>Driver</dt>
      <dd data-testid="assignee">{ride.driver ? `${ride.driver.name} — ${vehicleLine(ride.driver.vehicle)}` : '—'}</dd>
      {ride.cancelled_by && (
        <>
          <dt>Cancelled by</dt>
          <dd>{humanLabel(ride.cancelled_by)}</dd>
        </>
      )}
    </>
  );
}

function DeliveryFields({ delivery }: { delivery: Delivery }) {
  return (
    <>
      <dt>Weight tier</dt>
      <dd>{humanLabel(delivery.weight_tier)}</dd>
      <dt>Fee</dt>
      <dd>{formatMoney(delivery.fee)}</dd>
      <dt>Sender → recipient</dt>
      <dd>
        {delivery.sender.name} → {delivery.recipient.name}
      </dd>
      <dt>Courier</dt>
      <dd data-testid="assignee">{delivery.courier ? `${delivery.courier.name} — ${vehicleLine(delivery.courier.vehicle)}` : '—'}</dd>
      {delivery.proof_of_delivery && (
        <>
          <dt>Delivered</dt>
          <dd>
            {formatDate(delivery.proof_of_delivery.delivered_at)}
            {delivery.proof_of_delivery.received_by ? `, received by ${delivery.proof_of_delivery.received_by}` : ''}
          </dd>
        </>
      )}
      {delivery.failure_reason && (
        <>
          <dt>Failure</dt>
          <dd>{delivery.failure_reason}</dd>
        </>
      )}
    </>
  );
}
