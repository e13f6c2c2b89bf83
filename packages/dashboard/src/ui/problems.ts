/** Reading an ApiError for forms: the message for one field, and the messages no field of the form shows. */
import { ApiError, type FieldProblem } from '../api/http';

/** `certificates.3.issue_date` belongs to field `issue_date`; `vehicle.plate` to `vehicle.plate` and to `plate`. */
export function pathMatches(path: string, field: string): boolean {
  return path === field || path.endsWith(`.${field}`) || path.startsWith(`${field}.`);
}

export function fieldProblems(error: unknown): FieldProblem[] {
  return error instanceof ApiError ? error.problem.fields : [];
}

export function fieldMessage(error: unknown, field: string): string | undefined {
  const messages = fieldProblems(error).filter((problem) => pathMatches(problem.path, field)).map((problem) => problem.message);
  return messages.length ? messages.join('; ') : undefined;
}

export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.problem.detail;
  if (error instanceof Error) return error.message;
  return 'Something went wrong.';
}
