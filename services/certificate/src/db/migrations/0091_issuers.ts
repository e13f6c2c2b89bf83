import type { Knex } from 'knex';

/**
 * Each organization its own issuer: a did:web under the platform's host with its own Ed25519 keys (the private half
 * AES-256-GCM encrypted under ISSUER_KEY_ENCRYPTION_KEY), rotatable (a retired key stays published so what it signed
 * keeps verifying), and a domain it may prove. A certificate records the key its credential is signed with, fixed the
 * first time it is signed; every certificate stored before this migration is the platform's (`issuer_key_id` =
 * 'platform'), so its credentials keep verifying under the platform DID.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('issuer_keys', (t) => {
    t.text('id').primary(); // the public key's JWK thumbprint (RFC 7638)
    t.text('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('public_x').notNullable(); // the Ed25519 public key, base64url (JWK `x`)
    t.text('private_key_encrypted').notNullable(); // `v1:<base64url of iv ‖ ciphertext ‖ tag>`, AAD = organization id + key id
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('retired_at', { useTz: true }); // rotated out: signs nothing new, still published
    t.index(['organization_id', 'created_at'], 'issuer_keys_by_organization');
  });
  // At most one key an organization signs new credentials with.
  await db.raw('create unique index issuer_keys_one_current on issuer_keys (organization_id) where retired_at is null');
  await db.schema.alterTable('organizations', (t) => {
    t.text('issuer_domain'); // proved by the file at https://<domain>/.well-known/partner-platform-issuer.txt (or set by an operator)
    t.timestamp('issuer_domain_verified_at', { useTz: true });
  });
  await db.schema.createTable('issuer_domain_challenges', (t) => {
    t.text('organization_id').primary().references('organizations.id').onDelete('CASCADE'); // one pending proof at a time
    t.text('domain').notNullable();
    t.text('token').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
  // A constant default fills the rows already stored without rewriting the table; new rows start unsigned (null).
  await db.schema.alterTable('certificates', (t) => {
    t.text('issuer_key_id').defaultTo('platform');
  });
  await db.raw('alter table certificates alter column issuer_key_id drop default');
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('certificates', (t) => t.dropColumn('issuer_key_id'));
  await db.schema.dropTable('issuer_domain_challenges');
  await db.schema.alterTable('organizations', (t) => {
    t.dropColumn('issuer_domain_verified_at');
    t.dropColumn('issuer_domain');
  });
  await db.schema.dropTable('issuer_keys');
}
