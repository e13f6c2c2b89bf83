import { isIPv6 } from 'node:net';
import type { IncomingMessage } from 'node:http';

/**
 * The client's address: the socket's peer, or with `trustHops` trusted proxies in front, the `X-Forwarded-For` entry
 * that many hops back from the right (as Express's `trust proxy` number does). IPv4-mapped IPv6 becomes plain IPv4.
 */
export function clientAddress(req: IncomingMessage, trustHops: number): string {
  let address = req.socket.remoteAddress ?? 'unknown';
  if (trustHops > 0) {
    const header = req.headers['x-forwarded-for'];
    const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',').map((entry) => entry.trim()).filter(Boolean);
    if (forwarded.length > 0) address = forwarded[Math.max(0, forwarded.length - trustHops)]!;
  }
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}

/**
 * The budget an address spends: an IPv4 address itself; an IPv6 address's /64 (one subscriber usually holds a
 * whole /64, so per-address budgets would be free to multiply).
 */
export function addressBucket(address: string): string {
  if (!isIPv6(address)) return address;
  const zoneless = address.split('%')[0]!;
  const [head = '', tail = ''] = zoneless.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = zoneless.includes('::') ? (tail ? tail.split(':') : []) : [];
  const groups = zoneless.includes('::') ? [...headGroups, ...Array<string>(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups] : headGroups;
  return `${groups
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}
