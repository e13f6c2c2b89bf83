/**
 * /issuer: the organization's own issuer — its DID (and did.json), its signing keys, whether it has proved a domain —
 * and, for owners, rotating the signing key and proving a domain. The issuer is the same in live and test mode.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useIsOwner } from '../../auth/session';
import { DataModeLabel } from '../../mode/DataModeLabel';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { CopyButton } from '../../ui/CopyButton';
import { DataTable } from '../../ui/DataTable';
import { FormError } from '../../ui/FormError';
import { QueryState } from '../../ui/QueryState';
import { Time } from '../../ui/Time';
import { DomainVerificationForm } from './DomainVerificationForm';
import { ISSUER_QUERY, getIssuer, rotateIssuerKey, type Issuer } from './issuer-api';

type IssuerKey = Issuer['keys'][number];

/** "Verified domain academy.example.org, since 29/11/2026" or "Issuer identity not verified". */
export function IdentityState({ issuer }: { issuer: Issuer }) {
  if (!issuer.domain) return <>Issuer identity not verified</>;
  const since = issuer.domain_verified_at;
  return (
    <>
      Verified domain <strong>{issuer.domain}</strong>
      {since && (
        <>
          , since <time dateTime={since}>{new Date(since).toLocaleDateString()}</time>
        </>
      )}
    </>
  );
}

export function IssuerPage() {
  const isOwner = useIsOwner();
  const queryClient = useQueryClient();
  const issuer = useQuery({ queryKey: ISSUER_QUERY, queryFn: getIssuer });
  const rotate = useMutation({ mutationFn: rotateIssuerKey, onSuccess: (next) => queryClient.setQueryData(ISSUER_QUERY, next) });
  const data = issuer.data;
  return (
    <section>
      <h1>Issuer identity</h1>
      <p className="hint">
        Your credentials are issued as your organization: signed with its own key and naming its DID, and, once you prove a domain, that domain.
      </p>
      <QueryState isLoading={issuer.isLoading} error={issuer.error} what="the issuer" />
      {data && (
        <>
          <section className="card" aria-labelledby="issuer-identity-heading">
            <h2 id="issuer-identity-heading">{data.name}</h2>
            <p className="hint">
              <DataModeLabel scope="shared" />
            </p>
            <p data-testid="issuer-identity">
              <span className={`badge ${data.domain ? 'badge-valid' : ''}`}>{data.domain ? 'Verified' : 'Not verified'}</span> <IdentityState issuer={data} />
            </p>
            <p className="issuer-did">
              DID: <code data-testid="issuer-did">{data.did}</code> <CopyButton text={data.did} name="Copy DID" />
            </p>
            <p>
              <a href={data.did_document_url} target="_blank" rel="noreferrer">
                DID document (did.json)
              </a>
              <span className="muted"> — what verifiers read your public keys from.</span>
            </p>
          </section>

          <section className="card" aria-labelledby="issuer-keys-heading">
            <h2 id="issuer-keys-heading">Signing keys</h2>
            <DataTable<IssuerKey> dataMode="shared" testId="issuer-keys" caption="Keys, oldest first" columns={['Key ID', 'Created', 'Status']} rows={data.keys}
              rowKey={(key) => key.id} empty="No key yet: one is made when your first credential is signed."
              renderRow={(key) => (
                <tr key={key.id} data-testid="issuer-key">
                  <td className="issuer-key-id">
                    <code>{key.id}</code>
                  </td>
                  <td>
                    <Time value={key.created_at} />
                  </td>
                  <td>
                    {key.current ? (
                      <span className="badge badge-active">Current</span>
                    ) : (
                      <>
                        <span className="badge">Retired</span> <Time value={key.retired_at} />
                      </>
                    )}
                  </td>
                </tr>
              )} />
            {isOwner ? (
              <div className="actions">
                <p className="hint">
                  Rotating makes a new key for the credentials you issue from now on. Old keys stay published in the DID document, so credentials they signed keep
                  verifying.
                </p>
                <ConfirmButton question="Rotate the signing key? New credentials get a new key; those already issued keep verifying with the old one." onConfirm={() => rotate.mutate()}
                  disabled={rotate.isPending}>
                  Rotate signing key
                </ConfirmButton>
                {rotate.isSuccess && (
                  <span role="status" className="muted">
                    Rotated: new credentials are signed with the new key.
                  </span>
                )}
                <FormError error={rotate.error} testId="rotate-error" />
              </div>
            ) : null}
          </section>

          {isOwner ? <DomainVerificationForm issuer={data} /> : <p className="notice">Only owners can rotate the signing key and verify a domain.</p>}
        </>
      )}
    </section>
  );
}
