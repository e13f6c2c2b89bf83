import { createEndpointSlots } from '../src/features/webhook-dispatch/endpoint-slots';
import { retryDelayMs } from '../src/features/webhook-dispatch/webhook-message.processor';
import { DEFAULT_RETRY_SCHEDULE_MS, retryPolicyFrom } from '../src/features/webhook-dispatch/retry-schedule';
import { parseRetryAfter } from '../src/features/webhook-dispatch/webhook-sender';
import { isForbiddenAddress } from '@platform/service-kit/ssrf-guard';
import { createEndpointSecretCipher } from '../src/features/webhook-dispatch/endpoint-secret-cipher';
import { parseConfig } from '@platform/service-kit/config';
import { mobilityConfigSchema } from '../src/config';

describe('retry delay', () => {
  it('doubles from WEBHOOK_BACKOFF_MS with ±20 % jitter', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(30000, n, () => 0.5))).toEqual([30000, 60000, 120000, 240000]);
    expect(retryDelayMs(30000, 1, () => 0)).toBe(24000);
    expect(retryDelayMs(30000, 1, () => 1)).toBe(36000);
  });

  it('never waits more than six hours', () => {
    expect(retryDelayMs(30000, 40, () => 1)).toBe(6 * 60 * 60 * 1000);
  });
});

describe('default retry schedule', () => {
  const HOUR = 3600 * 1000;
  it('waits 5 s, 5 min, 30 min, 2 h, 5 h, then 10 h, for 13 attempts over about three days', () => {
    const policy = retryPolicyFrom(parseConfig(mobilityConfigSchema, { NODE_ENV: 'test' }));
    expect(policy.maxAttempts).toBe(13);
    const waits = Array.from({ length: 12 }, (_, i) => policy.delayAfter(i + 1, () => 0.5));
    expect(waits).toEqual([5000, 300000, 1800000, 2 * HOUR, 5 * HOUR, ...Array(7).fill(10 * HOUR)]);
    const lastAttemptAfterMs = waits.reduce((a, b) => a + b, 0);
    expect(lastAttemptAfterMs).toBe(DEFAULT_RETRY_SCHEDULE_MS.reduce((a, b) => a + b, 0));
    expect(lastAttemptAfterMs / (24 * HOUR)).toBeGreaterThan(3); // 3 d 5 h 35 min 5 s
    expect(lastAttemptAfterMs / (24 * HOUR)).toBeLessThan(3.5);
  });

  it('jitters each wait by ±20 % and repeats the last step past the table', () => {
    const policy = retryPolicyFrom({ WEBHOOK_MAX_ATTEMPTS: 20 });
    expect(policy.maxAttempts).toBe(20);
    expect(policy.delayAfter(1, () => 0)).toBe(4000);
    expect(policy.delayAfter(1, () => 1)).toBe(6000);
    expect(policy.delayAfter(19, () => 0.5)).toBe(10 * HOUR);
  });

  it('doubles from WEBHOOK_BACKOFF_MS instead when it is set', () => {
    const policy = retryPolicyFrom(parseConfig(mobilityConfigSchema, { NODE_ENV: 'test', WEBHOOK_BACKOFF_MS: '1000', WEBHOOK_MAX_ATTEMPTS: '4' }));
    expect(policy.maxAttempts).toBe(4);
    expect([1, 2, 3].map((n) => policy.delayAfter(n, () => 0.5))).toEqual([1000, 2000, 4000]);
  });
});

describe('Retry-After', () => {
  it('reads seconds or an HTTP date, and ignores anything else', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });
});

describe('forbidden addresses', () => {
  it.each([
    '127.0.0.1', '10.1.2.3', '172.31.255.255', '192.168.0.1', '100.100.100.100', '169.254.169.254', '0.0.0.0', '224.0.0.251',
    '255.255.255.255', '198.18.0.1', '192.0.2.1', '::1', '::', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:8.8.8.8', 'fe80::1', 'fc00::1',
    'fd00:ec2::254', 'ff02::1', '2001:db8::1', '64:ff9b::a00:1', '2002:a00:1::1', 'not-an-ip',
  ])('refuses %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each(['8.8.8.8', '93.184.215.14', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e'])('allows %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(false);
  });
});

describe('per-endpoint slots', () => {
  it('lets no more than the limit through, even when asked all at once', async () => {
    const slots = createEndpointSlots(2);
    const taken = await Promise.all([slots.acquire('whe_a'), slots.acquire('whe_a'), slots.acquire('whe_a'), slots.acquire('whe_b')]);
    expect(taken).toEqual([true, true, false, true]);
  });

  it('hands a freed slot to a waiting job while the endpoint is answering', async () => {
    const slots = createEndpointSlots(1);
    expect(await slots.acquire('whe_a')).toBe(true);
    slots.release('whe_a'); // one answer came back: the endpoint is moving
    expect(await slots.acquire('whe_a')).toBe(true);
    const waiting = slots.acquire('whe_a');
    slots.release('whe_a');
    expect(await waiting).toBe(true);
  });

  it('tells, before any claim, that a job would be sent away: at the limit and not answering', async () => {
    const slots = createEndpointSlots(1, 1000, 60000);
    expect(slots.wouldRefuse('whe_a')).toBe(false);
    expect(await slots.acquire('whe_a')).toBe(true);
    expect(slots.wouldRefuse('whe_a')).toBe(true); // hanging: nothing has come back yet
    expect(slots.wouldRefuse('whe_b')).toBe(false);
    slots.release('whe_a');
    expect(await slots.acquire('whe_a')).toBe(true);
    expect(slots.wouldRefuse('whe_a')).toBe(false); // at the limit but answering: a job may wait for the slot
  });

  it('sends a job away at once when the endpoint at its limit has not answered lately', async () => {
    const slots = createEndpointSlots(1, 1000, 60000);
    expect(await slots.acquire('whe_hanging')).toBe(true);
    const nextTick = new Promise((resolve) => setImmediate(() => resolve('still waiting')));
    expect(await Promise.race([slots.acquire('whe_hanging'), nextTick])).toBe(false); // answered before any wait
  });
});

describe('signing secret encryption keys', () => {
  const strongKey = 'a production webhook secret key, thirty-two bytes or more';
  const secret = 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldA==';

  it('is required in production; elsewhere a development key (id "dev") is used', () => {
    expect(() => createEndpointSecretCipher({ NODE_ENV: 'production' })).toThrow(/^WEBHOOK_SECRET_KEY is required when NODE_ENV=production/);
    expect(createEndpointSecretCipher({ NODE_ENV: 'production', WEBHOOK_SECRET_KEY: strongKey }).currentKeyId).toMatch(/^[0-9a-f]{8}$/);
    expect(createEndpointSecretCipher({ NODE_ENV: 'test' }).currentKeyId).toBe('dev');
    expect(() => createEndpointSecretCipher({ NODE_ENV: 'production', WEBHOOK_SECRET_KEY: strongKey, WEBHOOK_SECRET_KEYS_PREVIOUS: 'old:short' })).toThrow(
      /^WEBHOOK_SECRET_KEYS_PREVIOUS key old: must be at least 32 bytes/,
    );
  });

  it('decrypts only for the row it was written for, and rows under a previous key once that key is configured', () => {
    const old = createEndpointSecretCipher({ NODE_ENV: 'test', WEBHOOK_SECRET_KEY: 'k'.repeat(40), WEBHOOK_SECRET_KEY_ID: 'old' });
    const stored = old.encrypt('whe_a', secret);
    expect(stored).toMatch(/^v1:old:/);
    expect(stored).not.toContain('whsec_');
    expect(old.decrypt('whe_a', stored)).toEqual({ secret, stale: false });
    expect(() => old.decrypt('whe_b', stored)).toThrow(); // another row's value does not decrypt here

    const current = createEndpointSecretCipher({ NODE_ENV: 'test', WEBHOOK_SECRET_KEY: strongKey, WEBHOOK_SECRET_KEY_ID: 'new', WEBHOOK_SECRET_KEYS_PREVIOUS: `old:${'k'.repeat(40)}` });
    expect(current.decrypt('whe_a', stored)).toEqual({ secret, stale: true });
    expect(current.decrypt('whe_a', secret)).toEqual({ secret, stale: true }); // plaintext from before encryption
    expect(() => createEndpointSecretCipher({ NODE_ENV: 'test', WEBHOOK_SECRET_KEY: strongKey }).decrypt('whe_a', stored)).toThrow(/key id old, which is not configured/);
  });

  it('refuses malformed key settings at start-up', () => {
    expect(() => parseConfig(mobilityConfigSchema, { WEBHOOK_SECRET_KEYS_PREVIOUS: 'no-pair' })).toThrow(/WEBHOOK_SECRET_KEYS_PREVIOUS/);
    expect(() => parseConfig(mobilityConfigSchema, { WEBHOOK_SECRET_KEY_ID: 'bad id' })).toThrow(/WEBHOOK_SECRET_KEY_ID/);
    expect(() => parseConfig(mobilityConfigSchema, { WEBHOOK_MAX_ENDPOINTS_PER_PARTNER: '0' })).toThrow(/WEBHOOK_MAX_ENDPOINTS_PER_PARTNER/);
  });
});
