/** An invoice as a one-page A4 PDF (pdfkit, built-in Helvetica), from the invoice as it was issued. */
import PDFDocument from 'pdfkit';
import { formatAmount, formatRate } from './invoice-amounts';
import type { InvoiceRow } from './invoices.repository';

/** How the invoice was paid: the gateway by its configured name and the gateway's transaction id. */
export interface InvoicePayment {
  gatewayName: string;
  transactionId: string | null;
}

const MARGIN = 50;
const GREY = '#555555';

/** Address text: one line per line; a literal `\n` (from an environment variable) is a line break too. */
export function addressLines(address: string | null | undefined): string[] {
  return (address ?? '')
    .split(/\r?\n|\\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

export function renderInvoice(invoice: InvoiceRow, payment: InvoicePayment): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margin: MARGIN, info: { Title: `Invoice ${invoice.number}`, Author: invoice.seller_name } });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    const money = (minor: string | number) => formatAmount(Number(minor), invoice.currency);
    const width = doc.page.width - 2 * MARGIN;
    const issued = invoice.issued_at.toISOString().slice(0, 10);

    doc.font('Helvetica-Bold').fontSize(22).fillColor('#000').text('Invoice', MARGIN, MARGIN);
    doc.font('Helvetica').fontSize(10).fillColor(GREY);
    doc.text(`Invoice number: ${invoice.number}`, MARGIN, MARGIN + 4, { width, align: 'right' });
    doc.text(`Date of issue: ${issued}`, { width, align: 'right' });
    doc.text(`Payment reference: ${invoice.payment_reference}`, { width, align: 'right' });

    // Seller and buyer side by side.
    const partiesTop = MARGIN + 70;
    const column = (width - 20) / 2;
    const party = (x: number, heading: string, name: string, lines: string[]) => {
      doc.font('Helvetica-Bold').fontSize(9).fillColor(GREY).text(heading, x, partiesTop, { width: column });
      doc.moveDown(0.3).font('Helvetica-Bold').fontSize(11).fillColor('#000').text(name, { width: column });
      doc.font('Helvetica').fontSize(10);
      for (const line of lines) doc.text(line, { width: column });
      return doc.y;
    };
    const sellerBottom = party(MARGIN, 'FROM', invoice.seller_name, [
      ...addressLines(invoice.seller_address),
      ...(invoice.seller_tax_id ? [`Tax ID: ${invoice.seller_tax_id}`] : []),
    ]);
    const buyerBottom = party(MARGIN + column + 20, 'BILL TO', invoice.buyer_name, [
      ...addressLines(invoice.buyer_address),
      ...(invoice.buyer_tax_id ? [`Tax ID: ${invoice.buyer_tax_id}`] : []),
      ...(invoice.buyer_email ? [invoice.buyer_email] : []),
    ]);

    // Line items.
    const columns = [
      { title: 'Description', x: MARGIN, width: width * 0.46, align: 'left' as const },
      { title: 'Quantity', x: MARGIN + width * 0.46, width: width * 0.12, align: 'right' as const },
      { title: 'Unit price', x: MARGIN + width * 0.58, width: width * 0.21, align: 'right' as const },
      { title: 'Amount', x: MARGIN + width * 0.79, width: width * 0.21, align: 'right' as const },
    ];
    let y = Math.max(sellerBottom, buyerBottom) + 30;
    const row = (cells: string[], bold: boolean) => {
      doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(10).fillColor('#000');
      const heights = cells.map((cell, at) => doc.heightOfString(cell, { width: columns[at]!.width - 6 }));
      cells.forEach((cell, at) => doc.text(cell, columns[at]!.x, y, { width: columns[at]!.width - 6, align: columns[at]!.align }));
      y += Math.max(...heights) + 8;
      doc.moveTo(MARGIN, y - 4).lineTo(MARGIN + width, y - 4).strokeColor('#cccccc').lineWidth(0.5).stroke();
    };
    row(columns.map((item) => item.title), true);
    for (const line of invoice.lines) row([line.description, String(line.quantity), money(line.unit_amount), money(line.amount)], false);

    // Totals, right-aligned under the amounts.
    y += 6;
    const total = (label: string, value: string, bold = false) => {
      doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(bold ? 11 : 10).fillColor('#000');
      doc.text(label, MARGIN + width * 0.4, y, { width: width * 0.39 - 6, align: 'right' });
      doc.text(value, MARGIN + width * 0.79, y, { width: width * 0.21 - 6, align: 'right' });
      y += 18;
    };
    if (invoice.vat_rate !== null) {
      total('Subtotal (excl. VAT)', money(invoice.subtotal));
      total(`VAT ${formatRate(Number(invoice.vat_rate))}`, money(invoice.vat_amount));
      total('Total (incl. VAT)', money(invoice.total), true);
    } else {
      total('Total', money(invoice.total), true);
    }

    y += 20;
    doc.font('Helvetica').fontSize(10).fillColor('#000');
    const paidWith = `Paid in full on ${issued} with ${payment.gatewayName}${payment.transactionId ? ` (transaction ${payment.transactionId})` : ''}.`;
    doc.text(paidWith, MARGIN, y, { width });
    doc.moveDown(0.5).fillColor(GREY).text(`Amount paid: ${money(invoice.total)}. Nothing is due.`, { width });
    doc.end();
  });
}
