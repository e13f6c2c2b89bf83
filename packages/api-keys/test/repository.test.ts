import { createDatabase, type Knex } from '@platform/service-kit/db';
import { createRunDatabase, dropRunDatabase } from '@platform/test-kit';
import { createKnexApiKeyRepository, type ApiKeyRepository } from '../src/api-keys.repository';
import { createApiKeyService, type ApiKeyService } from '../src/api-keys.service';

/**
 * The package on a real Postgres, on a table it does not know the names of: its own schema (not on the search path)
 * and its own owner and creator columns, as a third service would bring.
 */
let url: string;
let db: Knex;
let repository: ApiKeyRepository;
let service: ApiKeyService;

beforeAll(async () => {
  url = await createRunDatabase('api_keys');
  db = createDatabase(url, 'public', 2);
  await db.raw('create schema partner_keys');
  await db.schema.withSchema('partner_keys').createTable('keys', (t) => {
    t.text('id').primary();
    t.text('tenant').notNullable();
    t.text('author').notNullable();
    t.text('name').notNullable();
    t.specificType('permissions', 'text[]').notNullable();
    t.text('token_hash').notNullable().unique();
    t.text('token_hint').notNullable();
    t.text('status').notNullable().defaultTo('active');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('rotated_at', { useTz: true });
    t.timestamp('revoked_at', { useTz: true });
    t.timestamp('last_used_at', { useTz: true });
    t.timestamp('expires_at', { useTz: true });
    t.text('previous_token_hash');
    t.timestamp('previous_token_expires_at', { useTz: true });
  });
  repository = createKnexApiKeyRepository(db, { schema: 'partner_keys', table: 'keys', organizationColumn: 'tenant', creatorColumn: 'author', scopesColumn: 'permissions' });
  service = createApiKeyService(repository, { tokenPrefix: 'tk_' });
});

afterAll(async () => {
  await service?.flushUsage();
  await db?.destroy();
  await dropRunDatabase(url);
});

const rowOf = (id: string) => db.withSchema('partner_keys').table('keys').where({ id }).first();

describe('the API-key package on a caller-named table', () => {
  it('stores the key in the caller\'s schema and columns, and authenticates its token', async () => {
    const key = await service.create({ organizationId: 'tenant_a', userId: 'ann', name: 'ci', scopes: ['read', 'read', 'write'] });
    expect(key).toMatchObject({ status: 'active', scopes: ['read', 'write'], token: expect.stringMatching(/^tk_[0-9A-Za-z]{36}$/) });
    const row = await rowOf(key.id);
    expect(row).toMatchObject({ tenant: 'tenant_a', author: 'ann', permissions: ['read', 'write'] });
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(await service.authenticate(key.token)).toEqual({ keyId: key.id, organizationId: 'tenant_a', scopes: ['read', 'write'], livemode: true });
    expect(key).not.toHaveProperty('livemode'); // this table has no test mode
    await expect(service.create({ organizationId: 'tenant_a', userId: 'ann', name: 'test', scopes: ['read'], livemode: false })).rejects.toMatchObject({ status: 422 });
  });

  it('issues test-mode tokens under the test prefix where the table has a livemode column, across rotation', async () => {
    await db.schema.withSchema('partner_keys').alterTable('keys', (t) => {
      t.boolean('live').notNullable().defaultTo(true);
    });
    const moded = createApiKeyService(
      createKnexApiKeyRepository(db, { schema: 'partner_keys', table: 'keys', organizationColumn: 'tenant', creatorColumn: 'author', scopesColumn: 'permissions', livemodeColumn: 'live' }),
      { tokenPrefix: 'tk_', testTokenPrefix: 'tk_test_' },
    );
    const test = await moded.create({ organizationId: 'tenant_m', userId: 'ann', name: 'sandbox', scopes: ['read'], livemode: false });
    expect(test).toMatchObject({ livemode: false, token: expect.stringMatching(/^tk_test_[0-9A-Za-z]{36}$/) });
    expect(await rowOf(test.id)).toMatchObject({ live: false });
    expect(await moded.authenticate(test.token)).toMatchObject({ keyId: test.id, livemode: false });
    const live = await moded.create({ organizationId: 'tenant_m', userId: 'ann', name: 'prod', scopes: ['read'] });
    expect(live).toMatchObject({ livemode: true, token: expect.stringMatching(/^tk_[0-9A-Za-z]{36}$/) });
    expect(await moded.authenticate(live.token)).toMatchObject({ keyId: live.id, livemode: true });
    const rotated = await moded.rotate('tenant_m', test.id);
    expect(rotated.token).toMatch(/^tk_test_/);
    expect(await moded.authenticate(test.token)).toBeUndefined();
    expect(await moded.authenticate(rotated.token)).toMatchObject({ livemode: false });
    await moded.flushUsage();
  });

  it('writes last_used_at only when it is empty or over a minute old', async () => {
    const key = await service.create({ organizationId: 'tenant_b', userId: 'bob', name: 'usage' });
    expect(await repository.touchLastUsed(key.id)).toBe(true);
    expect(await repository.touchLastUsed(key.id)).toBe(false);
    await db.withSchema('partner_keys').table('keys').where({ id: key.id }).update({ last_used_at: db.raw("now() - interval '61 seconds'") });
    expect(await repository.touchLastUsed(key.id)).toBe(true);
  });

  it('keeps the replaced token usable during the grace period only, and never after a revoke', async () => {
    const key = await service.create({ organizationId: 'tenant_c', userId: 'cy', name: 'grace' });
    const rotated = await service.rotate('tenant_c', key.id, 300);
    expect(await service.authenticate(key.token)).toMatchObject({ keyId: key.id });
    expect(await service.authenticate(rotated.token)).toMatchObject({ keyId: key.id });
    await db.withSchema('partner_keys').table('keys').where({ id: key.id }).update({ previous_token_expires_at: db.raw("now() - interval '1 second'") });
    expect(await service.authenticate(key.token)).toBeUndefined();

    const again = await service.rotate('tenant_c', key.id, 300);
    await service.revoke('tenant_c', key.id);
    expect(await service.authenticate(rotated.token)).toBeUndefined();
    expect(await service.authenticate(again.token)).toBeUndefined();
    expect(await rowOf(key.id)).toMatchObject({ previous_token_hash: null, previous_token_expires_at: null });
  });

  it('finds nothing of another organization, and pages newest first', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.unshift((await service.create({ organizationId: 'tenant_d', userId: 'di', name: `k${i}` })).id);
    await expect(service.revoke('tenant_a', ids[0]!)).rejects.toMatchObject({ status: 404 });
    const first = await service.list('tenant_d', { limit: 2 });
    expect(first).toMatchObject({ has_more: true, next_cursor: ids[1] });
    const second = await service.list('tenant_d', { limit: 2, cursor: first.next_cursor! });
    expect([...first.data, ...second.data].map((k) => k.id)).toEqual(ids);
    expect(second).toMatchObject({ has_more: false, next_cursor: null });
  });
});
