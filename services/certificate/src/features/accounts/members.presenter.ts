import type { z } from 'zod';
import type { invitationSchema } from './accounts.contract';
import type { InvitationRow } from './accounts.repository';

/** An invitation link as the admin API lists it (without its token). */
export function invitationView(row: InvitationRow): z.infer<typeof invitationSchema> {
  return { id: row.id, role: row.role, email: row.email, created_at: row.created_at.toISOString(), expires_at: row.expires_at.toISOString() };
}
