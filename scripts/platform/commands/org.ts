import { UsageError, stringFlag, type CommandSpec } from '../cli';
import type { OwnerInvitation } from '@platform/certificate/cli';
import { withCertificate } from '../services';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const orgCreate: CommandSpec = {
  name: 'org create',
  summary: 'create an organization and its owner, and invite the owner to the dashboard (prints both ids)',
  synopsis: '--name <name> --owner-email <email> [--owner-name <name>]',
  details: [
    'The organization gets the free plan (10 certificate credits) and is the same organization in the mobility service',
    '(its partner record is created when a mobility key, driver or admin token first names it). Ids are generated:',
    'org_… and usr_… (the owner: `token admin --org <id>` signs as this user).',
    'The owner e-mail gets an owner invitation to the dashboard: mailed through SMTP_URL (with `pnpm start` running, its',
    "local mail inbox), else its one-time link is printed. Signing up or in with that address through the link opens",
    'the organization in the dashboard. With --quiet the invitation line goes to stderr.',
  ],
  flags: { name: 'string', 'owner-email': 'string', 'owner-name': 'string' },
  quiet: 'the organization id (org_…)',
  required: ['name', 'owner-email'],
  async run({ flags, out }) {
    const name = stringFlag(flags, 'name')!.trim();
    const ownerEmail = stringFlag(flags, 'owner-email')!.trim();
    const ownerName = stringFlag(flags, 'owner-name')?.trim();
    if (!name || name.length > 200) throw new UsageError('--name must be 1 to 200 characters');
    if (!EMAIL.test(ownerEmail) || ownerEmail.length > 320) throw new UsageError('--owner-email must be an e-mail address');
    const { organizationId, ownerId, invitation } = await withCertificate(async (certificate) => {
      const created = await certificate.createOrganization(name);
      return { ...created, invitation: await certificate.inviteOwner(created.organizationId, name, created.ownerId, ownerEmail) };
    });
    const invited = invitationLines(invitation);
    if (!out.json && flags.quiet) process.stderr.write(`${invited.join('\n')}\n`); // stdout carries the id alone
    out.result(
      { organization: { id: organizationId, name }, owner: { id: ownerId, email: ownerEmail, name: ownerName ?? null, role: 'owner' }, invitation },
      [`Created organization ${organizationId} (${name})`, `Owner ${ownerId} <${ownerEmail}>${ownerName ? ` ${ownerName}` : ''}`, ...invited],
      organizationId,
    );
  },
};

/** What the operator needs to get the owner into the dashboard: where the invitation went, or its link. */
function invitationLines(invitation: OwnerInvitation): string[] {
  const days = Math.round((Date.parse(invitation.expires_at) - Date.now()) / 86400_000);
  if (invitation.mailed) {
    const inbox = invitation.mail_inbox_url ? ` (read it in the local mail inbox: ${invitation.mail_inbox_url})` : '';
    return [`Invitation to the dashboard mailed to ${invitation.email}${inbox}`];
  }
  return [
    `Invitation to the dashboard not mailed: ${invitation.mail_problem}. Give ${invitation.email} this one-time link (${days} days):`,
    `  ${invitation.invite_url}`,
  ];
}
