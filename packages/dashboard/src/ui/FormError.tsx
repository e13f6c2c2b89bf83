/**
 * The form-level error. Field errors are shown under their controls only (no generic "Request validation failed"
 * banner above them); the banner carries the problem's detail when no field is named, and any field error no control
 * of the form shows. When an error appears, focus moves to it (the first invalid control, else the banner) and it is
 * scrolled into view, so on a long form it is never off-screen while focus stays on the submit button.
 */
import { useEffect, useRef } from 'react';
import { fieldProblems, errorMessage, pathMatches } from './problems';

export function FormError({ error, fields = [], testId = 'form-error' }: { error: unknown; fields?: string[]; testId?: string }) {
  const banner = useRef<HTMLDivElement>(null);
  const anchor = useRef<HTMLSpanElement>(null);
  const problems = fieldProblems(error);
  const unplaced = problems.filter((problem) => !fields.some((field) => pathMatches(problem.path, field)));
  const showBanner = Boolean(error) && (problems.length === 0 || unplaced.length > 0);

  useEffect(() => {
    if (!error) return;
    const form = (banner.current ?? anchor.current)?.closest('form');
    const target = banner.current ?? form?.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (!target) return;
    target.focus({ preventScroll: true });
    target.scrollIntoView?.({ block: 'center' });
    // Only a new error moves focus; re-renders with the same error leave the user where they are.
  }, [error]);

  if (!error) return null;
  if (!showBanner) return <span ref={anchor} hidden />;
  return (
    <div role="alert" className="form-error" data-testid={testId} tabIndex={-1} ref={banner}>
      {problems.length === 0 && <p>{errorMessage(error)}</p>}
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
