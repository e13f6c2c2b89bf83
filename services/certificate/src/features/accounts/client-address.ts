import type { Request } from 'express';

/**
 * The sign-in throttle's client address: the socket's peer, or with `trustHops` proxies in front (the gateway is
 * one), the `X-Forwarded-For` entry that many hops back from the right. IPv4-mapped IPv6 becomes plain IPv4.
 */
export function clientAddress(req: Request, trustHops: number): string {
  let address = req.socket.remoteAddress ?? 'unknown';
  if (trustHops > 0) {
    const header = req.headers['x-forwarded-for'];
    const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',').map((entry) => entry.trim()).filter(Boolean);
    if (forwarded.length > 0) address = forwarded[Math.max(0, forwarded.length - trustHops)]!;
  }
  return (address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address).slice(0, 100);
}
