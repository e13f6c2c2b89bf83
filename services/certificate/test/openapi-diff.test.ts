import baselineDocument from './fixtures/openapi-baseline.json';
import { descriptionShape, schemaShape, shapeDifferences } from '@platform/test-kit';
import { certificateOpenApi } from '../src/openapi';

type Json = Record<string, unknown>;

/**
 * The one intended difference: the baseline wrote `ApiKeyWithToken` as `allOf: [ApiKey, {token}]`, the route table
 * writes the same object flat (zod's `.extend`). Both require `token` and narrow it to `^ck_`; the baseline's form is
 * flattened here the same way so every other property is still compared.
 */
function withFlatApiKeyWithToken(document: Json): Json {
  const copy = structuredClone(document);
  const schemas = (copy.components as { schemas: Record<string, Json> }).schemas;
  const [base, extension] = schemas.ApiKeyWithToken!.allOf as [Json, Json];
  const apiKey = schemas[String(base.$ref).split('/').pop()!]!;
  schemas.ApiKeyWithToken = {
    ...apiKey,
    properties: { ...(apiKey.properties as Json), ...(extension.properties as Json) },
    required: [...new Set([...(apiKey.required as string[]), ...(extension.required as string[])])],
  };
  return copy;
}

/**
 * The description built from the route table against the one served before it (`fixtures/openapi-baseline.json`):
 * the same operations, security, parameters, request bodies and responses, up to key order, `$ref` names and prose.
 */
describe('the certificate description', () => {
  it('has the same shape as the baseline', () => {
    const baseline = withFlatApiKeyWithToken(baselineDocument as Json);
    expect(shapeDifferences(descriptionShape(baseline), descriptionShape(certificateOpenApi()))).toEqual([]);
  });

  it('keeps every named schema of the baseline, with the same shape (clients generated from it name them)', () => {
    const baseline = withFlatApiKeyWithToken(baselineDocument as Json);
    const current = certificateOpenApi() as Json;
    const named = (document: Json) =>
      Object.fromEntries(Object.keys((document.components as { schemas: Json }).schemas).map((name) => [name, schemaShape(document, { $ref: `#/components/schemas/${name}` })]));
    const before = named(baseline);
    const after = named(current);
    expect(shapeDifferences(before, Object.fromEntries(Object.keys(before).map((name) => [name, after[name]])))).toEqual([]);
  });
});
