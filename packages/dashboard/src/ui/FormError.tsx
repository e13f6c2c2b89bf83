/** The form-level error: the problem's detail plus any field error that no control of the form shows. */
import { fieldProblems, errorMessage, pathMatches } from './problems';

export function FormError({ error, fields = [], testId = 'form-error' }: { error: unknown; fields?: string[]; testId?: string }) {
  if (!error) return null;
  const unplaced = fieldProblems(error).filter((problem) => !fields.some((field) => pathMatches(problem.path, field)));
  return (
    <div role="alert" className="form-error" data-testid={testId}>
      <p>{errorMessage(error)}</p>
      {unplaced.length > 0 && (
        <ul>
          {unplaced.map((problem, index) => (
            <li key={index}>
              {problem.path ? <code>{problem.path}</code> : null} {problem.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
