/**
 * A form on a card with its heading and form-level error: submitting it never reloads the page; the browser's own
 * validation is off, so the API's field errors are the ones shown.
 */
import type { FormEvent, ReactNode } from 'react';
import { DataModeLabel, ModeLock, useModeLocked, type DataScope } from '../mode/DataModeLabel';
import { FormError } from './FormError';

export function CardForm({ label, title, error, fields, dataMode, liveOnly, onSubmit, children }: {
  /** The form's accessible name. */
  label: string;
  title: ReactNode;
  error: unknown;
  /** The field names the form shows errors under; any other problem goes to the banner. */
  fields?: string[];
  /** The data it acts on, shown under the heading; a live-only form is off in test mode. */
  dataMode: DataScope;
  /** What a live-only form acts on, named in its test-mode notice ("Event passes" are live only). */
  liveOnly?: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  children: ReactNode;
}) {
  const locked = useModeLocked(dataMode);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!locked) onSubmit(event);
  };
  return (
    <form onSubmit={submit} noValidate aria-label={label} className="card">
      <h2>{title}</h2>
      <p className="hint">
        <DataModeLabel scope={dataMode} />
      </p>
      <FormError error={error} fields={fields} />
      <ModeLock scope={dataMode} subject={liveOnly}>{children}</ModeLock>
    </form>
  );
}
