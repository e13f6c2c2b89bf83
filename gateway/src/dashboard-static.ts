import { createReadStream, statSync, type Stats } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { answerJson } from './json-answer';

/** Where the dashboard's built files are by default: `packages/dashboard/dist` of this repository (from `src/` or `dist/`). */
export const DEFAULT_DASHBOARD_DIR = path.resolve(__dirname, '..', '..', 'packages', 'dashboard', 'dist');

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
};

/**
 * The dashboard's pages: no inline script, nothing from another origin, never framed. Styles may be inline (component
 * libraries set `style` attributes); images may be data: URLs (QR codes, uploaded logos previewed before saving).
 */
const SECURITY_HEADERS = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
};

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

/**
 * `GET /dashboard…`: the built single-page app from `dir`. Hashed files under `/dashboard/assets/` are cached for a
 * year (`immutable`); everything else, `index.html` included, is revalidated (`no-cache`) with its `ETag` and
 * `Last-Modified`. A path with no file and no file extension answers `index.html` (the app routes it); a missing
 * asset is a 404. Paths are decoded once and must stay inside `dir`: `..`, backslashes, NUL and encoded slashes are
 * refused with a 404. Without a built `index.html` every dashboard page is a 503 `dashboard_not_built`.
 */
export function dashboardStatic(dir: string) {
  const root = path.resolve(dir);
  return (req: IncomingMessage, res: ServerResponse, pathname: string): void => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      answerJson(res, 405, { error: `${req.method} is not allowed here; allowed: GET, HEAD`, code: 'method_not_allowed' }, { Allow: 'GET, HEAD' });
      return;
    }
    const index = fileAt(path.join(root, 'index.html'));
    if (!index) {
      answerJson(res, 503, { error: 'The dashboard has not been built (pnpm build) or DASHBOARD_DIR is wrong', code: 'dashboard_not_built' });
      return;
    }
    const relative = safeRelativePath(pathname.slice('/dashboard'.length));
    if (relative === null) return notFound(res);
    const isAsset = relative.startsWith('assets/');
    const target = relative === '' ? undefined : path.resolve(root, relative);
    if (target !== undefined && !target.startsWith(root + path.sep)) return notFound(res);
    const file = target === undefined ? undefined : fileAt(target);
    if (file && target) return sendFile(req, res, target, file, isAsset ? IMMUTABLE : REVALIDATE);
    if (isAsset || path.extname(relative) !== '') return notFound(res);
    sendFile(req, res, path.join(root, 'index.html'), index, REVALIDATE);
  };
}

/** The path below `/dashboard/`, decoded, without a leading slash; null when it could leave the folder or is malformed. */
function safeRelativePath(rest: string): string | null {
  if (rest !== '' && !rest.startsWith('/')) return null; // `/dashboardx` is not ours
  if (/%2f|%5c|%00/i.test(rest)) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(rest);
  } catch {
    return null;
  }
  if (decoded.includes('\\') || decoded.includes('\0')) return null;
  const segments = decoded.split('/').filter((segment) => segment !== '');
  if (segments.some((segment) => segment === '..' || segment === '.')) return null;
  return segments.join('/');
}

function fileAt(file: string): Stats | undefined {
  try {
    const stats = statSync(file);
    return stats.isFile() ? stats : undefined;
  } catch {
    return undefined;
  }
}

function notFound(res: ServerResponse): void {
  answerJson(res, 404, { error: 'Route not found', code: 'route_not_found' });
}

function sendFile(req: IncomingMessage, res: ServerResponse, file: string, stats: Stats, cacheControl: string): void {
  const etag = `W/"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`;
  const headers: Record<string, string | number> = {
    ...SECURITY_HEADERS,
    'Cache-Control': cacheControl,
    ETag: etag,
    'Last-Modified': stats.mtime.toUTCString(),
  };
  const ifNoneMatch = req.headers['if-none-match'];
  const ifModifiedSince = req.headers['if-modified-since'];
  const fresh =
    ifNoneMatch !== undefined
      ? ifNoneMatch.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*')
      : ifModifiedSince !== undefined && Math.floor(stats.mtimeMs / 1000) <= Math.floor(Date.parse(ifModifiedSince) / 1000);
  if (fresh) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  res.writeHead(200, { ...headers, 'Content-Type': CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream', 'Content-Length': stats.size });
  if (req.method === 'HEAD') return void res.end();
  const stream = createReadStream(file);
  stream.once('error', () => res.destroy());
  stream.pipe(res);
}
