import { readFileSync } from 'node:fs';
import type { RequestHandler } from 'express';
import { parse } from 'yaml';

/** An OpenAPI document as parsed from YAML: plain JSON data. */
export type OpenApiDocument = Record<string, unknown> & { openapi: string; paths: Record<string, Record<string, unknown>> };

/** Reads and parses a service's `openapi.yaml`; a missing or broken file fails loudly at start-up, not on first request. */
export function loadOpenApiDocument(file: string): OpenApiDocument {
  const document = parse(readFileSync(file, 'utf8')) as unknown;
  if (!document || typeof document !== 'object' || typeof (document as OpenApiDocument).openapi !== 'string' || typeof (document as OpenApiDocument).paths !== 'object') {
    throw new Error(`${file} is not an OpenAPI document`);
  }
  return document as OpenApiDocument;
}

/** `GET /openapi.json`: the description, serialised once. */
export function openApiRoute(document: OpenApiDocument): RequestHandler {
  const body = JSON.stringify(document);
  return (_req, res) => {
    res.type('application/json').send(body);
  };
}
