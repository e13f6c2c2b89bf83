/** Certificates: a page at a time (cursor), filtered by the search box, plus issuing one and batch upload. */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { DataTable } from '../../ui/DataTable';
import { Pager } from '../../ui/Pager';
import { usePagedList } from '../../ui/usePagedList';
import { BatchUpload } from './BatchUpload';
import { CertificateRow } from './CertificateRow';
import { listCertificates } from './certificates-api';
import { IssueCertificateForm } from './IssueCertificateForm';
import { CERTIFICATE_VALUES } from '../../ui/list-columns';

export function CertificatesPage() {
  const searchId = useId();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const [search, setSearch] = useState(params.get('search') ?? '');
  // The command palette opens a certificate as `?search=<number>`.
  useEffect(() => setSearch((current) => params.get('search') ?? current), [params]);
  const list = usePagedList({ queryKey: ['certificates'], fetchPage: listCertificates, keepPreviousPage: true });
  const page = list.query;
  const refresh = () => {
    list.toFirstPage();
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
      <DataTable dataMode="current" query={page} what="certificates" caption="Certificates, newest first" columns={['Number', 'Recipient', 'Program', 'Issued', 'Status', 'Actions']}
        rows={page.data && shown} rowKey={(certificate) => certificate.id} values={CERTIFICATE_VALUES} filterable={false} exportName="certificates" loadAllRows={list.loadAll} empty={needle ? 'No certificate on this page matches.' : 'No certificates yet.'}
        renderRow={(certificate) => <CertificateRow certificate={certificate} onChanged={() => void queryClient.invalidateQueries({ queryKey: ['certificates'] })} />}
        footer={<Pager label="Certificate pages" page={list.pageNumber} {...list.pager} />} />
    </section>
  );
}
