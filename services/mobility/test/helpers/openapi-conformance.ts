/**
 * Every answer of every mobility test that goes through supertest on a documented route (`/api/v1/…`,
 * `/driver/v1/…`, `/track/…`, `/admin/v1/api-keys…`, `/admin/v1/drivers`, `/admin/v1/partner/branding`) is checked against the built description (openapi.yaml plus
 * the routes' zod request schemas), so the published description cannot drift from the code: a status,
 * content type or field the description does not name fails the test that saw it. Loaded by jest (setupFilesAfterEnv).
 */
import supertest from 'supertest';
import { createResponseValidator, observed } from '@platform/test-kit';
import { mobilityOpenApi } from '../../src/openapi';

const DOCUMENTED = /^\/(api\/v1\/(estimates|rides|deliveries|webhooks|event-pass-programs|event-passes)|driver\/v1\/|track\/|admin\/v1\/(api-keys|drivers|partner\/branding|summary|webhooks|event-pass-programs)(\/|$))/;
const validator = createResponseValidator(mobilityOpenApi() as Record<string, unknown>, { closeObjects: true });

type Assert = (this: unknown, resError: Error | null, res: Parameters<typeof observed>[0] | undefined, fn: (...args: unknown[]) => void) => void;
const proto = (supertest as unknown as { Test: { prototype: { assert: Assert } } }).Test.prototype;
const originalAssert = proto.assert;

proto.assert = function assertAlsoMatchesDescription(resError, res, fn) {
  // superagent reports every 4xx/5xx answer as `resError` too: those answers are checked like any other. A 405 answers
  // a method the description does not have, so there is no operation to check it against.
  if (res && res.status !== 405 && DOCUMENTED.test(new URL(res.req.path, 'http://localhost').pathname)) {
    const problems = validator.validate(observed(res));
    if (problems.length) {
      resError = new Error(`${res.req.method} ${res.req.path} → ${res.status} does not match services/mobility/openapi.yaml:\n  ${problems.join('\n  ')}`);
    }
  }
  return originalAssert.call(this, resError, res, fn);
};
