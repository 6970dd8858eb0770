// The invoices module's records as plain types: what an invoice is issued from, and its row.

/** One side of the invoice: a legal name, an address (lines) and a tax id, as given. */
export interface Party {
  name: string;
  address: string | null;
  vatId: string | null;
}

/** A commission the invoice covers. */
export interface InvoiceLine {
  commissionId: string;
  /** Unix seconds: when the commission was earned. */
  date: number;
  description: string;
  /** Minor units of the invoice's currency; negative for a clawback. */
  amount: number;
}

/**
 * What an invoice is issued from, whatever paid it (a PayPal file marked paid, a provider's
 * payout): one partner's share of one payout. `payoutId` with the partner names it once.
 */
export interface InvoiceInput {
  programId: string;
  partnerId: string;
  payoutId: string;
  currency: string;
  /** Unix seconds: when the payout was paid; the invoice's date. */
  paidAt: number;
  /** The program's owner: the customer, who issues a self-billing invoice. */
  customer: Party;
  /** The partner: the supplier of the service invoiced. */
  supplier: Party;
  lines: readonly InvoiceLine[];
}

/** What an invoice said when issued (JSON in invoices.data): never changed afterwards. */
export interface InvoiceData {
  customer: Party;
  supplier: Party;
  lines: InvoiceLine[];
}

export interface InvoiceRow {
  id: string;
  program_id: string;
  partner_id: string;
  payout_id: string;
  /** 1, 2, … per program, without gaps. */
  number: number;
  /** The number as printed: INV-<year paid>-<number, six digits at least>. */
  label: string;
  currency: string;
  /** Minor units: the sum of the lines. */
  amount: number;
  paid_at: number;
  data: string;
  created_at: number;
}
