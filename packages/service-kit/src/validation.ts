import type { z } from 'zod';
import { ValidationError, type FieldIssue } from './errors';

/** Parses input with a zod schema; failures become a 422 with one detail per issue (`pickup.lat`, `certificates.3.issue_date`). */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new ValidationError(toFieldIssues(result.error));
}

export function toFieldIssues(error: z.ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.length ? issue.path.map(String).join('.') : '(body)',
    message: issue.message,
  }));
}
