/** Loading and error states of a query, the same everywhere. */
import { ApiError } from '../api/http';
import { errorMessage } from './problems';

export function QueryState({ isLoading, error, what }: { isLoading: boolean; error: unknown; what: string }) {
  if (isLoading) return <p role="status">Loading {what}…</p>;
  if (!error) return null;
  if (error instanceof ApiError && error.code === 'route_not_found')
    return (
      <p role="status" className="notice">
        The service does not offer {what} to the dashboard yet.
      </p>
    );
  return (
    <p role="alert" className="form-error">
      Could not load {what}: {errorMessage(error)}
    </p>
  );
}
