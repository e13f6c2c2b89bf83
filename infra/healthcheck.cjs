/* global fetch, AbortSignal */
// The image's health check: exit 0 when GET /healthz on HEALTHCHECK_PORT (falling back to PORT) answers 200 within 2 s.
const port = process.env.HEALTHCHECK_PORT || process.env.PORT;
if (!port) {
  console.error('healthcheck: set HEALTHCHECK_PORT or PORT');
  process.exit(1);
}
fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2000) })
  .then((response) => process.exit(response.status === 200 ? 0 : 1))
  .catch(() => process.exit(1));
