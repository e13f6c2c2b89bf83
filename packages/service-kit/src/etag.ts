import { sha256 } from './hash';
import type { Request, Response } from 'express';

/** A strong validator of the exact JSON bytes answered: two answers with the same ETag are byte for byte the same. */
export function etagOf(body: string): string {
  return `"${sha256(body, 'base64url').slice(0, 32)}"`;
}

/** RFC 9110 §13.1.2: `If-None-Match` holds `*` or a list of entity tags; comparison is weak (a `W/` prefix is ignored). */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag);
}

/**
 * A GET of a single object: the JSON answer carries `ETag`, and a request whose `If-None-Match` names it is a 304
 * without a body (the caller's copy is current).
 */
export function sendJsonWithEtag(req: Request, res: Response, value: unknown): void {
  const body = JSON.stringify(value);
  const etag = etagOf(body);
  res.setHeader('ETag', etag);
  if ((req.method === 'GET' || req.method === 'HEAD') && matchesIfNoneMatch(req.headers['if-none-match'], etag)) {
    res.status(304).end();
    return;
  }
  res.type('application/json').send(body);
}
