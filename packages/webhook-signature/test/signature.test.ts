import { createHmac } from 'node:crypto';
import {
  generateWebhookSecret,
  signWebhook,
  standardSignature,
  verifyServiceSignature,
  verifyStandardWebhook,
} from '../src';

// The Standard Webhooks specification's own example (standard-webhooks/standard-webhooks, libraries' test suites).
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

function vectorHeaders(overrides: Record<string, string> = {}) {
  return { 'webhook-id': VECTOR.id, 'webhook-timestamp': String(VECTOR.timestamp), 'webhook-signature': VECTOR.signature, ...overrides };
}

describe('Standard Webhooks test vector', () => {
  it('signs the specification example exactly', () => {
    const headers = signWebhook({ secret: VECTOR.secret, id: VECTOR.id, timestamp: VECTOR.timestamp, body: VECTOR.body });
    expect(headers['webhook-signature']).toBe(VECTOR.signature);
    expect(headers['webhook-id']).toBe(VECTOR.id);
    expect(headers['webhook-timestamp']).toBe('1614265330');
  });

  it('verifies the example at its own time, from a string or from bytes', () => {
    expect(verifyStandardWebhook(VECTOR.body, vectorHeaders(), VECTOR.secret, { now: VECTOR.timestamp })).toBe(true);
    expect(verifyStandardWebhook(Buffer.from(VECTOR.body), vectorHeaders(), VECTOR.secret, { now: VECTOR.timestamp + 10 })).toBe(true);
  });

  it('accepts the secret without its whsec_ prefix, as the official libraries do', () => {
    expect(verifyStandardWebhook(VECTOR.body, vectorHeaders(), VECTOR.secret.slice('whsec_'.length), { now: VECTOR.timestamp })).toBe(true);
  });

  it('refuses a changed body, id or timestamp', () => {
    const now = VECTOR.timestamp;
    expect(verifyStandardWebhook('{"test": 2432232315}', vectorHeaders(), VECTOR.secret, { now })).toBe(false);
    expect(verifyStandardWebhook(VECTOR.body, vectorHeaders({ 'webhook-id': 'msg_other' }), VECTOR.secret, { now })).toBe(false);
    expect(verifyStandardWebhook(VECTOR.body, vectorHeaders({ 'webhook-timestamp': String(now + 1) }), VECTOR.secret, { now })).toBe(false);
  });

  it('refuses a timestamp outside the tolerance either way, and honours a custom tolerance', () => {
    expect(verifyStandardWebhook(VECTOR.body, vectorHeaders(), VECTOR.secret, { now: VECTOR.timestamp + 301 })).toBe(false);
    expect(verifyStandardWebhook(VECTOR.body, vectorHeaders(), VECTOR.secret, { now: VECTOR.timestamp - 301 })).toBe(false);
    expect(verifyStandardWebhook(VECTOR.body, vectorHeaders(), VECTOR.secret, { now: VECTOR.timestamp + 600, toleranceSeconds: 900 })).toBe(true);
    expect(verifyStandardWebhook(VECTOR.body, vectorHeaders(), VECTOR.secret)).toBe(false); // 2021 is long past
  });

  it('accepts a list of space-separated signatures when one matches, ignoring other versions', () => {
    const list = `v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc= v2,abc ${VECTOR.signature}`;
    expect(verifyStandardWebhook(VECTOR.body, vectorHeaders({ 'webhook-signature': list }), VECTOR.secret, { now: VECTOR.timestamp })).toBe(true);
    const noneMatch = 'v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc= v1a,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=';
    expect(verifyStandardWebhook(VECTOR.body, vectorHeaders({ 'webhook-signature': noneMatch }), VECTOR.secret, { now: VECTOR.timestamp })).toBe(false);
  });

  it('refuses missing or malformed headers', () => {
    const now = VECTOR.timestamp;
    expect(verifyStandardWebhook(VECTOR.body, { 'webhook-id': VECTOR.id }, VECTOR.secret, { now })).toBe(false);
    expect(verifyStandardWebhook(VECTOR.body, vectorHeaders({ 'webhook-timestamp': 'yesterday' }), VECTOR.secret, { now })).toBe(false);
    expect(verifyStandardWebhook(VECTOR.body, vectorHeaders({ 'webhook-signature': 'g0hM9SsE+OTPJTGt' }), VECTOR.secret, { now })).toBe(false);
  });

  it('reads a fetch Headers object and mixed-case header names', () => {
    const fetchHeaders = new Headers(vectorHeaders());
    expect(verifyStandardWebhook(VECTOR.body, fetchHeaders, VECTOR.secret, { now: VECTOR.timestamp })).toBe(true);
    const mixed = { 'Webhook-Id': VECTOR.id, 'Webhook-Timestamp': String(VECTOR.timestamp), 'Webhook-Signature': VECTOR.signature };
    expect(verifyStandardWebhook(VECTOR.body, mixed, VECTOR.secret, { now: VECTOR.timestamp })).toBe(true);
  });
});

describe('X-Service-Signature', () => {
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const body = '{"id":"evt_1","type":"ride.completed","data":{"fare":{"amount":1500}}}';

  it('is sha256= and the lowercase hex HMAC-SHA256 of the body keyed with the secret string', () => {
    const expected = createHmac('sha256', secret).update(body).digest('hex');
    const { 'X-Service-Signature': header } = signWebhook({ secret, id: 'evt_1', timestamp: 1700000000, body });
    expect(header).toBe(`sha256=${expected}`);
    expect(header).toMatch(/^sha256=[0-9a-f]{64}$/);
  });

  it('verifies the raw body and refuses a tampered body, another secret or a malformed header', () => {
    const { 'X-Service-Signature': header } = signWebhook({ secret, id: 'evt_1', timestamp: 1700000000, body });
    expect(verifyServiceSignature(body, header, secret)).toBe(true);
    expect(verifyServiceSignature(Buffer.from(body), header, secret)).toBe(true);
    expect(verifyServiceSignature(body.replace('1500', '1501'), header, secret)).toBe(false);
    expect(verifyServiceSignature(body, header, `${secret}x`)).toBe(false);
    expect(verifyServiceSignature(body, header.replace('sha256=', 'sha1='), secret)).toBe(false);
    expect(verifyServiceSignature(body, header.slice(0, -2), secret)).toBe(false);
    expect(verifyServiceSignature(body, undefined, secret)).toBe(false);
  });

  it('signs bytes, not a re-serialisation: whitespace matters', () => {
    const { 'X-Service-Signature': header } = signWebhook({ secret, id: 'evt_1', timestamp: 1700000000, body });
    expect(verifyServiceSignature(JSON.stringify(JSON.parse(body), null, 2), header, secret)).toBe(false);
  });
});

describe('generateWebhookSecret', () => {
  it('is whsec_ and the base64 of 32 random bytes, different every time', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(secret);
  });

  it('round-trips through sign and verify', () => {
    const secret = generateWebhookSecret();
    const body = '{"hello":"world"}';
    const now = 1750000000;
    const headers = signWebhook({ secret, id: 'evt_abc', timestamp: new Date(now * 1000), body });
    expect(headers['webhook-signature']).toBe(`v1,${standardSignature(secret, 'evt_abc', now, body)}`);
    expect(verifyStandardWebhook(body, headers, secret, { now })).toBe(true);
    expect(verifyServiceSignature(body, headers['X-Service-Signature'], secret)).toBe(true);
  });
});

describe('signing with several secrets (a rotation overlap)', () => {
  it('puts one v1 signature per secret in webhook-signature and signs X-Service-Signature with the first', () => {
    const [newest, previous] = [generateWebhookSecret(), generateWebhookSecret()];
    const body = '{"id":"evt_1"}';
    const headers = signWebhook({ secret: [newest, previous], id: 'evt_1', timestamp: 1700000000, body });
    expect(headers['webhook-signature'].split(' ')).toEqual([
      `v1,${standardSignature(newest, 'evt_1', 1700000000, body)}`,
      `v1,${standardSignature(previous, 'evt_1', 1700000000, body)}`,
    ]);
    expect(verifyServiceSignature(body, headers['X-Service-Signature'], newest)).toBe(true);
    expect(verifyServiceSignature(body, headers['X-Service-Signature'], previous)).toBe(false);
    for (const secret of [newest, previous]) expect(verifyStandardWebhook(body, headers, secret, { now: 1700000000 })).toBe(true);
    expect(verifyStandardWebhook(body, headers, generateWebhookSecret(), { now: 1700000000 })).toBe(false);
  });

  it('refuses to sign with no secret at all', () => {
    expect(() => signWebhook({ secret: [], id: 'evt_1', timestamp: 1, body: '{}' })).toThrow('at least one webhook secret');
  });
});

describe('prepared keys', () => {
  it('signs with each endpoint its own secret, also past the number of keys kept prepared, and a secret used again', () => {
    const secrets = Array.from({ length: 1100 }, () => generateWebhookSecret());
    const body = '{"type":"ride.cancelled"}';
    for (const secret of [...secrets, secrets[0]!, secrets[700]!]) {
      const headers = signWebhook({ secret, id: 'msg_1', timestamp: 1700000000, body });
      const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
      expect(headers['webhook-signature']).toBe(`v1,${createHmac('sha256', key).update(`msg_1.1700000000.${body}`).digest('base64')}`);
      expect(headers['X-Service-Signature']).toBe(`sha256=${createHmac('sha256', secret).update(body).digest('hex')}`);
    }
  });
});
