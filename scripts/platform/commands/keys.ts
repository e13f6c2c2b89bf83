import { CommandError, UsageError, commaList, stringFlag, type CommandSpec } from '../cli';
import { mobilityCli } from '../service-modules';
import { requireOrganization, withCertificate, withMobility } from '../services';

/** Who a key names as its creator when the organization has no certificate user (it was only ever seen by mobility). */
const CLI_CREATOR = 'platform-cli';

export const keysCreate: CommandSpec = {
  name: 'keys create',
  summary: 'create an API key for the certificate (ck_…) or mobility (mk_…) service; the token is printed once',
  synopsis: '--service certificate|mobility --org <id> [--name <name>] [--scopes a,b] [--test]',
  details: () => [
    `--scopes (mobility only; default: all of them): ${mobilityCli().MOBILITY_SCOPES.join(', ')}.`,
    '--name defaults to "CLI key". --test makes a test-mode key: mk_test_… for the mobility sandbox, ck_test_… for free test certificates.',
    'The key is created by the organization\'s owner. Only a hash of the token is stored: copy it now.',
  ],
  flags: { service: 'string', org: 'string', name: 'string', scopes: 'string', test: 'boolean' },
  quiet: 'the token (ck_…, ck_test_…, mk_… or mk_test_…)',
  required: ['service', 'org'],
  async run({ flags, out }) {
    const service = stringFlag(flags, 'service');
    if (service !== 'certificate' && service !== 'mobility') throw new UsageError('--service must be certificate or mobility');
    const name = stringFlag(flags, 'name') ?? 'CLI key';
    const scopes = commaList(flags.scopes);
    const test = flags.test === true;
    if (service === 'certificate' && scopes) throw new UsageError('certificate keys have no scopes: leave out --scopes');
    const organization = await requireOrganization(stringFlag(flags, 'org')!);
    const userId = organization.ownerId ?? CLI_CREATOR;
    const key =
      service === 'certificate'
        ? await withCertificate(({ services }) => {
            if (!organization.ownerId) throw new CommandError(`organization ${organization.id} has no user in the certificate service`);
            return services.apiKeys.create({ organizationId: organization.id, userId, name, livemode: !test });
          })
        : await withMobility((mobility) =>
            mobility.createKey({ organizationId: organization.id, organizationName: organization.name, userId, name, scopes: scopes ?? [...mobilityCli().MOBILITY_SCOPES], ...(test ? { mode: 'test' as const } : {}) }),
          );
    out.result({ service, organization: organization.id, ...key }, [
      `Created ${service} key ${key.id} "${key.name}" for ${organization.id}${key.scopes ? ` (scopes: ${key.scopes.join(', ')})` : ''}`,
      'Token (shown only now; only its hash is stored):',
      key.token,
    ], key.token);
  },
};
