import { UsageError, stringFlag, type CommandSpec } from '../cli';
import { withCertificate } from '../services';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const orgCreate: CommandSpec = {
  name: 'org create',
  summary: 'create an organization and its owner (prints both ids)',
  synopsis: '--name <name> --owner-email <email> [--owner-name <name>]',
  details: [
    'The organization gets the free plan (10 certificate credits) and is the same organization in the mobility service',
    '(its partner record is created when a mobility key, driver or admin token first names it). Ids are generated:',
    'org_… and usr_… (the owner: `token admin --org <id>` signs as this user). The services keep no e-mail address or',
    'display name of users; they are printed back for your records only.',
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
    const { organizationId, ownerId } = await withCertificate((certificate) => certificate.createOrganization(name));
    out.result(
      { organization: { id: organizationId, name }, owner: { id: ownerId, email: ownerEmail, name: ownerName ?? null, role: 'owner' } },
      [`Created organization ${organizationId} (${name})`, `Owner ${ownerId} <${ownerEmail}>${ownerName ? ` ${ownerName}` : ''}`],
      organizationId,
    );
  },
};
