import { STATUS_CODES } from 'node:http';

/** RFC 9457: every error answer of the platform is a Problem Details document of this media type. */
export const PROBLEM_JSON = 'application/problem+json';

const DEFAULT_ERROR_DOCS_BASE_URL = 'https://docs.partner-platform.example/errors/';

let docsBase: string | undefined;

/**
 * Where each error code is documented: `ERROR_DOCS_BASE_URL` (an absolute http(s) URL) or the default above; the
 * problem's `type` is this base followed by the code. A malformed value stops the process on the first error it would
 * have answered, naming the variable.
 */
export function errorDocsBaseUrl(): string {
  if (docsBase !== undefined) return docsBase;
  const configured = process.env.ERROR_DOCS_BASE_URL?.trim();
  if (!configured) return (docsBase = DEFAULT_ERROR_DOCS_BASE_URL);
  let url: URL;
  try {
    url = new URL(configured);
  } catch {
    throw new Error('ERROR_DOCS_BASE_URL must be an absolute http(s) URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('ERROR_DOCS_BASE_URL must be an absolute http(s) URL');
  return (docsBase = configured);
}

/** The documentation URL of one error code: the problem's `type`. */
export function problemType(code: string): string {
  return `${errorDocsBaseUrl()}${code}`;
}

/**
 * A Problem Details body (`type`, `title`, `status`, `detail`) that keeps the earlier fields (`error`, `code`, and any
 * extra such as `details` or `valid`), so clients written against `{error, code}` keep working. The `title` is the
 * status's reason phrase: the same for every occurrence of a code, as RFC 9457 asks.
 */
export function problemBody(status: number, code: string, detail: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: problemType(code),
    title: STATUS_CODES[status] ?? 'Error',
    status,
    detail,
    error: detail,
    code,
    ...extra,
  };
}

/** The `Content-Type` header value of a problem answer. */
export const PROBLEM_CONTENT_TYPE = `${PROBLEM_JSON}; charset=utf-8`;
