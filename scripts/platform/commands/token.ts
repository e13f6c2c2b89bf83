import { ADMIN_ROLES, signAdminToken, signDriverToken, type AdminClaims } from '@platform/service-kit/auth';
import { CommandError, UsageError, parseDuration, stringFlag, type CommandSpec } from '../cli';
import { certificateCli } from '../service-modules';
import { requireOrganization, withMobility } from '../services';

export const tokenAdmin: CommandSpec = {
  name: 'token admin',
  summary: 'mint an admin (dashboard) JWT for scripting the /admin/v1 APIs of both services',
  synopsis: `--org <id> [--role ${ADMIN_ROLES.join('|')}] [--user <id>] [--ttl 15m]`,
  details: [
    'Signed HS256 with JWT_SECRET (when unset outside production: this checkout\'s, from .data/dev-secrets.json), iss JWT_ISSUER,',
    'aud admin. --role defaults to owner, --user to the organization\'s owner, --ttl to 15m (at most ADMIN_TOKEN_MAX_TTL_S, 12h).',
    'Use it as `Authorization: Bearer <token>` against http://127.0.0.1:3001/admin/v1 and http://127.0.0.1:3002/admin/v1.',
  ],
  flags: { org: 'string', role: 'string', user: 'string', ttl: 'string' },
  quiet: 'the token',
  required: ['org'],
  async run({ flags, out }) {
    const role = (stringFlag(flags, 'role') ?? 'owner') as AdminClaims['role'];
    if (!ADMIN_ROLES.includes(role)) throw new UsageError(`--role must be one of ${ADMIN_ROLES.join(', ')}`);
    const config = certificateCli().loadCertificateConfig('platform');
    const ttlSeconds = parseDuration(stringFlag(flags, 'ttl') ?? '15m', 'ttl');
    if (ttlSeconds > config.ADMIN_TOKEN_MAX_TTL_S) throw new UsageError(`--ttl must be at most ${config.ADMIN_TOKEN_MAX_TTL_S} seconds (ADMIN_TOKEN_MAX_TTL_S): the services refuse longer admin tokens`);
    const organization = await requireOrganization(stringFlag(flags, 'org')!);
    const sub = stringFlag(flags, 'user') ?? organization.ownerId;
    if (!sub) throw new CommandError(`organization ${organization.id} has no owner user: pass --user <id>`);
    const claims: AdminClaims = { sub, org: organization.id, role, ...(organization.name ? { org_name: organization.name } : {}) };
    const token = signAdminToken(claims, config.JWT_SECRET, { issuer: config.JWT_ISSUER, ttlSeconds });
    const expiresAt = new Date(Date.now() + ttlSeconds * 1000).toISOString();
    out.result({ token, expires_at: expiresAt, claims: { ...claims, aud: 'admin', iss: config.JWT_ISSUER } }, [
      `Admin token for ${organization.id} (role ${role}, user ${sub}), valid until ${expiresAt}:`,
      token,
    ], token);
  },
};

export const tokenDriver: CommandSpec = {
  name: 'token driver',
  summary: 'mint a driver-app JWT for a registered driver or courier (for /driver/v1)',
  synopsis: '<driver-id> [--ttl 1h]',
  details: ['Signed HS256 with JWT_SECRET, sub the driver id, role driver, aud driver. --ttl defaults to 1h (at most 24h).'],
  flags: { ttl: 'string' },
  quiet: 'the token',
  positionals: ['driver-id'],
  async run({ flags, positionals, out }) {
    const ttlSeconds = parseDuration(stringFlag(flags, 'ttl') ?? '1h', 'ttl');
    if (ttlSeconds > 86400) throw new UsageError('--ttl must be at most 24h');
    const driverId = positionals[0]!;
    const { driver, config } = await withMobility(async (mobility) => ({ driver: await mobility.findDriver(driverId), config: mobility.config }));
    if (!driver) throw new CommandError(`driver ${driverId} not found`);
    if (driver.status === 'disabled') throw new CommandError(`driver ${driverId} is disabled: the driver app refuses its tokens`);
    const token = signDriverToken(driver.id, config.JWT_SECRET, { issuer: config.JWT_ISSUER, ttlSeconds });
    const expiresAt = new Date(Date.now() + ttlSeconds * 1000).toISOString();
    out.result({ token, expires_at: expiresAt, driver_id: driver.id }, [`Driver token for ${driver.id} (${driver.name}), valid until ${expiresAt}:`, token], token);
  },
};
