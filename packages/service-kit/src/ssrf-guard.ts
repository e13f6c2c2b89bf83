import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * The guard for every request the platform makes to an address someone else chose (a mobility webhook URL, an
 * issuer's domain whose proof file the certificate service fetches): such an address must never reach our own network.
 * The address is checked before the request and again when connecting, and the connection goes only to the address it
 * checked (the check runs inside the socket's `lookup`, so a DNS answer that changes in between cannot slip through).
 */
export interface TargetPolicy {
  /** Accept `http://` (development and tests only: WEBHOOK_ALLOW_HTTP, ISSUER_DOMAIN_ALLOW_HTTP). */
  allowHttp: boolean;
  /** Accept loopback and private targets (development and tests only: WEBHOOK_ALLOW_PRIVATE, ISSUER_DOMAIN_ALLOW_PRIVATE). */
  allowPrivate: boolean;
}

/** The default text of a connection the guard refused: it names the host, never the address it resolved to. */
export function refusedConnectionTo(host: string): string {
  return `refused to connect to ${host}: the address is not allowed`;
}

export class UnsafeTargetError extends Error {
  /** One code for every refusal; `reason` (our logs only) says which rule refused it. */
  readonly code = 'url_refused';

  constructor(
    /** Why, for our logs: may name the host's resolution; callers show a fixed text of their own instead. */
    readonly reason: string,
    readonly kind = 'unsafe_target',
    /** The forbidden address the host resolved to: for our logs only, never for the partner's answer or log. */
    readonly forbiddenAddress?: string,
  ) {
    super(reason);
    this.name = 'UnsafeTargetError';
  }
}

// Two lists: node's BlockList also checks an IPv4 address against IPv6 rules in its ::ffff: form.
const blockedV4 = new BlockList();
const blockedV6 = new BlockList();
// IPv4: "this network", private, CGNAT, loopback, link-local (cloud metadata), IETF, documentation, 6to4 relay,
// benchmarking, multicast, reserved and broadcast.
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blockedV4.addSubnet(net, bits, 'ipv4');
}
// IPv6: unspecified, loopback, IPv4-mapped and -translated, discard, IETF protocol assignments (Teredo inside),
// documentation, 6to4, unique local, link-local, site-local, multicast.
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['::ffff:0:0', 96],
  ['::', 96], // IPv4-compatible (deprecated)
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  blockedV6.addSubnet(net, bits, 'ipv6');
}

/** Whether an IP address is loopback, private, link-local, CGNAT, multicast, unspecified, mapped or otherwise reserved. */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blockedV4.check(address, 'ipv4');
  if (family === 6) {
    // IPv4-mapped addresses (::ffff:127.0.0.1, ::ffff:7f00:1) are refused whatever they embed.
    if (address.toLowerCase().startsWith('::ffff:')) return true;
    return blockedV6.check(address, 'ipv6');
  }
  return true; // not an IP address at all
}

/** The URL as we will call it, or an UnsafeTargetError naming what is wrong. Does not resolve the host. */
export function parseTargetUrl(raw: string, policy: TargetPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeTargetError('must be an absolute URL', 'invalid_url');
  }
  if (url.protocol !== 'https:' && !(policy.allowHttp && url.protocol === 'http:')) {
    throw new UnsafeTargetError('must be an https:// URL', 'https_required');
  }
  if (url.username || url.password) throw new UnsafeTargetError('must not contain credentials', 'invalid_url');
  if (!url.hostname) throw new UnsafeTargetError('must name a host', 'invalid_url');
  return url;
}

/** `[::1]` → `::1`: the URL keeps IPv6 literals in brackets. */
export function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/** Resolves a host (IP literals as they are) to every address it has. */
export function resolveHost(host: string): Promise<LookupAddress[]> {
  const family = isIP(host);
  if (family) return Promise.resolve([{ address: host, family }]);
  return new Promise((resolve, reject) => {
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses)));
  });
}

/** Registration check: the scheme, then every address the host resolves to. */
export async function assertSafeTarget(raw: string, policy: TargetPolicy): Promise<URL> {
  const url = parseTargetUrl(raw, policy);
  const host = hostOf(url);
  let addresses: LookupAddress[];
  try {
    addresses = await resolveHost(host);
  } catch {
    throw new UnsafeTargetError(`host ${host} does not resolve`, 'unresolvable_host');
  }
  if (addresses.length === 0) throw new UnsafeTargetError(`host ${host} does not resolve`, 'unresolvable_host');
  if (!policy.allowPrivate) {
    const bad = addresses.find((a) => isForbiddenAddress(a.address));
    // The partner learns only that the host resolves to a forbidden address; which one would map our network.
    if (bad) throw new UnsafeTargetError(`must not resolve to a loopback, private, link-local or reserved address (${host} does)`, 'unsafe_target', bad.address);
  }
  return url;
}

/**
 * A `lookup` for http(s) agents: resolves, refuses the connection when any answer is forbidden, and hands the socket
 * only checked addresses. Works for both the single-address and the `all: true` (happy eyeballs) call styles.
 */
export function guardedLookup(policy: TargetPolicy, refusedConnection: (host: string) => string = refusedConnectionTo): LookupFunction {
  return ((hostname: string, options: { all?: boolean; family?: number } | number, callback: (...args: unknown[]) => void) => {
    const wantAll = typeof options === 'object' && options !== null && options.all === true;
    resolveHost(hostname).then(
      (addresses) => {
        if (!policy.allowPrivate) {
          const bad = addresses.find((a) => isForbiddenAddress(a.address));
          if (bad) {
            // The attempt log is partner-visible: name the host, keep the address for our own logs.
            const error = new UnsafeTargetError(refusedConnection(hostname), 'unsafe_target', bad.address);
            return callback(error, wantAll ? [] : undefined);
          }
        }
        if (addresses.length === 0) return callback(new UnsafeTargetError(refusedConnection(hostname), 'unresolvable_host'));
        if (wantAll) return callback(null, addresses);
        callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      // A host that does not resolve reads as any other refusal (the DNS error would tell names apart).
      () => callback(new UnsafeTargetError(refusedConnection(hostname), 'unresolvable_host')),
    );
  }) as unknown as LookupFunction;
}
