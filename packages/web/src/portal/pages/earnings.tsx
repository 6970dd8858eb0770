// Each commission with its state, amount and the date it becomes payable; each payout
// that paid them.

import { api, type Answer } from '../../common/api.js';
import { dateTime, int, money } from '../../common/format.js';
import { useLoad } from '../../common/use-api.js';
import { Empty, Show, Table, type Column } from '../../common/ui.js';
import { usePortal } from '../session.js';

type Commission = Answer<'/v1/portal/partnerships/{id}/commissions'>['data'][number];
type Payout = Answer<'/v1/portal/partnerships/{id}/payouts'>['data'][number];

function whenPayable(c: Commission): string {
  const a = c.attributes;
  if (a.state === 'paid') return a.paid_at ? `paid ${dateTime(a.paid_at)}` : 'paid';
  if (a.state === 'rejected') return '—';
  if (a.on_hold) return 'held: the payment is disputed';
  return a.payable_at * 1000 > Date.now() ? dateTime(a.payable_at) : 'at the next payout';
}

const COMMISSIONS: Column<Commission>[] = [
  { label: 'Date', cell: (c) => dateTime(c.attributes.created_at), text: (c) => new Date(c.attributes.created_at * 1000).toISOString() },
  { label: 'Amount', numeric: true, cell: (c) => money(c.attributes.amount, c.attributes.currency), text: (c) => `${c.attributes.amount} ${c.attributes.currency}` },
  {
    label: 'State',
    cell: (c) => (
      <span class={`state ${c.attributes.state}`}>
        {c.attributes.clawback ? 'refund taken back' : c.attributes.state}
        {c.attributes.reject_reason ? `: ${c.attributes.reject_reason}` : ''}
      </span>
    ),
    text: (c) => c.attributes.state,
  },
  { label: 'Payable', cell: whenPayable, text: whenPayable },
];

const PAYOUTS: Column<Payout>[] = [
  { label: 'Date', cell: (b) => dateTime(b.attributes.created_at), text: (b) => new Date(b.attributes.created_at * 1000).toISOString() },
  { label: 'Amount', numeric: true, cell: (b) => money(b.attributes.amount, b.attributes.currency), text: (b) => `${b.attributes.amount} ${b.attributes.currency}` },
  { label: 'Commissions', numeric: true, cell: (b) => int(b.attributes.commissions), text: (b) => String(b.attributes.commissions) },
  { label: 'State', cell: (b) => <span class={`state ${b.attributes.state}`}>{b.attributes.state === 'open' ? 'being paid' : b.attributes.state}</span>, text: (b) => b.attributes.state },
];

export function Earnings() {
  const { current } = usePortal();
  const id = current?.id ?? '';
  const loaded = useLoad(
    current
      ? async () => {
          const [c, p] = await Promise.all([
            api('get', '/v1/portal/partnerships/{id}/commissions', `/v1/portal/partnerships/${id}/commissions?per_page=50`),
            api('get', '/v1/portal/partnerships/{id}/payouts', `/v1/portal/partnerships/${id}/payouts`),
          ]);
          return { commissions: c.data, payouts: p.data };
        }
      : null,
    id,
  );
  return (
    <section>
      <h1>Commissions and payouts</h1>
      {!current ? (
        <Empty title="No program yet" />
      ) : (
        <Show loaded={loaded}>
          {({ commissions, payouts }) => (
            <>
              <section class="panel">
                <h2>Commissions</h2>
                {commissions.length === 0 ? (
                  <Empty title="No commissions yet">
                    <p>When a customer you referred pays, your share appears here, with the date it can be paid out.</p>
                  </Empty>
                ) : (
                  <Table caption="Your commissions" columns={COMMISSIONS} rows={commissions} csv="commissions" />
                )}
              </section>
              <section class="panel">
                <h2>Payouts</h2>
                {payouts.length === 0 ? (
                  <Empty title="No payouts yet">
                    <p>Payouts go to your PayPal address: check it in Settings.</p>
                  </Empty>
                ) : (
                  <Table caption="Your payouts" columns={PAYOUTS} rows={payouts} csv="payouts" />
                )}
              </section>
            </>
          )}
        </Show>
      )}
    </section>
  );
}
