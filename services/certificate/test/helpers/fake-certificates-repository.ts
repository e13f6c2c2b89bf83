import type { CertificateRow, CertificatesRepository } from '../../src/features/certificates/certificates.repository';
import type { SpendCredits } from '../../src/features/certificates/certificates.service';
import type { InMemoryDatabase } from './in-memory-transactions';

/**
 * The certificates table in memory, with the SQL's guarantees: an insert is `valid`, a taken certificate_number fails
 * the whole batch as the unique index does (23505), revoking keeps the first revocation's time, lists are newest first.
 * Rows roll back with the fake's transactions and are copied in and out.
 */
export function createFakeCertificatesRepository(memory: InMemoryDatabase): CertificatesRepository & { rows(): CertificateRow[] } {
  let rows = new Map<string, CertificateRow>();
  let clock = 0;
  const now = () => new Date(Date.UTC(2026, 0, 1) + ++clock * 1000);
  memory.register({
    snapshot() {
      const saved = new Map([...rows].map(([id, row]) => [id, structuredClone(row)]));
      return () => void (rows = saved);
    },
  });
  const ofOrganization = (organizationId: string, id: string, livemode: boolean) => {
    const row = rows.get(id);
    return row?.organization_id === organizationId && row.livemode === livemode ? row : undefined;
  };
  return {
    async insertMany(_trx, batch) {
      const numbers = new Set([...rows.values()].map((row) => `${row.organization_id}/${row.certificate_number}`));
      const stored = batch.map((row) => {
        const key = `${row.organization_id}/${row.certificate_number}`;
        if (numbers.has(key)) throw Object.assign(new Error('duplicate key'), { code: '23505', constraint: 'certificates_organization_id_certificate_number_unique' });
        numbers.add(key);
        const at = now();
        const { recipient_identity_salt: _salt, recipient_identity_hash: _hash, ...stored } = structuredClone(row);
        return { ...stored, status: 'valid' as const, created_at: at, updated_at: at, revoked_at: null, delivery_last_error: null, delivery_sent_at: null };
      });
      for (const row of stored) rows.set(row.id, structuredClone(row));
      return structuredClone(stored);
    },
    async find(organizationId, id, livemode) {
      const row = ofOrganization(organizationId, id, livemode);
      return row && structuredClone(row);
    },
    async list(organizationId, livemode, limit, after) {
      const newestFirst = [...rows.values()]
        .filter((row) => row.organization_id === organizationId && row.livemode === livemode)
        .sort((a, b) => b.created_at.getTime() - a.created_at.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
      const cursor = after ? newestFirst.findIndex((row) => row.id === after) : -1;
      if (after && cursor < 0) return [];
      return structuredClone(newestFirst.slice(cursor + 1, cursor + 1 + limit));
    },
    async revoke(organizationId, id, livemode) {
      const row = ofOrganization(organizationId, id, livemode);
      if (!row) return undefined;
      const at = now();
      const revoked: CertificateRow = { ...row, status: 'revoked', revoked_at: row.revoked_at ?? at, updated_at: at };
      rows.set(id, structuredClone(revoked));
      return structuredClone(revoked);
    },
    async markPending(organizationId, id, livemode) {
      const row = ofOrganization(organizationId, id, livemode);
      if (!row) return undefined;
      const pending: CertificateRow = { ...row, delivery_status: row.recipient_email ? 'pending' : null };
      rows.set(id, structuredClone(pending));
      return structuredClone(pending);
    },
    async recordDelivery(id, outcome) {
      const row = rows.get(id);
      if (!row?.recipient_email) return undefined;
      const recorded: CertificateRow =
        outcome.status === 'sent' ? { ...row, delivery_status: 'sent', delivery_last_error: null, delivery_sent_at: now() } : { ...row, delivery_status: outcome.status, delivery_last_error: outcome.error };
      rows.set(id, structuredClone(recorded));
      return structuredClone(recorded);
    },
    async claimStalePending() {
      return [];
    },
    rows: () => structuredClone([...rows.values()]),
  };
}

/** Organizations' credit balances in memory: a spend takes one per reference or, when short, fails (402) and takes none. */
export function createFakeCreditBalances(memory: InMemoryDatabase, balances: Record<string, number>) {
  let current = new Map(Object.entries(balances));
  memory.register({
    snapshot() {
      const saved = new Map(current);
      return () => void (current = saved);
    },
  });
  const spend: SpendCredits = async (_trx, organizationId, references) => {
    const balance = current.get(organizationId) ?? 0;
    if (balance < references.length) throw Object.assign(new Error('Insufficient certificate credits'), { status: 402 });
    current.set(organizationId, balance - references.length);
    return balance - references.length;
  };
  return { spend, balance: (organizationId: string) => current.get(organizationId) ?? 0 };
}
