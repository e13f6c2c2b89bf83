/** One ride or delivery: why it ended (if it did not complete), its fields, route, price in parts and timeline. */
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { Link } from '../../mode/links';
import { errorUnlessInOtherMode, OtherModeNotice, useOtherMode } from '../../mode/OtherModeNotice';
import type { Delivery, Ride } from '../../api/types';
import { formatDate, formatMoney } from '../../ui/format';
import { humanLabel, vehicleLine } from '../../ui/labels';
import { QueryState } from '../../ui/QueryState';
import { RouteMap, placeName as place } from './RouteMap';
import { OutcomeNote, PriceTable, TimelineList } from './TripTimeline';
import { getTrip, getTripTimeline, type Trip, type TripKind } from './trips-api';

const COMPLETED = ['completed', 'delivered'];

/** The driver's or courier's last known position: live while under way, where the parcel was handed over once delivered. */
function lastPosition(kind: TripKind, trip: Trip) {
  if (kind === 'rides') {
    const at = (trip as Ride).vehicle_location;
    return at ? { lat: at.lat, lng: at.lng, label: "the driver's last position" } : null;
  }
  const delivery = trip as Delivery;
  const at = delivery.courier_location ?? delivery.proof_of_delivery?.location;
  if (!at) return null;
  return { lat: at.lat, lng: at.lng, label: delivery.courier_location ? "the courier's last position" : 'where the courier handed the parcel over' };
}

export function TripDetailPage({ kind }: { kind: TripKind }) {
  const { id = '' } = useParams();
  const trip = useQuery({ queryKey: [kind, 'one', id], queryFn: () => getTrip(kind, id) });
  const other = useOtherMode(trip.error, (mode) => getTrip(kind, id, mode));
  const timeline = useQuery({ queryKey: [kind, 'timeline', id], queryFn: () => getTripTimeline(kind, id), enabled: trip.isSuccess });
  const data = trip.data;
  const what = kind === 'rides' ? 'ride' : 'delivery';
  return (
    <section>
      <p>
        <Link to={`/${kind}`}>← All {kind}</Link>
      </p>
      <h1>{kind === 'rides' ? 'Ride' : 'Delivery'} {id}</h1>
      <QueryState isLoading={trip.isLoading || other.checking} error={errorUnlessInOtherMode(trip.error, other)} what={kind === 'rides' ? 'the ride' : 'the delivery'} />
      <OtherModeNotice other={other} what={what} />
      {timeline.data?.outcome && <OutcomeNote outcome={timeline.data.outcome} />}
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
      {data && (
        <>
          <h2>Route</h2>
          <RouteMap pickup={data.pickup} dropoff={data.dropoff} position={lastPosition(kind, data)} completed={COMPLETED.includes(data.status)} />
          <h2>Price</h2>
          {timeline.data && <PriceTable price={timeline.data.price} kind={kind} />}
          <h2>Timeline</h2>
          <p className="muted">Each status change with its time in your time zone, and the webhook events it sent; a message opens in its endpoint's message log.</p>
          <QueryState isLoading={timeline.isLoading} error={timeline.error} what={`the ${what}'s timeline`} />
          {timeline.data && <TimelineList timeline={timeline.data.timeline} />}
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
          <dt>Failure reason</dt>
          <dd>
            <code>{delivery.failure_reason}</code>
          </dd>
        </>
      )}
    </>
  );
}
