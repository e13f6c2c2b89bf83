import type { Request, Response } from 'express';

export const REFRESH_COOKIE = 'pp_refresh';
/** The gateway's public path of the account routes: the browser sends the cookie there only. */
const COOKIE_PATH = '/dashboard/api/auth';
const ATTRIBUTES = `Path=${COOKIE_PATH}; HttpOnly; Secure; SameSite=Strict`;

/** The refresh token from the request's `Cookie` header, if any. */
export function refreshTokenOf(req: Request): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index !== -1 && part.slice(0, index).trim() === REFRESH_COOKIE) {
      const value = part.slice(index + 1).trim();
      return /^[A-Za-z0-9_-]{1,200}$/.test(value) ? value : undefined;
    }
  }
  return undefined;
}

export function setRefreshCookie(res: Response, token: string, maxAgeSeconds: number): void {
  res.append('Set-Cookie', `${REFRESH_COOKIE}=${token}; Max-Age=${maxAgeSeconds}; ${ATTRIBUTES}`);
}

export function clearRefreshCookie(res: Response): void {
  res.append('Set-Cookie', `${REFRESH_COOKIE}=; Max-Age=0; ${ATTRIBUTES}`);
}
