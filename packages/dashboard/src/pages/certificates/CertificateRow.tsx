import { useMutation } from '@tanstack/react-query';
import type { Certificate } from '../../api/types';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { FormError } from '../../ui/FormError';
import { downloadDocument, publicPageUrl, resendCertificateMail, revokeCertificate } from './certificates-api';

export function CertificateRow({ certificate, onChanged, selected = false, onSelect }: { certificate: Certificate; onChanged: () => void; selected?: boolean; onSelect?: (checked: boolean) => void }) {
  const revoke = useMutation({ mutationFn: () => revokeCertificate(certificate.id), onSuccess: onChanged });
  const download = useMutation({ mutationFn: (format: 'pdf' | 'png') => downloadDocument(certificate, format) });
  const resend = useMutation({ mutationFn: () => resendCertificateMail(certificate.id), onSuccess: onChanged });
  return (
    <tr data-testid={`certificate-${certificate.id}`}>
      {onSelect && (
        <td>
          <input type="checkbox" checked={selected} onChange={(event) => onSelect(event.target.checked)} aria-label={`Select ${certificate.certificate_number}`} />
        </td>
      )}
      <td>{certificate.certificate_number}</td>
      <td>
        {certificate.recipient_name}
        <RecipientDelivery certificate={certificate} />
      </td>
      <td>{certificate.program_title}</td>
      <td>{certificate.issue_date}</td>
      <td>
        <span className={`badge badge-${certificate.status}`}>{certificate.status}</span>
        {/* A test certificate verifies as "test", never valid: said beside its status. */}
        {certificate.livemode === false && (
          <>
            {' '}
            <span className="badge badge-test" data-testid="certificate-test-badge">Test</span>
          </>
        )}
      </td>
      <td>
        <div className="actions">
          <button type="button" onClick={() => download.mutate('pdf')} aria-label={`Download PDF of ${certificate.certificate_number}`}>
            PDF
          </button>
          <button type="button" onClick={() => download.mutate('png')} aria-label={`Download PNG of ${certificate.certificate_number}`}>
            PNG
          </button>
          <a href={publicPageUrl(certificate)} target="_blank" rel="noopener noreferrer">
            Public page
          </a>
          {certificate.recipient_email && certificate.status !== 'revoked' && (
            <button type="button" disabled={resend.isPending} onClick={() => resend.mutate()} aria-label={`Resend mail of ${certificate.certificate_number} to ${certificate.recipient_email}`}>
              Resend mail
            </button>
          )}
          {certificate.status !== 'revoked' && (
            <ConfirmButton className="danger" question={`Revoke ${certificate.certificate_number}? Verification will answer "revoked".`} onConfirm={() => revoke.mutate()}>
              Revoke
            </ConfirmButton>
          )}
        </div>
        <FormError error={revoke.error ?? resend.error ?? download.error} />
      </td>
    </tr>
  );
}

const DELIVERY_WORDS = { pending: 'mail pending', sent: 'mail sent', failed: 'mail failed', bounced: 'mail bounced' } as const;

/** The recipient's address and how their mail went: sent (when), pending, or failed/bounced with the SMTP server's answer. */
function RecipientDelivery({ certificate }: { certificate: Certificate }) {
  const { recipient_email: email, delivery } = certificate;
  if (!email || !delivery) return null;
  return (
    <div className="muted" data-testid={`delivery-${certificate.id}`}>
      {email}{' '}
      <span className={`badge badge-delivery-${delivery.status}`}>{DELIVERY_WORDS[delivery.status]}</span>
      {delivery.status === 'sent' && delivery.sent_at && <time dateTime={delivery.sent_at}>{new Date(delivery.sent_at).toLocaleString()}</time>}
      {delivery.last_error && (delivery.status === 'failed' || delivery.status === 'bounced') && <div>{delivery.last_error}</div>}
    </div>
  );
}
