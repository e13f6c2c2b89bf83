import type { Knex } from '@platform/service-kit/db';
import { formatVerificationCode } from '../certificates';

export interface CertificateSearchResult {
  kind: 'certificate' | 'member';
  id: string;
  label: string;
  detail: string | null;
  verification_code?: string | null;
}

export type CertificateSearchReader = ReturnType<typeof createCertificateSearchReader>;

/** `a_b%` → `a\_b\%`: the text matched literally by `like`. */
const literal = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The dashboard's search within one organization: its certificates of one mode whose id, verification code or number is
 * `q` or starts with it (codes in any case, with or without their dashes; numbers in any case), and its members whose email starts with `q` (any case). Exact
 * matches first, then the newest; at most `limit` of each kind.
 */
export function createCertificateSearchReader(db: Knex) {
  return async (organizationId: string, { q, livemode, limit }: { q: string; livemode: boolean; limit: number }): Promise<CertificateSearchResult[]> => {
    const prefix = `${literal(q.toLowerCase())}%`;
    const lower = q.toLowerCase();
    // Codes are stored compact (`ABCDEF…`) and shown in groups (`ABCDEF-GHJKMN-…`): any case, dashes and spaces match.
    const code = q.replace(/[\s-]/g, '').toUpperCase();
    const [certificates, members] = await Promise.all([
      db('certificates')
        .select('id', 'verification_code', 'certificate_number', 'recipient_name', 'program_title', 'status')
        .where({ organization_id: organizationId, livemode })
        .where((w) =>
          void w
            .where('id', q)
            .orWhere('id', 'like', `${literal(q)}%`)
            .orWhere('verification_code', 'like', `${literal(code || q)}%`)
            .orWhereRaw('lower(certificate_number) like ?', [prefix]),
        )
        .orderByRaw('(id = ? or verification_code = ? or lower(certificate_number) = ?) desc, created_at desc, id desc', [q, code, lower])
        .limit(limit),
      db('memberships as m')
        .join('accounts as a', 'a.id', 'm.account_id')
        .select('a.id', 'a.email', 'a.name', 'm.role')
        .where('m.organization_id', organizationId)
        .whereRaw('lower(a.email) like ?', [prefix])
        .orderByRaw('(lower(a.email) = ?) desc, lower(a.email)', [lower])
        .limit(limit),
    ]);
    return [
      ...certificates.map((c: { id: string; verification_code: string; certificate_number: string; recipient_name: string; program_title: string; status: string }) => ({
        kind: 'certificate' as const,
        id: c.id,
        label: c.certificate_number,
        detail: `${c.recipient_name}, ${c.program_title}, code ${formatVerificationCode(c.verification_code)}, ${c.status}`,
        verification_code: formatVerificationCode(c.verification_code),
      })),
      ...members.map((m: { id: string; email: string; name: string; role: string }) => ({ kind: 'member' as const, id: m.id, label: m.email, detail: `${m.name}, ${m.role}` })),
    ];
  };
}
