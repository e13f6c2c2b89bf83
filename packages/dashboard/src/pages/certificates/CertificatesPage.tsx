/**
 * Certificates: a page at a time (cursor), filtered by the search box, plus issuing one and batch upload. Rows shown
 * can be selected (each, or all on the page) for the bulk actions: revoke, resend mail, download the PDFs as a ZIP.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { DataTable } from '../../ui/DataTable';
import { Pager } from '../../ui/Pager';
import { usePagedList } from '../../ui/usePagedList';
import { BatchUpload } from './BatchUpload';
import { BulkBar } from './BulkBar';
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
  const [selectedIds, setSelectedIds] = useState<ReadonlySet<string>>(new Set());
  const changed = () => void queryClient.invalidateQueries({ queryKey: ['certificates'] });
  const needle = search.trim().toLowerCase();
  const shown = (page.data?.data ?? []).filter(
    (certificate) =>
      !needle ||
      [certificate.recipient_name, certificate.program_title, certificate.certificate_number, certificate.verification_code].some((value) =>
        value.toLowerCase().includes(needle),
      ),
  );
  // Only what is shown counts as selected: another page or a narrower search leaves the rest out.
  const selected = shown.filter((certificate) => selectedIds.has(certificate.id));
  const allSelected = shown.length > 0 && selected.length === shown.length;
  const selectAll = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (selectAll.current) selectAll.current.indeterminate = selected.length > 0 && !allSelected;
  });
  const select = (id: string, checked: boolean) =>
    setSelectedIds((now) => {
      const next = new Set(now);
      if (checked) next.add(id);
      else next.delete(id);
      return next;
    });
  const selectHeader = (
    <input type="checkbox" ref={selectAll} aria-label="Select all certificates on this page" checked={allSelected} disabled={shown.length === 0}
      onChange={(event) => setSelectedIds(event.target.checked ? new Set(shown.map((certificate) => certificate.id)) : new Set())} />
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
      <BulkBar selected={selected} onChanged={changed} onClear={() => setSelectedIds(new Set())} />
      <DataTable dataMode="current" query={page} what="certificates" caption="Certificates, newest first" columns={[selectHeader, 'Number', 'Recipient', 'Program', 'Issued', 'Status', 'Actions']}
        rows={page.data && shown} rowKey={(certificate) => certificate.id} values={[undefined, ...CERTIFICATE_VALUES]} filterable={false} exportName="certificates" loadAllRows={list.loadAll} empty={needle ? 'No certificate on this page matches.' : 'No certificates yet.'}
        renderRow={(certificate) => (
          <CertificateRow certificate={certificate} onChanged={changed} selected={selectedIds.has(certificate.id)} onSelect={(checked) => select(certificate.id, checked)} />
        )}
        footer={<Pager label="Certificate pages" page={list.pageNumber} {...list.pager} />} />
    </section>
  );
}
