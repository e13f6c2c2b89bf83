/**
 * Each service's token prefixes and scopes, in one place: the services issue and check them, the gateway tells API
 * tokens from other bearer tokens by them, and tools (tests, drills, load runs, the simulator) ask for keys with them.
 * No imports, so any of those (and a browser bundle) can read it.
 */

/** Certificate's live keys: `ck_…`. */
export const CERTIFICATE_TOKEN_PREFIX = 'ck_';
/** Certificate's test-mode keys: `ck_test_…`, same body and checksum scheme as live ones (a length of its own). */
export const CERTIFICATE_TEST_TOKEN_PREFIX = 'ck_test_';
/** Mobility's live keys: `mk_…`. */
export const MOBILITY_TOKEN_PREFIX = 'mk_';
/** Mobility's test-mode keys: `mk_test_…`, same body and checksum scheme as live ones (a length of its own). */
export const MOBILITY_TEST_TOKEN_PREFIX = 'mk_test_';
/** Every prefix an API token of this platform starts with. */
export const API_TOKEN_PREFIXES = [CERTIFICATE_TOKEN_PREFIX, CERTIFICATE_TEST_TOKEN_PREFIX, MOBILITY_TOKEN_PREFIX, MOBILITY_TEST_TOKEN_PREFIX] as const;

/** The scopes a mobility key may carry; a key created without a choice (operator CLI) gets all of them. */
export const MOBILITY_SCOPES = ['estimates:read', 'rides:write', 'rides:read', 'deliveries:write', 'deliveries:read', 'webhooks:manage', 'event_passes:write', 'event_passes:read'] as const;
export type MobilityScope = (typeof MOBILITY_SCOPES)[number];
