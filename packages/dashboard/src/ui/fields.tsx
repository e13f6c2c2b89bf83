/** Labelled form controls whose error (from the API's field errors) is tied to them with aria-describedby. */
import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from 'react';
import { fieldMessage } from './problems';

interface Described {
  label: ReactNode;
  /** The name the API uses for this field; its errors are shown under the control. */
  name: string;
  error?: unknown;
  hint?: ReactNode;
}

function useDescription(name: string, error: unknown, hint: ReactNode) {
  const id = useId();
  const message = fieldMessage(error, name);
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = message ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  const notes = (
    <>
      {hint && (
        <small id={hintId} className="hint">
          {hint}
        </small>
      )}
      {message && (
        <small id={errorId} className="field-error" data-testid={`error-${name}`}>
          {message}
        </small>
      )}
    </>
  );
  return { id, message, describedBy, notes };
}

export function TextField({ label, name, error, hint, ...input }: Described & InputHTMLAttributes<HTMLInputElement>) {
  const { id, message, describedBy, notes } = useDescription(name, error, hint);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} name={name} aria-invalid={message ? true : undefined} aria-describedby={describedBy} {...input} />
      {notes}
    </div>
  );
}

export function SelectField({
  label,
  name,
  error,
  hint,
  options,
  ...select
}: Described & SelectHTMLAttributes<HTMLSelectElement> & { options: { value: string; label: string }[] }) {
  const { id, message, describedBy, notes } = useDescription(name, error, hint);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} aria-invalid={message ? true : undefined} aria-describedby={describedBy} {...select}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {notes}
    </div>
  );
}

/** A group of checkboxes (for example API key scopes), its error tied to the fieldset. */
export function CheckboxGroup({
  label,
  name,
  error,
  hint,
  options,
  value,
  onChange,
}: Described & { options: readonly string[]; value: string[]; onChange: (next: string[]) => void }) {
  const { message, describedBy, notes } = useDescription(name, error, hint);
  return (
    <fieldset className="field" aria-invalid={message ? true : undefined} aria-describedby={describedBy}>
      <legend>{label}</legend>
      <div className="checkboxes">
        {options.map((option) => (
          <label key={option} className="checkbox">
            <input
              type="checkbox"
              name={name}
              value={option}
              checked={value.includes(option)}
              onChange={(event) => onChange(event.target.checked ? [...value, option] : value.filter((item) => item !== option))}
            />
            {option}
          </label>
        ))}
      </div>
      {notes}
    </fieldset>
  );
}
