import type { RequestHandler } from 'express';
import { MethodNotAllowedError } from './errors';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** A known path's template and the methods it answers. */
export interface KnownRoute {
  pattern: RegExp;
  allow: string[];
}

/** The routes a service answers, read from its description's `paths` (`{id}` matches one path segment). */
export function knownRoutesOf(paths: Record<string, Record<string, unknown>>): KnownRoute[] {
  return Object.entries(paths).map(([template, item]) => {
    const methods = HTTP_METHODS.filter((method) => method in item).map((method) => method.toUpperCase());
    // Express answers HEAD wherever it answers GET.
    if (methods.includes('GET') && !methods.includes('HEAD')) methods.push('HEAD');
    return { pattern: templatePattern(template), allow: methods };
  });
}

/**
 * Mounted after every route: a request whose path is a known route but whose method is not one the route answers is a
 * 405 with `Allow` naming the methods it does answer; anything else falls through to the 404. The patterns are built
 * once, here, not per request.
 */
export function methodNotAllowedHandler(routes: KnownRoute[]): RequestHandler {
  return (req, _res, next) => {
    const route = routes.find(({ pattern }) => pattern.test(req.path));
    if (!route || route.allow.includes(req.method)) return next();
    next(new MethodNotAllowedError(req.method, route.allow));
  };
}

function templatePattern(template: string): RegExp {
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}/?$`);
}
