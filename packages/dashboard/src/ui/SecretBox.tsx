/** A secret (API key token, webhook signing secret, invitation link) shown this once, with a copy button. */
import { CopyButton } from './CopyButton';

export function SecretBox({ label, value, testId, onDismiss }: { label: string; value: string; testId: string; onDismiss?: () => void }) {
  return (
    <section className="secret" aria-label={label} role="status">
      <p>
        <strong>{label}</strong> — shown only this once: copy it now.
      </p>
      <code data-testid={testId} className="secret-value">
        {value}
      </code>
      <div className="actions">
        <CopyButton text={value} />
        {onDismiss && (
          <button type="button" onClick={onDismiss}>
            Done
          </button>
        )}
      </div>
    </section>
  );
}
