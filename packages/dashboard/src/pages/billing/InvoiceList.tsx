/** The organization's invoices (one per paid payment), newest first, each downloadable as a PDF. */
import { useMutation, type UseQueryResult } from '@tanstack/react-query';
import type { Page } from '../../api/types';
import { DataTable } from '../../ui/DataTable';
import { FormError } from '../../ui/FormError';
import { formatDate, formatMoney } from '../../ui/format';
import { downloadInvoice, saveFile, type Invoice } from './billing-api';

export function InvoiceList({ invoices }: { invoices: UseQueryResult<Page<Invoice>> }) {
  const download = useMutation({ mutationFn: async (invoice: Invoice) => saveFile(await downloadInvoice(invoice.id), `${invoice.number}.pdf`) });
  return (
    <section className="billing-invoices" aria-labelledby="invoices-heading">
      <h2 id="invoices-heading">Invoices</h2>
      <FormError error={download.error} />
      <DataTable dataMode="live-only" query={invoices} what="invoices" caption="Invoices, newest first" columns={['Number', 'Date', 'Description', 'Total', 'PDF']}
        rows={invoices.data?.data} rowKey={(invoice) => invoice.id} empty="No invoices yet: each paid payment gets one." testId="invoices"
        renderRow={(invoice) => (
          <tr data-testid={`invoice-${invoice.number}`}>
            <td>
              <strong>{invoice.number}</strong>
            </td>
            <td>{formatDate(invoice.issued_at)}</td>
            <td>{invoice.lines.map((line) => line.description).join('; ')}</td>
            <td>
              {formatMoney(invoice.total)}
              {invoice.vat && <span className="muted"> incl. {formatMoney(invoice.vat.amount)} VAT</span>}
            </td>
            <td>
              <button type="button" onClick={() => download.mutate(invoice)} disabled={download.isPending} aria-label={`Download invoice ${invoice.number} (PDF)`}>
                Download
              </button>
            </td>
          </tr>
        )} />
    </section>
  );
}
