import { useMutation } from '@tanstack/react-query';
import type { Certificate } from '../../api/types';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { FormError } from '../../ui/FormError';
import { downloadDocument, publicPageUrl, revokeCertificate } from './certificates-api';

export function CertificateRow({ certificate, onChanged }: { certificate: Certificate; onChanged: () => void }) {
  const revoke = useMutation({ mutationFn: () => revokeCertificate(certificate.id), onSuccess: onChanged });
  const download = useMutation({ mutationFn: (format: 'pdf' | 'png') => downloadDocument(certificate, format) });
  return (
    <tr data-testid={`certificate-${certificate.id}`}>
      <td>{certificate.certificate_number}</td>
      <td>{certificate.recipient_name}</td>
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
          {certificate.status !== 'revoked' && (
            <ConfirmButton className="danger" question={`Revoke ${certificate.certificate_number}? Verification will answer "revoked".`} onConfirm={() => revoke.mutate()}>
              Revoke
            </ConfirmButton>
          )}
        </div>
        <FormError error={revoke.error ?? download.error} />
      </td>
    </tr>
  );
}
