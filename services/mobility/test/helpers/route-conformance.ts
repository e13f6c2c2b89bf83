/**
 * Every answer an in-process server sends on a route of the mobility route table during a test (Express routes and fast
 * lanes alike) is checked against the table with the kit's `responseConformance`: an undeclared status or media type, a
 * body the declared schema does not parse, or a field it does not name fails the test that caused it. Loaded by jest
 * (setupFilesAfterEnv).
 */
import { recordConformance } from '@platform/test-kit';
import { mobilityRouteTable } from '../../src/route-table';

const recorder = recordConformance(mobilityRouteTable, {
  skip: ({ path, status, body }) =>
    // A 500 is a failure a test provoked on purpose (it asserts the answer itself); no operation declares one.
    status === 500 ||
    // The worker's own probe listener (`createWorkerHealthServer`) also answers `/healthz`; it is not this API's.
    (path === '/healthz' && typeof body === 'object' && body !== null && 'workers' in body),
});

afterEach(() => {
  const problems = recorder.take();
  if (problems.length) throw new Error(problems.join('\n'));
});

afterAll(() => recorder.stop());
