import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { request } from '../api/http';
import { fakeApi, problem, type FakeRequest } from '../test/fake-api';
import { renderApp, session } from '../test/render';

const ride = (id: string) => ({
  id,
  status: 'completed',
  tier: 'economy',
  pickup: { lat: 6.45, lng: 3.39, address: 'Marina' },
  dropoff: { lat: 6.5, lng: 3.35, address: 'Ikeja' },
  fare: { amount: 250000, currency: 'NGN' },
  passenger: { name: 'Tunde', phone: '+2348000000000' },
  driver: null,
  vehicle_location: null,
  cancelled_by: null,
  created_at: '2026-11-26T09:00:00Z',
  updated_at: '2026-11-26T09:30:00Z',
});
const page = <T,>(data: T[]) => ({ data, has_more: false, next_cursor: null });
const isTest = (request: FakeRequest) => request.query.get('mode') === 'test';

/** Rides: ride_test exists in test mode only, ride_live in live mode only. */
function ridesApi() {
  return fakeApi({
    'POST /dashboard/api/auth/sessions/refresh': { body: session() },
    'GET /dashboard/api/mobility/rides': (request) => ({ body: page([ride(isTest(request) ? 'ride_test' : 'ride_live')]) }),
    'GET /dashboard/api/mobility/rides/ride_test': (request) => (isTest(request) ? { body: ride('ride_test') } : problem(404, 'not_found', 'Ride not found')),
    'GET /dashboard/api/mobility/rides/ride_live': (request) => (isTest(request) ? problem(404, 'not_found', 'Ride not found') : { body: ride('ride_live') }),
    'GET /dashboard/api/mobility/events': { body: page([]) },
  });
}

const here = () => window.location.pathname;

describe('test mode in the URL', () => {
  it('opens a /dashboard/test/… URL in test mode, in a fresh tab (nothing stored)', async () => {
    const api = ridesApi();
    renderApp('/test/rides');
    expect(await screen.findByRole('link', { name: 'ride_test' })).toBeTruthy();
    expect(screen.getByTestId('test-mode-banner')).toBeTruthy();
    expect((screen.getByTestId('mode-switch') as HTMLInputElement).checked).toBe(true);
    expect(screen.getByTestId('data-mode-label').textContent).toBe('Test data');
    expect(api.calls('GET /dashboard/api/mobility/rides').every(isTest)).toBe(true);
    await waitFor(() => expect(document.title).toBe('Rides (test) · Partner dashboard'));
  });

  it('keeps the page when switching mode, both ways', async () => {
    const api = ridesApi();
    const { user } = renderApp('/rides');
    expect(await screen.findByRole('link', { name: 'ride_live' })).toBeTruthy();
    expect(screen.getByTestId('data-mode-label').textContent).toBe('Live data');
    await user.click(screen.getByTestId('mode-switch'));
    expect(await screen.findByRole('link', { name: 'ride_test' })).toBeTruthy();
    expect(here()).toBe('/dashboard/test/rides');
    expect(api.calls('GET /dashboard/api/mobility/rides').at(-1)!.query.get('mode')).toBe('test');
    await user.click(screen.getByTestId('mode-switch'));
    expect(await screen.findByRole('link', { name: 'ride_live' })).toBeTruthy();
    expect(here()).toBe('/dashboard/rides');
    expect(screen.queryByTestId('test-mode-banner')).toBeNull();
  });

  it('keeps the mode in every link: the navigation, the home link and a row\'s detail link', async () => {
    const api = ridesApi();
    const { user } = renderApp('/test/rides');
    const nav = await screen.findByRole('navigation', { name: 'Sections' });
    expect(within(nav).getByRole('link', { name: 'Webhooks' }).getAttribute('href')).toBe('/dashboard/test/webhooks');
    expect(within(nav).getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/dashboard/test');
    expect(screen.getByRole('link', { name: 'Partner dashboard' }).getAttribute('href')).toBe('/dashboard/test');
    await user.click(await screen.findByRole('link', { name: 'ride_test' }));
    expect(await screen.findByTestId('trip-details')).toBeTruthy();
    expect(here()).toBe('/dashboard/test/rides/ride_test');
    expect(api.calls('GET /dashboard/api/mobility/rides/ride_test').every(isTest)).toBe(true);
    expect(screen.getByRole('link', { name: '← All rides' }).getAttribute('href')).toBe('/dashboard/test/rides');
  });

  it('sends mode=test on the certificate service\'s certificates and API keys paths and the mobility data paths, nowhere else', async () => {
    const api = fakeApi({
      'GET /dashboard/api/certificate/certificates': { body: page([]) },
      'POST /dashboard/api/certificate/certificates/batch': { status: 201, body: page([]) },
      'GET /dashboard/api/certificate/certificates/cert_1/document': { body: {} },
      'GET /dashboard/api/certificate/api-keys': { body: page([]) },
      'GET /dashboard/api/certificate/templates': { body: page([]) },
      'GET /dashboard/api/certificate/members': { body: page([]) },
      'GET /dashboard/api/mobility/rides': { body: page([]) },
      'GET /dashboard/api/mobility/webhooks': { body: page([]) },
      'GET /dashboard/api/mobility/drivers': { body: page([]) },
      'GET /dashboard/api/certificate/summary': { body: {} },
    });
    window.history.pushState({}, '', '/dashboard/test/certificates');
    await request('certificate', '/certificates');
    await request('certificate', '/certificates/batch', { method: 'POST', body: 'a\n', contentType: 'text/csv' });
    await request('certificate', '/certificates/cert_1/document');
    await request('certificate', '/api-keys');
    await request('certificate', '/templates');
    await request('certificate', '/members');
    await request('mobility', '/rides');
    await request('mobility', '/webhooks');
    await request('mobility', '/drivers');
    await request('certificate', '/summary');
    expect(api.requests.map((sent) => `${sent.path} ${sent.query.get('mode')}`)).toEqual([
      '/dashboard/api/certificate/certificates test',
      '/dashboard/api/certificate/certificates/batch test',
      '/dashboard/api/certificate/certificates/cert_1/document test',
      '/dashboard/api/certificate/api-keys test',
      '/dashboard/api/certificate/templates null',
      '/dashboard/api/certificate/members null',
      '/dashboard/api/mobility/rides test',
      '/dashboard/api/mobility/webhooks test',
      '/dashboard/api/mobility/drivers null',
      '/dashboard/api/certificate/summary test',
    ]);
    // The same page in live mode: no mode at all (live is the default).
    window.history.pushState({}, '', '/dashboard/certificates');
    await request('certificate', '/certificates');
    expect(api.requests.at(-1)!.query.has('mode')).toBe(false);
  });

  it('issues certificates in test mode from /dashboard/test/certificates, labelled "Test data"', async () => {
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /dashboard/api/certificate/certificates': { body: page([]) },
      'GET /dashboard/api/certificate/templates': { body: page([]) },
    });
    renderApp('/test/certificates');
    const form = await screen.findByRole('form', { name: 'Issue a certificate' });
    expect(within(form).getByTestId('data-mode-label').textContent).toBe('Test data');
    await waitFor(() => expect(api.calls('GET /dashboard/api/certificate/certificates').length).toBeGreaterThan(0));
    expect(api.calls('GET /dashboard/api/certificate/certificates').every(isTest)).toBe(true);
  });

  it('says a live-only form is live only and keeps its submit off in test mode', async () => {
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /dashboard/api/mobility/event-pass-programs': { body: page([]) },
    });
    const { user } = renderApp('/test/event-passes');
    const form = await screen.findByRole('form', { name: 'Create a program' });
    expect(within(form).getByTestId('data-mode-label').textContent).toBe('Live data only');
    expect(within(form).getByTestId('live-only-notice').textContent).toBe('Event passes are live only, so it is off in test mode: switch to live.');
    expect(within(form).getByRole('link', { name: 'switch to live' }).getAttribute('href')).toBe('/dashboard/event-passes');
    const submit = within(form).getByRole('button', { name: 'Create program' });
    expect(submit.matches(':disabled')).toBe(true);
    await user.click(submit);
    expect(api.calls('POST /dashboard/api/mobility/event-pass-programs')).toEqual([]);
  });

  it('offers the other mode when a detail page\'s object is not in this one', async () => {
    const api = ridesApi();
    const { user } = renderApp('/test/rides/ride_live');
    const notice = await screen.findByTestId('other-mode-notice');
    expect(notice.textContent).toBe('This ride is live: switch to live.');
    // In place of "not found": the page's own 404 is not shown.
    expect(screen.queryByRole('alert')).toBeNull();
    expect(document.body.textContent).not.toMatch(/not found/i);
    expect(screen.queryByRole('heading', { name: 'Status history' })).toBeNull();
    expect(api.calls('GET /dashboard/api/mobility/rides/ride_live').map((sent) => sent.query.get('mode'))).toEqual(['test', null]);
    await user.click(within(notice).getByRole('link', { name: 'switch to live' }));
    expect(await screen.findByTestId('trip-details')).toBeTruthy();
    expect(here()).toBe('/dashboard/rides/ride_live');
    expect(screen.queryByTestId('other-mode-notice')).toBeNull();
  });

  it("offers test mode for a test ride's URL opened live", async () => {
    ridesApi();
    renderApp('/rides/ride_test');
    const notice = await screen.findByTestId('other-mode-notice');
    expect(notice.textContent).toBe('This ride is in test mode: switch to test.');
    expect(within(notice).getByRole('link').getAttribute('href')).toBe('/dashboard/test/rides/ride_test');
  });

  it('says "not found" when the object is in neither mode, and offers no switch', async () => {
    const api = ridesApi();
    api.routes['GET /dashboard/api/mobility/rides/ride_gone'] = problem(404, 'not_found', 'Ride not found');
    renderApp('/test/rides/ride_gone');
    expect((await screen.findByRole('alert')).textContent).toBe('Could not load the ride: Ride not found');
    expect(screen.queryByTestId('other-mode-notice')).toBeNull();
    expect(api.calls('GET /dashboard/api/mobility/rides/ride_gone').map((sent) => sent.query.get('mode'))).toEqual(['test', null]);
  });
});
