// Every partner with their numbers for the last 30 days: searchable, sortable, paged, all
// in the URL; and the form to add one (a partner and their accepted partnership).

import type { TargetedSubmitEvent } from 'preact';
import { useLocation } from 'preact-iso/router';
import { useState } from 'preact/hooks';
import { api, type Answer } from '../../common/api.js';
import { addDays, int, moneyMap, percent, today } from '../../common/format.js';
import { useLoad } from '../../common/use-api.js';
import { Confirm, Empty, Pager, Show, Table, type Column } from '../../common/ui.js';
import { href } from '../session.js';
import { statsQuery } from '../../common/range.js';

type Row = Answer<'/v1/stats/partners'>['data'][number];

const SORTS = [
  ['revenue', 'Revenue'],
  ['commissions', 'Commissions'],
  ['clicks', 'Clicks'],
  ['referrals', 'Referrals'],
  ['conversion_rate', 'Conversion rate'],
  ['owed', 'Owed'],
] as const;

const COLUMNS: Column<Row>[] = [
  { label: 'Partner', cell: (r) => <a href={href(`/partners/${r.id}`)}>{r.attributes.name}</a>, text: (r) => r.attributes.name },
  { label: 'Key', cell: (r) => r.attributes.key ?? '—', text: (r) => r.attributes.key ?? '' },
  { label: 'Clicks', numeric: true, cell: (r) => int(r.attributes.clicks), text: (r) => String(r.attributes.clicks) },
  { label: 'Referrals', numeric: true, cell: (r) => int(r.attributes.referrals), text: (r) => String(r.attributes.referrals) },
  { label: 'Conversion', numeric: true, cell: (r) => percent(r.attributes.conversion_rate), text: (r) => String(r.attributes.conversion_rate) },
  { label: 'Revenue', numeric: true, cell: (r) => moneyMap(r.attributes.revenue), text: (r) => moneyMap(r.attributes.revenue) },
  { label: 'Commissions', numeric: true, cell: (r) => moneyMap(r.attributes.commissions), text: (r) => moneyMap(r.attributes.commissions) },
  { label: 'Owed', numeric: true, cell: (r) => moneyMap(r.attributes.owed), text: (r) => moneyMap(r.attributes.owed) },
];

function NewPartner({ onClose }: { onClose: () => void }) {
  const { route } = useLocation();
  return (
    <Confirm
      title="Add a partner"
      confirm="Add partner"
      onClose={onClose}
      onConfirm={async (form) => {
        const get = (n: string) => String(form.get(n) ?? '').trim();
        const partner = await api('post', '/v1/partners', undefined, {
          name: get('name'),
          email: get('email'),
          ...(get('paypal_email') ? { paypal_email: get('paypal_email') } : {}),
        });
        await api('post', '/v1/partnerships', undefined, { partner_id: partner.data.id, state: 'accepted' });
        route(href(`/partners/${partner.data.id}`));
      }}
    >
      <label>
        Name
        <input name="name" required maxLength={200} autoFocus />
      </label>
      <label>
        E-mail
        <input name="email" type="email" required />
      </label>
      <label>
        PayPal e-mail <span class="hint">(where payouts go; can be added later)</span>
        <input name="paypal_email" type="email" />
      </label>
    </Confirm>
  );
}

export function Partners() {
  const { query, path, route } = useLocation();
  const [adding, setAdding] = useState(query.new === '1');
  const page = Math.max(1, Number(query.page) || 1);
  const sort = SORTS.some(([k]) => k === query.sort) ? query.sort! : 'revenue';
  const q = query.q ?? '';
  const range = { from: addDays(today(), -29), to: today() };
  const set = (change: Record<string, string>) => route(`${path}?${new URLSearchParams({ ...query, page: '1', ...change })}`, true);
  const loaded = useLoad(
    () => api('get', '/v1/stats/partners', `/v1/stats/partners?${statsQuery(range, { sort, page: String(page), per_page: '25', ...(q ? { q } : {}) })}`),
    `${sort}/${page}/${q}`,
  );
  const search = (e: TargetedSubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    set({ q: String(new FormData(e.currentTarget).get('q') ?? '') });
  };
  return (
    <section>
      <div class="page-head">
        <h1>Partners</h1>
        <button type="button" onClick={() => setAdding(true)}>
          Add partner
        </button>
      </div>
      <div class="filters">
        <form role="search" onSubmit={search}>
          <label>
            <span>Search by name</span>
            <input name="q" type="search" value={q} />
          </label>
          <button type="submit" class="secondary">
            Search
          </button>
        </form>
        <label>
          <span>Sort by</span>
          <select value={sort} onChange={(e) => set({ sort: e.currentTarget.value })}>
            {SORTS.map(([k, label]) => (
              <option value={k}>{label}</option>
            ))}
          </select>
        </label>
        <p class="hint">Figures for the last 30 days; owed is as of now.</p>
      </div>
      <Show loaded={loaded}>
        {(answer) =>
          answer.data.length === 0 ? (
            <Empty title={q ? `No partner's name contains "${q}"` : 'No partners yet'}>
              <p>{q ? 'Try another part of the name.' : 'Add a partner: they get a referral link to share, and every visit and signup through it is theirs.'}</p>
            </Empty>
          ) : (
            <>
              <Table caption="Partners" columns={COLUMNS} rows={answer.data} csv="partners" />
              <Pager page={page} hasMore={answer.meta.pagination.has_more} go={(p) => set({ page: String(p) })} />
            </>
          )
        }
      </Show>
      {adding && <NewPartner onClose={() => setAdding(false)} />}
    </section>
  );
}
