import { CommandError, UsageError, stringFlag, type CommandSpec } from '../cli';
import { issueActivationCode } from '../driver-sign-in';
import { requireOrganization, withMobility } from '../services';

/** Placeholders for trying the platform: a real fleet gives every flag. 555-01xx numbers are reserved for fiction. */
const DEFAULTS = {
  phone: '+15555550100',
  driver: { tier: 'economy', vehicle: 'Toyota,Corolla,DEMO-001,Silver' },
  courier: { tier: 'moto', vehicle: 'Honda,CG125,DEMO-002,Red' },
} as const;

export const driversRegister: CommandSpec = {
  name: 'drivers register',
  summary: "register a driver (or with --courier a courier) in the organization's fleet (prints the driver id)",
  synopsis: '--org <id> --name <name> [--courier] [--phone <+number>] [--tier moto|economy|comfort|xl] [--vehicle "make,model,plate,color"]',
  details: [
    `Defaults, for trying things out: --phone ${DEFAULTS.phone}; a driver is economy in a "${DEFAULTS.driver.vehicle}",`,
    `a courier is moto on a "${DEFAULTS.courier.vehicle}". Registered as the organization's operator would`,
    '(POST /admin/v1/drivers): the driver serves this organization only, and starts offline.',
  ],
  flags: { org: 'string', name: 'string', courier: 'boolean', phone: 'string', tier: 'string', vehicle: 'string' },
  quiet: 'the driver id (drv_…)',
  required: ['org', 'name'],
  async run({ flags, out }) {
    const kind = flags.courier === true ? 'courier' : 'driver';
    const vehicleText = stringFlag(flags, 'vehicle') ?? DEFAULTS[kind].vehicle;
    const parts = vehicleText.split(',').map((part) => part.trim());
    if (parts.length !== 4 || parts.some((part) => !part)) throw new UsageError('--vehicle must be "make,model,plate,color"');
    const [make, model, plate, color] = parts as [string, string, string, string];
    const organization = await requireOrganization(stringFlag(flags, 'org')!);
    const driver = await withMobility((mobility) =>
      mobility.registerDriver(
        { org: organization.id, org_name: organization.name, role: 'operator' },
        { name: stringFlag(flags, 'name'), phone: stringFlag(flags, 'phone') ?? DEFAULTS.phone, kind, tier: stringFlag(flags, 'tier') ?? DEFAULTS[kind].tier, vehicle: { make, model, plate, color } },
      ),
    );
    const lines = [`Registered ${driver.kind} ${driver.id} (${driver.name}, ${driver.tier}, ${driver.vehicle.make} ${driver.vehicle.model} ${driver.vehicle.plate}) in ${organization.id}`];
    // Registering answers the driver's first sign-in code (shown only here).
    const { activation_code: code } = driver as { activation_code?: unknown };
    if (typeof code === 'string') lines.push('Sign-in code for the driver app (shown only now):', code);
    out.result(driver, lines, driver.id);
  },
};

export const driversCode: CommandSpec = {
  name: 'drivers code',
  summary: 'issue a new sign-in (activation) code for a driver or courier',
  synopsis: '<driver-id>',
  details: ['The code is printed once; the driver app exchanges it for its token.'],
  flags: {},
  quiet: 'the sign-in code',
  positionals: ['driver-id'],
  async run({ positionals, out }) {
    const driverId = positionals[0]!;
    const driver = await withMobility((mobility) => mobility.findDriver(driverId));
    if (!driver) throw new CommandError(`driver ${driverId} not found`);
    const code = await issueActivationCode(driver.id);
    out.result(code, [`Sign-in code for ${driver.id} (shown only now; expires ${code.expires_at}):`, code.activation_code], code.activation_code);
  },
};
