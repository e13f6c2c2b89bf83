import type { z } from 'zod';
import { env } from './config';

/**
 * `PUBLIC_BASE_URL` (where partners, recipients and browsers reach the gateway: credential links, QR codes, invitation
 * links, `tracking_url`) and `DASHBOARD_ORIGINS` (the origins sign-in accepts) default to the development gateway on
 * 127.0.0.1:8080. A production process with those would hand out links nobody can open and refuse every dashboard
 * sign-in, so it refuses to start instead, naming the variable, unless `ALLOW_LOOPBACK_PUBLIC_URLS=true` says the
 * platform really is reached on this machine only (docker-compose.yml, published on 127.0.0.1).
 */
export const publicAddressConfig = {
  ALLOW_LOOPBACK_PUBLIC_URLS: env.boolean(false),
};

/** Whether a URL points at the machine itself: `localhost` (and `*.localhost`), 127.0.0.0/8 or ::1. */
export function isLoopbackUrl(value: string): boolean {
  let host: string;
  try {
    host = new URL(value).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return true; // WHATWG URL parsing normalises 0x7f.1, 2130706433 …
  return host === '[::1]' || /^\[::ffff:(127\.|7f)/.test(host);
}

/**
 * For a config schema's `.superRefine`: with NODE_ENV=production each named variable (a URL or a list of origins)
 * must be set to an address other than loopback; an unset one has the loopback default, so it is refused too. Those
 * named in `httpsOnly` (PUBLIC_BASE_URL: the links handed out) must also be https:, except a loopback one allowed by
 * ALLOW_LOOPBACK_PUBLIC_URLS (nothing leaves the machine then).
 */
export function requirePublicAddressesInProduction<K extends string>(names: readonly K[], httpsOnly: readonly K[] = []) {
  return (config: { NODE_ENV: string; ALLOW_LOOPBACK_PUBLIC_URLS: boolean } & { [name in K]: string | readonly string[] }, ctx: z.RefinementCtx): void => {
    if (config.NODE_ENV !== 'production') return;
    for (const name of names) {
      const value = config[name];
      const values: readonly string[] = typeof value === 'string' ? [value] : value;
      const loopback = values.some(isLoopbackUrl);
      if (loopback && !config.ALLOW_LOOPBACK_PUBLIC_URLS) {
        ctx.addIssue({ code: 'custom', path: [name], message: 'must be the public address of the gateway, not loopback (127.0.0.1, ::1, localhost), when NODE_ENV=production' });
      } else if (httpsOnly.includes(name) && values.some((url) => !isLoopbackUrl(url) && new URL(url).protocol !== 'https:')) {
        ctx.addIssue({ code: 'custom', path: [name], message: 'must be an https:// address when NODE_ENV=production (links sent over http:// can be read and changed on the way)' });
      }
    }
  };
}
