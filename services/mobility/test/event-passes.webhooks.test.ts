import { verifyStandardWebhook } from '@platform/webhook-signature';
import type { TestContext } from './helpers/context';
import { startDeliveringApp, stopDeliveringApp, type DeliveringApp } from './helpers/delivering-app';
import { waitFor } from '@platform/test-kit';
import { organizer, programWithPasses, rideToVenue } from './factories/event-passes';
import { randomCentre } from './factories/fleet';

let ctx: TestContext;
let receiver: DeliveringApp['receiver'];

let started: DeliveringApp | undefined;
beforeAll(async () => {
  started = await startDeliveringApp();
  ({ ctx, receiver } = started);
});
afterAll(() => stopDeliveringApp(started));

describe('event pass webhooks', () => {
  it('delivers event_pass.redeemed, event_pass.released and budget_exhausted (once), signed, to an endpoint subscribed to them', async () => {
    const venue = randomCentre();
    const { api } = await organizer(ctx);
    const events = ['event_pass.redeemed', 'event_pass.released', 'event_pass_program.budget_exhausted'];
    const endpoint = (await api.post('/api/v1/webhooks', { url: `${receiver.url}/hooks/passes`, events }).expect(201)).body;
    expect(endpoint.events).toEqual(events);
    const { program, passes } = await programWithPasses(api, venue, 2, { max_fare_per_ride: 500, budget: 500, rides_per_pass: 1 });

    const ride = (await api.post('/api/v1/rides', rideToVenue(venue, passes[0]!.code)).expect(201)).body;
    await api.post(`/api/v1/rides/${ride.id}/cancel`).expect(200);

    const received = () => receiver.requests.filter((r) => r.url === '/hooks/passes');
    await waitFor(() => received().length >= 3, 'three event pass deliveries');
    const bodies = received().map((r) => JSON.parse(r.body.toString('utf8')));
    expect(bodies.map((b) => b.type).sort()).toEqual(['event_pass.redeemed', 'event_pass.released', 'event_pass_program.budget_exhausted']);
    expect(bodies.find((b) => b.type === 'event_pass.released').data).toMatchObject({ ride_id: ride.id, ride_status: 'cancelled', program_id: program.id, status: 'released' });
    expect(bodies.find((b) => b.type === 'event_pass_program.budget_exhausted').data).toMatchObject({ id: program.id, usage: { budget_left: 0 } });
    for (const delivery of received()) expect(verifyStandardWebhook(delivery.body, delivery.headers, endpoint.secret)).toBe(true);
    // The ride's own events (ride.cancelled) are not sent to an endpoint that did not subscribe to them.
    expect(bodies.some((b) => b.type.startsWith('ride.'))).toBe(false);
  });
});
