/**
 * The services' operator modules, loaded on first use: each pulls in its whole service (config, migrations, features),
 * a few hundred milliseconds that `--help`, usage errors and commands of the other service need not pay.
 */
import type * as CertificateCli from '@platform/certificate/cli';
import type * as MobilityCli from '@platform/mobility/cli';

// A synchronous load on demand, kept out of start-up.
export const certificateCli = (): typeof CertificateCli => require('@platform/certificate/cli') as typeof CertificateCli;
export const mobilityCli = (): typeof MobilityCli => require('@platform/mobility/cli') as typeof MobilityCli;
