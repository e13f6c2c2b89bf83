/**
 * A form on a card with its heading and form-level error: submitting it never reloads the page; the browser's own
 * validation is off, so the API's field errors are the ones shown.
 */
import type { FormEvent, ReactNode } from 'react';
import { FormError } from './FormError';

export function CardForm({ label, title, error, fields, onSubmit, children }: {
  /** The form's accessible name. */
  label: string;
  title: ReactNode;
  error: unknown;
  /** The field names the form shows errors under; any other problem goes to the banner. */
  fields?: string[];
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  children: ReactNode;
}) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSubmit(event);
  };
  return (
    <form onSubmit={submit} noValidate aria-label={label} className="card">
      <h2>{title}</h2>
      <FormError error={error} fields={fields} />
      {children}
    </form>
  );
}
