/** A certificate's status through issue, revoke and expiry, through the real service over in-memory tables: no HTTP, no Postgres. */
import { ConflictError, NotFoundError } from '@platform/service-kit/errors';
import { createCertificatesService } from '../src/features/certificates/certificates.service';
import { createFakeCertificatesRepository, createFakeCreditBalances } from './helpers/fake-certificates-repository';
import { createInMemoryDatabase } from './helpers/in-memory-transactions';

const ORG = 'org_unit';
const noTemplates = { forIssue: async () => new Map() };
const certificate = (overrides: Record<string, unknown> = {}) => ({ recipient_name: 'Ada Obi', program_title: 'Welding', issue_date: '2026-01-10', ...overrides });

function setup(credits = 10) {
  const memory = createInMemoryDatabase();
  const repository = createFakeCertificatesRepository(memory);
  const balances = createFakeCreditBalances(memory, { [ORG]: credits, org_other: 10 });
  const service = createCertificatesService(memory.db, repository, noTemplates, balances.spend);
  return { repository, balances, service };
}

describe('a certificate through issue, revoke and expiry', () => {
  it('is issued valid for one credit, and revoking it makes it revoked for good', async () => {
    const t = setup();
    const issued = await t.service.issue(ORG, certificate());
    expect(issued).toMatchObject({ status: 'valid', revoked_at: null });
    expect(t.balances.balance(ORG)).toBe(9);

    const revoked = await t.service.revoke(ORG, issued.id);
    expect(revoked).toMatchObject({ id: issued.id, status: 'revoked', revoked_at: expect.any(String) });
    await expect(t.service.get(ORG, issued.id)).resolves.toMatchObject({ status: 'revoked', revoked_at: revoked.revoked_at });
  });

  it('revoking twice keeps the first revocation time', async () => {
    const t = setup();
    const issued = await t.service.issue(ORG, certificate());
    const first = await t.service.revoke(ORG, issued.id);
    const second = await t.service.revoke(ORG, issued.id);
    expect(second).toMatchObject({ status: 'revoked', revoked_at: first.revoked_at });
  });

  it('a past expiry date reads as expired, a future one as valid; a revoked certificate reads as revoked even once expired', async () => {
    const t = setup();
    const expired = await t.service.issue(ORG, certificate({ expires_on: '2020-01-01' }));
    const current = await t.service.issue(ORG, certificate({ expires_on: '2999-01-01' }));
    expect(expired.status).toBe('expired');
    expect(current.status).toBe('valid');
    await expect(t.service.revoke(ORG, expired.id)).resolves.toMatchObject({ status: 'revoked' });
  });

  it('another organization can neither see nor revoke it (404), and it stays valid', async () => {
    const t = setup();
    const issued = await t.service.issue(ORG, certificate());
    await expect(t.service.revoke('org_other', issued.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(t.service.get('org_other', issued.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(t.service.get(ORG, issued.id)).resolves.toMatchObject({ status: 'valid' });
  });

  it('a batch is all or nothing: a taken certificate_number is a 409 and neither certificates nor credits move', async () => {
    const t = setup();
    await t.service.issue(ORG, certificate({ certificate_number: 'CERT-1' }));
    await expect(t.service.issueBatch(ORG, [certificate({ certificate_number: 'CERT-2' }), certificate({ certificate_number: 'CERT-1' })])).rejects.toBeInstanceOf(ConflictError);
    expect(t.repository.rows().map((row) => row.certificate_number)).toEqual(['CERT-1']);
    expect(t.balances.balance(ORG)).toBe(9);
  });

  it('without enough credits nothing is issued', async () => {
    const t = setup(1);
    await expect(t.service.issueBatch(ORG, [certificate(), certificate()])).rejects.toThrow('Insufficient certificate credits');
    expect(t.repository.rows()).toEqual([]);
    expect(t.balances.balance(ORG)).toBe(1);
  });
});
