/**
 * A template image (logo, signature): a PNG or JPEG file read as base64, refused here when over the service's 1 MiB
 * (the message beside the field, nothing sent), or removed from the next version. The service's own refusal of the
 * image (`logo.data`, `signature_image.data`) is shown beside it too.
 */
import { useId, useState } from 'react';
import { fieldMessage } from '../../ui/problems';
import { readBase64 } from './templates-api';
import type { ImageChoice } from './template-form';

/** The service refuses larger images (`is too long: images are at most 1 MiB`). */
export const MAX_IMAGE_BYTES = 1024 * 1024;

export function ImageField({ label, name, current, error, onChange }: {
  label: string;
  /** The API's field: its errors are shown here. */
  name: string;
  /** What the template has now ("200 × 200 PNG"), when it has one. */
  current: string | null;
  error: unknown;
  onChange: (choice: ImageChoice) => void;
}) {
  const id = useId();
  const [tooLarge, setTooLarge] = useState<string | null>(null);
  const [removed, setRemoved] = useState(false);
  const [picked, setPicked] = useState<string | null>(null);
  const message = tooLarge ?? fieldMessage(error, name);
  const report = (remove: boolean, data: string | null) => onChange(remove ? { kind: 'remove' } : data ? { kind: 'new', data } : { kind: 'keep' });
  const choose = (file: File | null) => {
    setTooLarge(null);
    setPicked(null);
    if (file && file.size > MAX_IMAGE_BYTES) setTooLarge(`${file.name} is ${(file.size / 1024 / 1024).toFixed(1)} MiB: images are at most 1 MiB`);
    if (!file || file.size > MAX_IMAGE_BYTES) return report(removed, null);
    void readBase64(file).then((data) => {
      setPicked(data);
      report(removed, data);
    });
  };
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {current && <small className="hint" id={`${id}-current`}>Now: {current}. Choose a file to replace it.</small>}
      <input
        id={id}
        name={name}
        type="file"
        accept="image/png,image/jpeg"
        aria-invalid={message ? true : undefined}
        aria-describedby={[current ? `${id}-current` : '', message ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined}
        onChange={(event) => choose(event.target.files?.[0] ?? null)}
      />
      {current && (
        <label className="checkbox">
          <input type="checkbox" name={`${name}.remove`} checked={removed} onChange={(event) => {
            setRemoved(event.target.checked);
            report(event.target.checked, picked);
          }} />
          Remove it
        </label>
      )}
      {message && (
        <small id={`${id}-error`} className="field-error" data-testid={`error-${name}`}>
          {message}
        </small>
      )}
    </div>
  );
}
