// The invoices module's records as plain types: what an invoice is issued from, and its row.

/** One side of the invoice: a legal name, an address (lines) and a tax id, as given. */
export interface Party {
  name: string;
  address: string | null;
  vatId: string | null;
}

/** A line of an invoice or a credit note: a day, what it is for, minor units of its currency. */
export interface DocumentLine {
  /** Unix seconds: when the commission was earned (an invoice), or what the line credits happened. */
  date: number;
  description: string;
  /** Minor units; negative for a clawback, and on a credit note for what it takes back. */
  amount: number;
}

/** A commission the invoice covers. */
export interface InvoiceLine extends DocumentLine {
  commissionId: string;
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

/** What a credit note said when issued (JSON in credit_notes.data): the invoice's parties, and the invoice it corrects. */
export interface CreditNoteData {
  customer: Party;
  supplier: Party;
  lines: DocumentLine[];
  corrects: { id: string; label: string; paidAt: number };
  /** Why the money came back, as printed. */
  reason: string;
  /** True when it cancels what was left of the invoice (the payout returned); false for a part (a reversal). */
  whole: boolean;
}

/** A credit note correcting a paid payout's invoice: its own numbers (CN-), per program without gaps. */
export interface CreditNoteRow {
  id: string;
  program_id: string;
  partner_id: string;
  payout_id: string;
  invoice_id: string;
  /** What it credits, once per invoice: `returned` (what was left), or the provider's reversal id. */
  cause: string;
  number: number;
  /** CN-<year issued>-<number, six digits at least>. */
  label: string;
  currency: string;
  /** Minor units, negative: the sum of its lines. */
  amount: number;
  issued_at: number;
  data: string;
  created_at: number;
}
