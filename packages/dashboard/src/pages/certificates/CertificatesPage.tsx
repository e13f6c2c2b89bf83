/** Certificates: a page at a time (cursor), filtered by the search box, plus issuing one and batch upload. */
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Pager } from '../../ui/Pager';
import { QueryState } from '../../ui/QueryState';
import { BatchUpload } from './BatchUpload';
import { CertificateRow } from './CertificateRow';
import { listCertificates } from './certificates-api';
import { IssueCertificateForm } from './IssueCertificateForm';

export function CertificatesPage() {
  const searchId = useId();
  const queryClient = useQueryClient();
  /** Cursors of the pages before the current one, so "Previous" can go back. */
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const [search, setSearch] = useState('');
  const cursor = cursors[cursors.length - 1];
  const page = useQuery({ queryKey: ['certificates', cursor], queryFn: () => listCertificates(cursor), placeholderData: keepPreviousData });
  const refresh = () => {
    setCursors([undefined]);
    void queryClient.invalidateQueries({ queryKey: ['certificates'] });
  };
  const needle = search.trim().toLowerCase();
  const shown = (page.data?.data ?? []).filter(
    (certificate) =>
      !needle ||
      [certificate.recipient_name, certificate.program_title, certificate.certificate_number, certificate.verification_code].some((value) =>
        value.toLowerCase().includes(needle),
      ),
  );
  return (
    <section>
      <h1>Certificates</h1>
      <div className="grid-2">
        <IssueCertificateForm onIssued={refresh} />
        <BatchUpload onIssued={refresh} />
      </div>
      <h2>Issued certificates</h2>
      <div className="field inline">
        <label htmlFor={searchId}>Search this page</label>
        <input id={searchId} type="search" value={search} onChange={(event) => setSearch(event.target.value)}
          placeholder="Recipient, program, number or code" />
      </div>
      <QueryState isLoading={page.isLoading} error={page.error} what="certificates" />
      {page.data && (
        <>
          <div className="table-wrap">
            <table>
              <caption>Certificates, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Number</th>
                  <th scope="col">Recipient</th>
                  <th scope="col">Program</th>
                  <th scope="col">Issued</th>
                  <th scope="col">Status</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {shown.length === 0 && (
                  <tr>
                    <td colSpan={6}>{needle ? 'No certificate on this page matches.' : 'No certificates yet.'}</td>
                  </tr>
                )}
                {shown.map((certificate) => (
                  <CertificateRow key={certificate.id} certificate={certificate} onChanged={() => void queryClient.invalidateQueries({ queryKey: ['certificates'] })} />
                ))}
              </tbody>
            </table>
          </div>
          <Pager label="Certificate pages" page={cursors.length} hasPrevious={cursors.length > 1} hasNext={Boolean(page.data.has_more && page.data.next_cursor)}
            onPrevious={() => setCursors(cursors.slice(0, -1))} onNext={() => setCursors([...cursors, page.data.next_cursor ?? undefined])} />
        </>
      )}
    </section>
  );
}
