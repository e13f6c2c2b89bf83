/**
 * What can be done to the certificates selected on the page: revoke them (after a confirm), resend their recipients'
 * mail, or download their PDFs as one ZIP; each reports how many succeeded and which failed, and why.
 */
import { useState } from 'react';
import type { Certificate } from '../../api/types';
import { errorMessage } from '../../ui/problems';
import { downloadZip, mailable, resendAll, revocable, revokeAll, type BulkOutcome } from './bulk-actions';

type Report = { text: string; failed: BulkOutcome['failed'] };

const certificatesWord = (count: number) => `${count} ${count === 1 ? 'certificate' : 'certificates'}`;

export function BulkBar({ selected, onChanged, onClear }: { selected: readonly Certificate[]; onChanged: () => void; onClear: () => void }) {
  const [busy, setBusy] = useState<string | null>(null);
  const [report, setReport] = useState<Report | null>(null);
  const toRevoke = revocable(selected);
  const toMail = mailable(selected);

  const run = async (working: string, act: () => Promise<Report>, changes: boolean) => {
    setBusy(working);
    setReport(null);
    try {
      setReport(await act());
    } catch (error) {
      setReport({ text: `Could not finish: ${errorMessage(error)}`, failed: [] });
    } finally {
      setBusy(null);
      if (changes) onChanged();
    }
  };

  const revoke = () => {
    if (!window.confirm(`Revoke ${certificatesWord(toRevoke.length)}? Verification will answer "revoked" for each.`)) return;
    void run('Revoking…', async () => {
      const outcome = await revokeAll(toRevoke);
      onClear();
      return { text: `Revoked ${outcome.succeeded.length} of ${certificatesWord(toRevoke.length)}${outcome.failed.length ? `; ${outcome.failed.length} failed` : ''}.`, failed: outcome.failed };
    }, true);
  };

  const resend = () =>
    void run('Sending…', async () => {
      const outcome = await resendAll(toMail);
      const skipped = selected.length - toMail.length;
      return {
        text: `Mail resent for ${outcome.succeeded.length} of ${certificatesWord(toMail.length)}${outcome.failed.length ? `; ${outcome.failed.length} failed` : ''}${skipped ? ` (${skipped} skipped: no recipient email, or revoked)` : ''}.`,
        failed: outcome.failed,
      };
    }, true);

  const zip = () =>
    void run('Fetching the PDFs…', async () => {
      const outcome = await downloadZip(selected);
      const saved = outcome.succeeded.length;
      return {
        text: saved ? `Saved ${saved} ${saved === 1 ? 'PDF' : 'PDFs'} in ${outcome.fileName}${outcome.failed.length ? `; ${outcome.failed.length} failed` : ''}.` : 'No PDF could be fetched: nothing was saved.',
        failed: outcome.failed,
      };
    }, false);

  const none = selected.length === 0;
  return (
    <div className="bulk-bar" role="region" aria-label="Bulk actions" data-testid="bulk-bar">
      <span data-testid="bulk-count">{none ? 'Select certificates to act on several at once.' : `${certificatesWord(selected.length)} selected`}</span>
      <button type="button" className="danger" disabled={busy !== null || toRevoke.length === 0} onClick={revoke}>Revoke selected</button>
      <button type="button" disabled={busy !== null || toMail.length === 0} onClick={resend}>Resend mail</button>
      <button type="button" disabled={busy !== null || none} onClick={zip}>Download ZIP</button>
      {!none && <button type="button" disabled={busy !== null} onClick={onClear}>Clear selection</button>}
      <div role="status" data-testid="bulk-report">
        {busy ?? report?.text}
        {!busy && report && report.failed.length > 0 && (
          <ul className="field-error">
            {report.failed.map(({ certificate, error }) => (
              <li key={certificate.id}>{certificate.certificate_number}: {errorMessage(error)}</li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
