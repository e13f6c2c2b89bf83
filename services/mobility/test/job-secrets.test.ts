import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { parseConfig } from '@platform/service-kit/config';
import { createTestContext, type TestContext } from './helpers/context';
import { createPartnerKey } from './factories/auth';
import { deliveryBody } from './factories/deliveries';
import { randomCentre } from './factories/fleet';
import { partnerApi } from './factories/rides';
import { mobilityConfigSchema } from '../src/config';
import { developmentSecret, jobSecretsFrom } from '../src/platform/job-secrets';

// JWT_SECRET no longer keys PIN fingerprints or tracking tokens.
const contexts: TestContext[] = [];
afterAll(() => Promise.all(contexts.map((ctx) => ctx.close())));

const strong = () => randomBytes(32).toString('base64url');

describe('tracking tokens and PIN fingerprints have keys of their own', () => {
  it('keeps a delivery\'s tracking link and an Idempotency-Key replay working when only JWT_SECRET changes', async () => {
    const first = createTestContext({ JWT_SECRET: strong() });
    const second = createTestContext({ JWT_SECRET: strong() }); // the same database, after a JWT_SECRET rotation
    contexts.push(first, second);
    const { token } = await createPartnerKey(first);
    const body = deliveryBody(randomCentre(), { security_pin: '482913' });
    const idempotencyKey = `job-secrets-${strong()}`;
    const created = await partnerApi(first, token).post('/api/v1/deliveries', body).set('Idempotency-Key', idempotencyKey).expect(201);

    const again = await partnerApi(second, token).get(`/api/v1/deliveries/${created.body.id}`).expect(200);
    expect(again.body.tracking_url).toBe(created.body.tracking_url);
    const trackingToken = (created.body.tracking_url as string).split('/track/')[1]!;
    expect((await request(second.app).get(`/track/${trackingToken}/status`).expect(200)).body.status).toBe('pending');

    // The PIN is compared by its fingerprint: the same request under the same Idempotency-Key is still the same request.
    const replay = await partnerApi(second, token).post('/api/v1/deliveries', body).set('Idempotency-Key', idempotencyKey).expect(201);
    expect(replay.body.id).toBe(created.body.id);
  });

  it('uses public development values of their own when unset, unrelated to JWT_SECRET', () => {
    const jwtSecret = strong();
    const secrets = jobSecretsFrom(parseConfig(mobilityConfigSchema, { NODE_ENV: 'development', JWT_SECRET: jwtSecret }));
    expect(secrets).toEqual({ pinFingerprintKey: developmentSecret('PIN_FINGERPRINT_SECRET'), trackingTokenKey: developmentSecret('TRACKING_TOKEN_SECRET') });
    expect(secrets.pinFingerprintKey).not.toBe(secrets.trackingTokenKey);
    expect(JSON.stringify(secrets)).not.toContain(jwtSecret);
  });

  it('requires both in production, each checked for strength', () => {
    const production = { NODE_ENV: 'production', JWT_SECRET: strong(), WEBHOOK_SECRET_KEY: strong(), PUBLIC_BASE_URL: 'https://api.example.com' };
    expect(() => jobSecretsFrom(parseConfig(mobilityConfigSchema, { ...production, TRACKING_TOKEN_SECRET: strong() }))).toThrow('PIN_FINGERPRINT_SECRET is required when NODE_ENV=production');
    expect(() => jobSecretsFrom(parseConfig(mobilityConfigSchema, { ...production, PIN_FINGERPRINT_SECRET: strong() }))).toThrow('TRACKING_TOKEN_SECRET is required when NODE_ENV=production');
    expect(() => parseConfig(mobilityConfigSchema, { ...production, PIN_FINGERPRINT_SECRET: 'a'.repeat(32), TRACKING_TOKEN_SECRET: strong() })).toThrow(/^Invalid environment variable PIN_FINGERPRINT_SECRET: a low-entropy value/);
    const pin = strong();
    const tracking = strong();
    expect(jobSecretsFrom(parseConfig(mobilityConfigSchema, { ...production, PIN_FINGERPRINT_SECRET: pin, TRACKING_TOKEN_SECRET: tracking }))).toEqual({ pinFingerprintKey: pin, trackingTokenKey: tracking });
  });
});
