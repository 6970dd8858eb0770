// An invoice or a credit note as a PDF, through PDFKit (docs/payouts.md#invoices). The same invoice gives the
// same bytes: the document's dates are the payout's, and PDFKit derives the file's /ID from
// them, so a download can be compared and nothing needs storing but the invoice's data.

import { majorUnits } from '../../core/money.js';
import type { DocumentLine, Party } from './model.js';

export const TITLE = 'Self-billing invoice';
export const CREDIT_TITLE = 'Self-billing credit note';

/** What a document prints: its title, its heading lines (number, date, what it refers to), a sentence, the parties and lines. */
export interface Printed {
  title: string;
  label: string;
  currency: string;
  amount: number;
  /** Unix seconds: the document's date, which also dates the file (the same bytes at every download). */
  date: number;
  heading: string[];
  note: string;
  data: { customer: Party; supplier: Party; lines: DocumentLine[] };
}

/** An amount in major units with its sign and code: "-1.50 USD", "1500 JPY". */
export const money = (amount: number, currency: string): string =>
  `${amount < 0 ? '-' : ''}${majorUnits(Math.abs(amount), currency)} ${currency}`;

export const day = (unix: number): string => new Date(unix * 1000).toISOString().slice(0, 10);

const MARGIN = 50;
const WIDTH = 595.28 - 2 * MARGIN; // A4
const COLUMN = WIDTH / 2 - 10;

function party(doc: PDFKit.PDFDocument, heading: string, p: Party, x: number, y: number): number {
  doc.font('Helvetica-Bold').fontSize(10).text(heading, x, y, { width: COLUMN });
  doc.font('Helvetica').text(p.name, { width: COLUMN });
  if (p.address) doc.text(p.address, { width: COLUMN });
  if (p.vatId) doc.text(`VAT ID: ${p.vatId}`, { width: COLUMN });
  return doc.y;
}

function lines(doc: PDFKit.PDFDocument, invoice: Printed): void {
  const at = { date: MARGIN, description: MARGIN + 80, amount: MARGIN + WIDTH - 110 };
  const row = (date: string, description: string, amount: string) => {
    // A row starts on the page it ends on: the three cells are placed at one y.
    if (doc.y > doc.page.height - MARGIN - 40) doc.addPage();
    const y = doc.y;
    doc.text(date, at.date, y, { width: 75 });
    doc.text(description, at.description, y, { width: at.amount - at.description - 10 });
    const below = doc.y;
    doc.text(amount, at.amount, y, { width: 110, align: 'right' });
    doc.y = Math.max(below, doc.y) + 4;
  };
  doc.font('Helvetica-Bold').fontSize(10);
  row('Date', 'Description', 'Amount');
  doc.font('Helvetica');
  for (const l of invoice.data.lines) row(day(l.date), l.description, money(l.amount, invoice.currency));
  doc
    .moveTo(MARGIN, doc.y)
    .lineTo(MARGIN + WIDTH, doc.y)
    .stroke();
  doc.y += 6;
  doc.font('Helvetica-Bold');
  row('', 'Total', money(invoice.amount, invoice.currency));
}

/** The document's PDF: A4, PDFKit's standard Helvetica (Latin-1 text; no font file embedded). */
export async function documentPdf(invoice: Printed): Promise<Buffer> {
  // Loaded at the first document, not at start: PDFKit and its fonts' tables took about 30 MB (issue 47).
  const { default: PDFDocument } = await import('pdfkit');
  const date = new Date(invoice.date * 1000);
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info: { Title: `${invoice.title} ${invoice.label}`, Producer: 'Tally', Creator: 'Tally', CreationDate: date, ModDate: date },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.font('Helvetica-Bold').fontSize(20).text(invoice.title);
  doc.moveDown(0.5);
  doc.font('Helvetica').fontSize(10);
  for (const line of invoice.heading) doc.text(line);
  doc.moveDown();
  const top = doc.y;
  const left = party(doc, 'Supplier (partner)', invoice.data.supplier, MARGIN, top);
  const right = party(doc, 'Customer (issuer of this invoice)', invoice.data.customer, MARGIN + COLUMN + 20, top);
  doc.y = Math.max(left, right) + 16;
  doc.x = MARGIN;
  doc.text(invoice.note, { width: WIDTH });
  doc.moveDown();
  lines(doc, invoice);
  doc.end();
  return done;
}
