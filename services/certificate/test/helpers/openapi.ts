import { responseConformance, type ObservedAnswer } from '@platform/service-kit/route-table';
import { certificateRouteTable } from '../../src/route-table';

const check = responseConformance(certificateRouteTable);

/** Every problem of an answer against the route table (none: it conforms). */
export function conformanceProblems(observed: ObservedAnswer): string[] {
  return check(observed);
}

interface SupertestAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  text?: string;
  req: { method: string; path: string };
}

/** A supertest answer as the conformance check sees it: the parsed body of JSON, the text of anything else. */
export function observed(res: SupertestAnswer): ObservedAnswer {
  const contentType = res.headers['content-type'] ?? '';
  const json = /^[^;]*json\s*(;|$)/i.test(contentType) || (!contentType && !res.text);
  return {
    method: res.req.method,
    path: new URL(res.req.path, 'http://localhost').pathname,
    status: res.status,
    headers: res.headers,
    body: json ? res.body : (res.text ?? ''),
  };
}

/** Fails the test, naming every difference, when an answer is not what the route table declares. */
export function expectToMatchRouteTable(res: unknown): void {
  expect(conformanceProblems(observed(res as SupertestAnswer))).toEqual([]);
}

/** `METHOD /path` and the declared statuses of every operation of the table. */
export function declaredOperations(): Array<{ method: string; path: string; statuses: string[] }> {
  return certificateRouteTable.map((spec) => ({ method: spec.method.toUpperCase(), path: spec.path, statuses: Object.keys(spec.responses) }));
}

