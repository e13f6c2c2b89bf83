import { createHash } from 'node:crypto';
import request from 'supertest';
import { beforeAllWithPartner, type PartnerApi, type TestContext } from './helpers/context';
import { deliveryBody, onlineCourier } from './factories/deliveries';
import { offset, randomCentre, type Point } from './factories/fleet';
import { adminToken, createPartnerKey } from './factories/auth';
import { dataUrl, logoPng, photoPng, signaturePng } from './factories/images';
import { partnerApi } from './factories/rides';

let ctx: TestContext;
let partner: PartnerApi;
beforeAllWithPartner(
  (context, api) => {
    ctx = context;
    partner = api;
  },
  { PUBLIC_BASE_URL: 'https://parcels.example.test/' },
);

const PIN = '90817263';
const SENDER = { name: 'Shop Owner Adaeze', phone: '+234 803 111 1111' };
const RECIPIENT = { name: 'Chidi Eze', phone: '+234 804 222 2222' };
const COURIER_PHONE = '+234 809 555 0199';
const NOTES = 'Leave with the gatekeeper';

/** A delivery whose secrets are all distinctive strings, and a courier with a full name and a phone of its own. */
async function trackedDelivery(spot: Point = randomCentre(), api: PartnerApi = partner) {
  const courier = await onlineCourier(ctx, offset(spot, 300, 0), { name: 'Musa Ibrahim Okafor', phone: COURIER_PHONE });
  const body = deliveryBody(spot, { security_pin: PIN, sender: SENDER, recipient: RECIPIENT, notes: NOTES, pickup: { ...spot, address: '5 Warehouse Lane, Apapa' } });
  const created = await api.post('/api/v1/deliveries', body).expect(201);
  const url = created.body.tracking_url as string;
  const token = url.slice(url.lastIndexOf('/') + 1);
  const forbidden = [PIN, SENDER.name, SENDER.phone, RECIPIENT.phone, COURIER_PHONE, '5 Warehouse Lane', 'Apapa', NOTES, 'Ibrahim', 'Okafor', created.body.id as string];
  return { id: created.body.id as string, created, url, token, courier, spot, forbidden };
}

type Tracked = Awaited<ReturnType<typeof trackedDelivery>>;

const status = (token: string) => request(ctx.app).get(`/track/${token}/status`);
const trackingPage = (token: string) => request(ctx.app).get(`/track/${token}`);

/** Neither the JSON nor the page holds any of the delivery's secrets or private details, anywhere. */
async function expectNothingPrivate(delivery: Tracked) {
  const json = await status(delivery.token).expect(200);
  const html = await trackingPage(delivery.token).expect(200);
  const partnerId = (await ctx.db('deliveries').where({ id: delivery.id }).first('partner_id')).partner_id as string;
  for (const text of [JSON.stringify(json.body), html.text]) {
    for (const secret of [...delivery.forbidden, partnerId]) expect(text).not.toContain(secret);
  }
  return { json: json.body, html: html.text };
}

async function acceptOffer(delivery: Tracked) {
  const offer = (await delivery.courier.app.offers()).find((o) => o.delivery_id === delivery.id);
  await delivery.courier.app.post(`/offers/${offer!.id}/accept`).expect(200);
}

describe('tracking_url on every delivery answer', () => {
  it('is the public base URL + /track/ + an unguessable token, the same in create, GET, list and the webhook event; only its SHA-256 is stored', async () => {
    const delivery = await trackedDelivery();
    expect(delivery.url).toMatch(/^https:\/\/parcels\.example\.test\/track\/[A-Za-z0-9_-]{24}$/);
    expect((await partner.get(`/api/v1/deliveries/${delivery.id}`).expect(200)).body.tracking_url).toBe(delivery.url);
    const listed = (await partner.get('/api/v1/deliveries?limit=100').expect(200)).body.data.find((d: { id: string }) => d.id === delivery.id);
    expect(listed.tracking_url).toBe(delivery.url);

    const row = await ctx.db('deliveries').where({ id: delivery.id }).first();
    expect(row.tracking_token_hash).toBe(createHash('sha256').update(delivery.token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(delivery.token);

    await acceptOffer(delivery);
    const [event] = await ctx.db('outbox_events').where({ object_id: delivery.id, type: 'delivery.courier_assigned' });
    expect(event.body.data.tracking_url).toBe(delivery.url);

    const other = await trackedDelivery();
    expect(other.token).not.toBe(delivery.token);
  });

  it('is null for a delivery made before tracking existed (no stored token), whose old link finds nothing', async () => {
    const delivery = await trackedDelivery();
    await ctx.db('deliveries').where({ id: delivery.id }).update({ tracking_token_hash: null });
    expect((await partner.get(`/api/v1/deliveries/${delivery.id}`).expect(200)).body.tracking_url).toBeNull();
    await status(delivery.token).expect(404);
  });
});

describe('GET /track/{token}/status', () => {
  it('follows the delivery from search to hand-over, showing only what the recipient may see', async () => {
    const delivery = await trackedDelivery();

    const pending = await status(delivery.token).expect(200);
    expect(pending.headers['cache-control']).toBe('no-store');
    expect(pending.headers['content-type']).toMatch(/^application\/json/);
    expect(pending.body).toMatchObject({ status: 'pending', final: false, courier: null, courier_location: null, distance_meters: null, eta_seconds: null, poll_after_ms: 3000 });
    expect(pending.body.timeline).toEqual([{ status: 'pending', at: delivery.created.body.created_at }]);
    await expectNothingPrivate(delivery);

    await acceptOffer(delivery);
    const { json: assigned, html: assignedPage } = await expectNothingPrivate(delivery);
    expect(assigned).toMatchObject({
      status: 'courier_assigned',
      courier: { first_name: 'Musa', vehicle: { type: 'moto', make: 'Honda', model: 'CG125', color: 'red', plate: expect.stringMatching(/^MC-/) } },
      // Heading to the pick-up: its position would disclose the pick-up point, so none is shown until pick-up.
      courier_location: null,
      distance_meters: null,
      route: { courier: null, progress: null },
    });
    // The ETA from assignment: the courier's 300 m to the pick-up plus the 2.5 km trip, × 1.3 road factor at a moto's 30 km/h,
    // in whole minutes (to the second it would give the pick-up's distance away).
    expect(assigned.eta_seconds % 60).toBe(0);
    expect(Math.abs(assigned.eta_seconds - ((300 + 2500) * 1.3) / (30000 / 3600))).toBeLessThanOrEqual(30 + 9);
    // Under "on the way to collect", the page says what the ETA is: the parcel's at the drop-off, not the courier's at the pick-up.
    expect(assignedPage).toContain(`<p id="eta">Parcel expected at the drop-off in about ${assigned.eta_seconds / 60} minutes</p>`);
    expect(assigned).toMatchObject({ test: false, proof_of_delivery: null, partner: { logo_url: null, brand_color: null } });
    expect(assigned.timeline.map((entry: { status: string }) => entry.status)).toEqual(['pending', 'courier_assigned']);

    await delivery.courier.app.post(`/deliveries/${delivery.id}/pickup`).expect(200);
    const dropoff = offset(delivery.spot, 2000, 1500);
    const near = offset(delivery.spot, 2000 * 0.84, 1500 * 0.84); // on the way, 400 m short of the drop-off
    await delivery.courier.app.post('/location', { ...near, heading: 180, speed_kph: 30 }).expect(200);
    const carried = (await expectNothingPrivate(delivery)).json;
    expect(carried).toMatchObject({ status: 'picked_up', final: false, courier_location: { lat: near.lat, lng: near.lng, heading: 180 } });
    expect(carried.distance_meters).toBeGreaterThan(350);
    expect(carried.distance_meters).toBeLessThan(450);
    expect(carried.eta_seconds).toBe(Math.max(60, Math.round(Math.round((carried.distance_meters * 1.3) / (30000 / 3600)) / 60) * 60));
    // The courier 400 m short of the drop-off is drawn on the line, 84% of the way from the pick-up (2.5 km away).
    expect(carried.route.progress).toBeCloseTo(0.84, 1);
    const drawn = carried.route;
    // Within a unit of the line: the drawn point and the progress are each rounded, so their product may be 0.5+ off.
    expect(Math.abs(drawn.courier.x - (drawn.pickup.x + (drawn.dropoff.x - drawn.pickup.x) * drawn.progress))).toBeLessThanOrEqual(1);
    expect(Math.abs(drawn.courier.y - (drawn.pickup.y + (drawn.dropoff.y - drawn.pickup.y) * drawn.progress))).toBeLessThanOrEqual(1);
    expect(carried.dropoff_area).toEqual({ lat: Math.round(dropoff.lat * 1000) / 1000, lng: Math.round(dropoff.lng * 1000) / 1000 });

    await delivery.courier.app.post(`/deliveries/${delivery.id}/deliver`, { pin: PIN }).expect(200);
    const delivered = (await expectNothingPrivate(delivery)).json;
    // Handed over: the courier's name and plate leave the page with the parcel.
    expect(delivered).toMatchObject({ status: 'delivered', final: true, courier_location: null, distance_meters: null, eta_seconds: null, poll_after_ms: null, courier: null });
    expect(delivered.proof_of_delivery).toEqual({ received_by: null, photo_url: null, signature_url: null });
    expect(delivered.timeline.map((entry: { status: string }) => entry.status)).toEqual(['pending', 'courier_assigned', 'picked_up', 'delivered']);
    for (const entry of delivered.timeline) expect(new Date(entry.at).toISOString()).toBe(entry.at);
  });

  it('expires the page TRACKING_LINK_TTL_S after a final status: 410 JSON and an HTML "this delivery has ended" page', async () => {
    const delivery = await trackedDelivery();
    await partner.post(`/api/v1/deliveries/${delivery.id}/cancel`).expect(200);
    await ctx.db('deliveries').where({ id: delivery.id }).update({ updated_at: ctx.db.raw("now() - interval '23 hours'") });
    await status(delivery.token).expect(200);

    await ctx.db('deliveries').where({ id: delivery.id }).update({ updated_at: ctx.db.raw("now() - interval '25 hours'") });
    const json = await status(delivery.token).expect(410);
    expect(json.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(json.body.code).toBe('tracking_link_expired');
    expect(JSON.stringify(json.body)).not.toContain('cancelled');
    // A refusal is as private as the status: never cached, its token never sent on as a referrer.
    expect(json.headers).toMatchObject({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', 'x-robots-tag': 'noindex, nofollow' });
    const html = await trackingPage(delivery.token).expect(410);
    expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(html.headers['cache-control']).toBe('no-store');
    expect(html.text).toContain('This delivery has ended');
    expect(html.text).not.toContain('<script');
    expect(html.text).not.toContain('The delivery was cancelled');
    expect(html.text).not.toContain('Musa');
  });

  it('never expires the page of a delivery still under way, however old', async () => {
    const delivery = await trackedDelivery();
    await ctx.db('deliveries').where({ id: delivery.id }).update({ updated_at: ctx.db.raw("now() - interval '30 days'") });
    expect((await status(delivery.token).expect(200)).body.status).toBe('pending');
  });

  it('shows a cancelled delivery as final, with no courier', async () => {
    const delivery = await trackedDelivery();
    await partner.post(`/api/v1/deliveries/${delivery.id}/cancel`).expect(200);
    const res = await status(delivery.token).expect(200);
    expect(res.body).toMatchObject({ status: 'cancelled', final: true, courier: null, courier_location: null, poll_after_ms: null });
  });

  it.each([
    ['an unknown token of the right shape', 'AAAAAAAAAAAAAAAAAAAAAAAA'],
    ['a token too short', 'abc'],
    ['a token with other characters', 'AAAAAAAAAAAAAAAAAAAAAA%2B%2B'],
    ['a delivery id', 'dlv_00000000000000000000'],
  ])('answers %s with a problem+json 404 and changes nothing', async (_case, token) => {
    // This file's partner's deliveries, rows and all (other test files write to the same run database meanwhile).
    const { partner_id: partnerId } = await ctx.db('deliveries').where({ id: (await trackedDelivery()).id }).first();
    const partnerDeliveries = () => ctx.db('deliveries').where({ partner_id: partnerId }).orderBy('id');
    const before = await partnerDeliveries();
    const res = await status(token).expect(404);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ code: 'not_found', error: 'Tracking link not found' });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(await partnerDeliveries()).toEqual(before);
  });

  it('needs no key, and ignores one', async () => {
    const delivery = await trackedDelivery();
    await status(delivery.token).set('Authorization', 'Bearer mk_not_a_real_key').expect(200);
  });
});

describe('what the page never shows: the pick-up point, and the courier after the hand-over', () => {
  /** Picks the delivery up, moves the courier `north`/`east` metres from the pick-up, and answers the JSON and the page. */
  async function courierAt(delivery: Tracked, north: number, east: number) {
    const at = offset(delivery.spot, north, east);
    await delivery.courier.app.post('/location', { ...at, heading: 35, speed_kph: 30 }).expect(200);
    const { json, html } = await expectNothingPrivate(delivery);
    return { at, json, html };
  }

  const hidden = { status: 'picked_up', courier_location: null, distance_meters: null, route: { courier: null, progress: null } };
  const coordinates = (p: Point) => [String(p.lat), String(p.lng), p.lat.toFixed(4), p.lng.toFixed(4)];

  it('shows no courier position within 300 m of the pick-up: not at the hand-over, not 250 m on; from 300 m on it does', async () => {
    const delivery = await trackedDelivery();
    await acceptOffer(delivery);
    await delivery.courier.app.post('/location', { ...delivery.spot, heading: 0, speed_kph: 0 }).expect(200);
    await delivery.courier.app.post(`/deliveries/${delivery.id}/pickup`).expect(200);

    // At the hand-over the courier stands on the pick-up point: neither the JSON nor the page gives it, or its distance.
    const atPickup = await courierAt(delivery, 0, 0);
    expect(atPickup.json).toMatchObject(hidden);
    for (const text of [JSON.stringify(atPickup.json), atPickup.html]) for (const c of coordinates(delivery.spot)) expect(text).not.toContain(c);
    expect(atPickup.html).toContain('visibility="hidden"');
    expect(atPickup.html).toContain('no courier position shown');
    expect(atPickup.html).toContain('Position not available yet.');
    // The ETA is in whole minutes, so it does not give the pick-up's exact distance from the drop-off either.
    expect(atPickup.json.eta_seconds % 60).toBe(0);

    // 250 m along the way (toward the drop-off, 2 km north and 1.5 km east): still inside the 300 m, still hidden.
    const near = await courierAt(delivery, 200, 150);
    expect(near.json).toMatchObject(hidden);
    for (const c of coordinates(near.at)) expect(JSON.stringify(near.json)).not.toContain(c);

    // 350 m along: shown, with its distance to the drop-off and its place on the line.
    const clear = await courierAt(delivery, 280, 210);
    expect(clear.json).toMatchObject({ status: 'picked_up', courier_location: { lat: clear.at.lat, lng: clear.at.lng } });
    expect(clear.json.distance_meters).toBeGreaterThan(2100);
    expect(clear.json.route.progress).toBeCloseTo(0.14, 1);
    expect(clear.html).toContain('visibility="visible"');

    // Back within 300 m of the pick-up (say, a detour): hidden again.
    expect((await courierAt(delivery, -100, 50)).json).toMatchObject(hidden);
  });

  it("drops the courier's name and plate once the delivery is handed over, in the JSON and on the page", async () => {
    const delivery = await trackedDelivery();
    await acceptOffer(delivery);
    const assigned = (await status(delivery.token).expect(200)).body;
    const plate = assigned.courier.vehicle.plate as string;
    expect(assigned.courier.first_name).toBe('Musa');
    expect((await trackingPage(delivery.token).expect(200)).text).toContain(plate);

    await delivery.courier.app.post(`/deliveries/${delivery.id}/pickup`).expect(200);
    await delivery.courier.app.post(`/deliveries/${delivery.id}/deliver`, { pin: PIN, received_by: 'Chidi' }).expect(200);
    const { json, html } = await expectNothingPrivate(delivery);
    expect(json).toMatchObject({ status: 'delivered', final: true, courier: null, courier_location: null, proof_of_delivery: { received_by: 'Chidi' } });
    for (const text of [JSON.stringify(json), html]) {
      expect(text).not.toContain('Musa');
      expect(text).not.toContain(plate);
    }
    expect(html).toContain('The delivery has ended; the courier&#39;s details are no longer shown.');
    // The delivery itself still knows its courier: only the public page forgets it.
    expect((await ctx.db('deliveries').where({ id: delivery.id }).first('courier_id')).courier_id).toBe(delivery.courier.id);
  });
});

describe('GET /track/{token} (the page)', () => {
  it('is a self-contained HTML page under a strict CSP that draws the current state', async () => {
    const delivery = await trackedDelivery();
    await acceptOffer(delivery);
    const res = await trackingPage(delivery.token).expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    const csp = res.headers['content-security-policy'] as string;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("img-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
    expect(res.text).toContain('<main id="tracking"');
    expect(res.text).toContain('role="status"');
    expect(res.text).toContain('A courier is on the way to collect your parcel.');
    expect(res.text).toContain('Musa · red Honda CG125 (Motorbike)');
    expect(res.text).toContain(`data-status-url="/track/${delivery.token}/status"`);
    expect(res.text).toContain('<script src="/track/assets/tracking.js" defer></script>');
    // Nothing from anywhere else: no absolute URL at all in the page.
    expect(res.text).toContain('<link rel="icon" href="/track/assets/icon.svg"');
    expect((await request(ctx.app).get('/track/assets/icon.svg').expect(200)).headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(res.text).not.toMatch(/(https?:)?\/\/[a-z0-9]/i);

    const script = await request(ctx.app).get('/track/assets/tracking.js').expect(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.text).toContain('poll_after_ms');
    expect(script.text).not.toMatch(/https?:\/\//);
    await request(ctx.app).get('/track/assets/tracking.js').set('If-None-Match', script.headers.etag as string).expect(304);
  });

  it('escapes what the fleet typed: a courier name or vehicle with markup is shown as text', async () => {
    const spot = randomCentre();
    const courier = await onlineCourier(ctx, offset(spot, 300, 0), {
      name: '<img src=x onerror=alert(1)> Smith',
      vehicle: { make: 'Honda"><script>alert(2)</script>', model: 'CG125', plate: 'MC-XSS01', color: 'red' },
    });
    const created = await partner.post('/api/v1/deliveries', deliveryBody(spot)).expect(201);
    const offer = (await courier.app.offers()).find((o) => o.delivery_id === created.body.id);
    await courier.app.post(`/offers/${offer!.id}/accept`).expect(200);
    const token = (created.body.tracking_url as string).split('/track/')[1]!;
    const res = await trackingPage(token).expect(200);
    expect(res.text).toContain('&lt;img');
    expect(res.text).toContain('Honda&quot;&gt;&lt;script&gt;');
    expect(res.text).not.toContain('<img');
    expect(res.text.match(/<script/g)).toHaveLength(1); // only the page's own script tag
  });

  it('answers an unknown or malformed token with a 404 page that loads nothing', async () => {
    for (const token of ['AAAAAAAAAAAAAAAAAAAAAAAA', 'short', '..%2F..%2Fetc']) {
      const res = await trackingPage(token).expect(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['content-security-policy']).toContain("default-src 'none'");
      expect(res.text).toContain('Tracking link not found');
      expect(res.text).not.toContain('<script');
    }
  });

  it('leaves out the script once the delivery is final', async () => {
    const delivery = await trackedDelivery();
    await partner.post(`/api/v1/deliveries/${delivery.id}/cancel`).expect(200);
    const res = await trackingPage(delivery.token).expect(200);
    expect(res.text).toContain('The delivery was cancelled.');
    expect(res.text).not.toContain('<script');
  });
});

describe('the partner, the proof of delivery and the sandbox on the tracking page', () => {
  it("shows the sending partner's branding: its name, its logo served from this origin, its colour on the route line", async () => {
    const key = await createPartnerKey(ctx);
    const admin = adminToken(ctx, key.owner);
    const logo = logoPng();
    await request(ctx.app).patch('/admin/v1/partner/branding').set('Authorization', `Bearer ${admin}`).send({ display_name: 'Mama Put <Kitchen>', brand_color: '#0b6e4f', logo: dataUrl(logo) }).expect(200);
    {
      const delivery = await trackedDelivery(randomCentre(), partnerApi(ctx, key.token));
      const json = (await expectNothingPrivate(delivery)).json;
      expect(json.partner).toEqual({ name: 'Mama Put <Kitchen>', logo_url: `/track/${delivery.token}/logo`, brand_color: '#0b6e4f' });
      const html = (await trackingPage(delivery.token).expect(200)).text;
      expect(html).toContain('<p class="sender" id="partner-name">Mama Put &lt;Kitchen&gt;</p>');
      expect(html).toContain(`<img id="partner-logo" src="/track/${delivery.token}/logo"`);
      expect(html).toContain('stroke="#0b6e4f"');
      const image = await request(ctx.app).get(`/track/${delivery.token}/logo`).expect(200);
      expect(image.headers['content-type']).toBe('image/png');
      expect(image.headers['cache-control']).toBe('no-store');
      expect(image.headers['x-content-type-options']).toBe('nosniff');
      expect(Buffer.compare(image.body as Buffer, logo)).toBe(0);
      await request(ctx.app).get('/track/AAAAAAAAAAAAAAAAAAAAAAAA/logo').expect(404);
    }
  });

  it('shows the photo and signature the courier handed in, from this origin, once delivered, and refuses images that are not', async () => {
    const delivery = await trackedDelivery();
    await acceptOffer(delivery);
    await delivery.courier.app.post(`/deliveries/${delivery.id}/pickup`).expect(200);
    const photo = photoPng();
    const signature = signaturePng();
    const svg = `data:image/svg+xml;base64,${Buffer.from('<svg onload="alert(1)"/>').toString('base64')}`;
    const refused = await delivery.courier.app.post(`/deliveries/${delivery.id}/deliver`, { pin: PIN, photo: svg }).expect(422);
    expect(refused.body.code).toBe('validation_failed');
    await delivery.courier.app.post(`/deliveries/${delivery.id}/deliver`, { pin: PIN, photo: dataUrl(Buffer.from('not a png'), 'image/png') }).expect(422);
    await request(ctx.app).get(`/track/${delivery.token}/proof/photo`).expect(404); // not delivered yet

    await delivery.courier.app.post(`/deliveries/${delivery.id}/deliver`, { pin: PIN, received_by: 'Chidi', photo: dataUrl(photo), signature: dataUrl(signature) }).expect(200);
    const json = (await expectNothingPrivate(delivery)).json;
    expect(json.proof_of_delivery).toEqual({ received_by: 'Chidi', photo_url: `/track/${delivery.token}/proof/photo`, signature_url: `/track/${delivery.token}/proof/signature` });
    for (const [kind, bytes] of [['photo', photo], ['signature', signature]] as const) {
      const res = await request(ctx.app).get(`/track/${delivery.token}/proof/${kind}`).expect(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
      expect(Buffer.compare(res.body as Buffer, bytes)).toBe(0);
    }
    await request(ctx.app).get(`/track/${delivery.token}/proof/other`).expect(404);
    const html = (await trackingPage(delivery.token).expect(200)).text;
    expect(html).toContain(`<img id="proof-photo" src="/track/${delivery.token}/proof/photo"`);
    expect(html).toContain('Received by Chidi');

    // Once the link expires, so do its images.
    await ctx.db('deliveries').where({ id: delivery.id }).update({ updated_at: ctx.db.raw("now() - interval '25 hours'") });
    expect((await request(ctx.app).get(`/track/${delivery.token}/proof/photo`).expect(410)).body.code).toBe('tracking_link_expired');
  });

  it('marks a sandbox delivery TEST, and the sandbox courier moves along the route line as the delivery is advanced', async () => {
    const testKey = partnerApi(ctx, (await createPartnerKey(ctx, { mode: 'test' })).token);
    const spot = randomCentre();
    const created = await testKey.post('/api/v1/deliveries', deliveryBody(spot)).expect(201);
    const id = created.body.id as string;
    const token = (created.body.tracking_url as string).split('/track/')[1]!;
    const page = (await trackingPage(token).expect(200)).text;
    expect(page).toContain('id="test-marker"');
    expect(page).toContain('<strong>TEST</strong>');
    expect((await status(token).expect(200)).body.test).toBe(true);

    await testKey.post(`/api/v1/sandbox/deliveries/${id}/advance`, { to: 'courier_assigned' }).expect(200);
    const assigned = (await status(token).expect(200)).body;
    // A quarter of the trip (2.5 km) before the pick-up: 625 m + 2.5 km at the sandbox courier's car's 25 km/h; no position shown.
    expect(assigned).toMatchObject({ status: 'courier_assigned', courier_location: null, route: { courier: null }, courier: { vehicle: { type: 'economy' } } });
    expect(assigned.eta_seconds % 60).toBe(0);
    expect(Math.abs(assigned.eta_seconds - ((625 + 2500) * 1.3) / (25000 / 3600))).toBeLessThanOrEqual(30 + 12);

    await testKey.post(`/api/v1/sandbox/deliveries/${id}/advance`, { to: 'picked_up' }).expect(200);
    // At the pick-up (progress 0) no position is shown: it would be the sender's address.
    expect((await status(token).expect(200)).body).toMatchObject({ courier_location: null, distance_meters: null, route: { courier: null, progress: null } });
    // Farther along, the sandbox courier stands on the drawn line (its ends rounded to about 100 m), so the page shows the progress asked for.
    for (const progress of [0.25, 0.5, 0.75]) {
      await testKey.post(`/api/v1/sandbox/deliveries/${id}/advance`, { to: 'picked_up', courier_progress: progress }).expect(200);
      const moved = (await status(token).expect(200)).body;
      expect(moved.route.progress).toBe(progress);
      expect(moved.distance_meters).toBeGreaterThan(2500 * (1 - progress) - 120);
      expect(moved.distance_meters).toBeLessThan(2500 * (1 - progress) + 120);
    }
    const wrong = await testKey.post(`/api/v1/sandbox/deliveries/${id}/advance`, { to: 'delivered', courier_progress: 0.5 }).expect(422);
    expect(JSON.stringify(wrong.body)).toContain('courier_progress');
    await testKey.post(`/api/v1/sandbox/deliveries/${id}/advance`, { to: 'picked_up', courier_progress: 1.5 }).expect(422);
    await testKey.post(`/api/v1/sandbox/deliveries/${id}/advance`, { to: 'picked_up' }).expect(409);
    await testKey.post(`/api/v1/sandbox/deliveries/${id}/advance`, { to: 'delivered' }).expect(200);
    expect((await status(token).expect(200)).body.proof_of_delivery).toEqual({ received_by: 'Sandbox Recipient', photo_url: null, signature_url: null });
  });
});
