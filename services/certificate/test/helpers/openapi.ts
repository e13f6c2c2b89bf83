import { createResponseValidator, observed, type ResponseValidator } from '@platform/test-kit';
import { certificateOpenApi } from '../../src/openapi';

let validator: ResponseValidator | undefined;

/** One validator per test file, on the description the service serves. */
export function certificateResponseValidator(): ResponseValidator {
  validator ??= createResponseValidator(certificateOpenApi());
  return validator;
}

type SupertestResponse = Parameters<typeof observed>[0];

/** Fails the test, naming every difference, when an answer is not what `openapi.yaml` says. */
export function expectToMatchDescription(res: unknown): void {
  const problems = certificateResponseValidator().validate(observed(res as SupertestResponse));
  expect(problems).toEqual([]);
}
