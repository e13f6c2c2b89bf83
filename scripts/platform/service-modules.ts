/**
 * The services' operator modules, loaded on first use: each pulls in its whole service (config, migrations, features),
 * a few hundred milliseconds that `--help`, usage errors and commands of the other service need not pay.
 */
import type * as CertificateCli from '#certificate-cli';
import type * as MobilityCli from '#mobility-cli';

// A synchronous load on demand, kept out of start-up.
export const certificateCli = (): typeof CertificateCli => require('#certificate-cli') as typeof CertificateCli;
export const mobilityCli = (): typeof MobilityCli => require('#mobility-cli') as typeof MobilityCli;
