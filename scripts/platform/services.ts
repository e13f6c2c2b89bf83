/**
 * The two services' databases, opened the way the services open them (their own config schemas, so the same env vars
 * and development defaults as `pnpm start`; pending migrations applied), and the one organization lookup every command
 * shares: an organization exists when the certificate service knows it or mobility has seen it as a partner.
 */
import type { CertificateOperator } from '@platform/certificate/cli';
import type { MobilityOperator } from '@platform/mobility/cli';
import { CommandError } from './cli';
import { certificateCli, mobilityCli } from './service-modules';

export async function withCertificate<T>(work: (certificate: CertificateOperator) => Promise<T>): Promise<T> {
  const { openCertificateOperator, loadCertificateConfig } = certificateCli();
  const certificate = await openCertificateOperator(loadCertificateConfig('platform'), 'platform');
  try {
    return await work(certificate);
  } finally {
    await certificate.close();
  }
}

export async function withMobility<T>(work: (mobility: MobilityOperator) => Promise<T>): Promise<T> {
  const { openMobilityOperator, loadMobilityConfig } = mobilityCli();
  const mobility = await openMobilityOperator(loadMobilityConfig());
  try {
    return await work(mobility);
  } finally {
    await mobility.close();
  }
}

export interface KnownOrganization {
  id: string;
  name?: string;
  /** The certificate service's first user of the organization (its owner when `org create` made it). */
  ownerId?: string;
}

/** The organization, or exit 1 saying it does not exist and how to make one. */
export async function requireOrganization(id: string): Promise<KnownOrganization> {
  const known = await withCertificate(async ({ services }) => {
    const organization = await services.organizations.find(id);
    return organization ? { id, name: organization.name, ownerId: await services.organizations.firstUser(id) } : undefined;
  });
  if (known) return known;
  if (await withMobility((mobility) => mobility.partnerExists(id))) return { id };
  throw new CommandError(`organization ${id} not found: create one with \`pnpm platform org create --name <name> --owner-email <email>\``);
}
