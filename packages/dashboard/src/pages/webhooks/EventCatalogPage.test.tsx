import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../../test/fake-api';
import { renderApp, session } from '../../test/render';

const description = {
  components: {
    schemas: {
      EventPassRedemption: { type: 'object', properties: { id: { type: 'string', pattern: '^epr_' } } },
      Ride: { type: 'object', properties: { status: { type: 'string' } } },
    },
  },
};

/** A paragraph whose whole text (its <code> parts included) is `text`. */
const paragraph = (text: string) => (_: string, element: Element | null) => element?.tagName === 'P' && element.textContent === text;

describe('event catalog', () => {
  it("names each event's data schema without a grammatical article", async () => {
    fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /openapi.json': { body: description },
    });
    renderApp('/webhooks/event-types');
    const redeemed = await screen.findByTestId('event-event_pass.redeemed');
    expect(within(redeemed).getByText(paragraph('data: EventPassRedemption object'))).toBeTruthy();
    expect(within(screen.getByTestId('event-ride.completed')).getByText(paragraph('data: Ride object'))).toBeTruthy();
    expect(screen.queryAllByText((_, element) => element?.tagName === 'P' && / is an? /.test(element.textContent ?? ''))).toEqual([]);
  });
});
