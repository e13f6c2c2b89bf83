/**
 * Proving a domain: start (the token and the exact file URL to serve it at, each with a copy button), then "Check now"
 * (the platform fetches the file). A refused check is said in words beside the form, with what to do about it.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../../api/http';
import { CardForm } from '../../ui/CardForm';
import { CopyButton } from '../../ui/CopyButton';
import { TextField } from '../../ui/fields';
import { FormError } from '../../ui/FormError';
import { CHECK_ADVICE, ISSUER_QUERY, checkDomainVerification, startDomainVerification, type Issuer } from './issuer-api';

export function DomainVerificationForm({ issuer }: { issuer: Issuer }) {
  const queryClient = useQueryClient();
  const [domain, setDomain] = useState('');
  const start = useMutation({
    mutationFn: () => startDomainVerification(domain.trim()),
    onSuccess: () => {
      check.reset();
      void queryClient.invalidateQueries({ queryKey: ISSUER_QUERY });
    },
  });
  const check = useMutation({ mutationFn: checkDomainVerification, onSuccess: (next) => queryClient.setQueryData(ISSUER_QUERY, next) });
  // The start's answer at once; after a reload, the pending one the issuer reports (none once a check succeeded).
  const shown = check.isSuccess ? issuer.pending_domain : (start.data ?? issuer.pending_domain);
  const advice = check.error instanceof ApiError && check.error.code ? CHECK_ADVICE[check.error.code] : undefined;
  return (
    <CardForm dataMode="shared" label="Verify a domain" title={issuer.domain ? 'Verify another domain' : 'Verify a domain'} error={start.error} fields={['domain']}
      onSubmit={() => start.mutate()}>
      <p className="hint">
        Prove that your organization controls a domain by serving a token from it; your credentials then name it (<code>https://your-domain</code>) beside your name.
      </p>
      <TextField label="Domain" name="domain" error={start.error} value={domain} onChange={(event) => setDomain(event.target.value)} placeholder="academy.example.org"
        hint="Only the host name, such as academy.example.org." autoComplete="off" />
      <div className="actions">
        <button type="submit" disabled={start.isPending || !domain.trim()}>
          Start verification
        </button>
      </div>
      {shown && (
        <div className="domain-proof" data-testid="domain-proof" role="region" aria-label={`Proof for ${shown.domain}`}>
          <p>
            To verify <strong>{shown.domain}</strong>, serve this token as a line of a text file at:
          </p>
          <p className="proof-line">
            <code data-testid="domain-proof-url">{shown.proof_url}</code> <CopyButton text={shown.proof_url} name="Copy file URL" />
          </p>
          <p className="proof-line">
            Token: <code data-testid="domain-proof-token">{shown.token}</code> <CopyButton text={shown.token} name="Copy token" />
          </p>
          <div className="actions">
            <button type="button" onClick={() => check.mutate()} disabled={check.isPending}>
              {check.isPending ? 'Checking…' : 'Check now'}
            </button>
          </div>
        </div>
      )}
      {check.isSuccess && check.data.domain && (
        <p role="status" className="notice success" data-testid="domain-verified">
          Verified domain {check.data.domain}: new credentials name it.
        </p>
      )}
      <FormError error={check.error} testId="domain-check-error" />
      {advice && (
        <p className="hint" data-testid="domain-check-advice">
          {advice}
        </p>
      )}
    </CardForm>
  );
}
