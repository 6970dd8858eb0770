// Every partner with their numbers for the last 30 days: searchable, sortable, paged, all
// in the URL; and the form to add one (a partner and their accepted partnership).

import { useLocation } from 'preact-iso/router';
import { useListAddress } from '../../common/list-address.js';
import { useState } from 'preact/hooks';
import { api, type Answer } from '../../common/api.js';
import { addDays, int, moneyMap, perClick, today } from '../../common/format.js';
import { Confirm, text, useSubmit } from '../../common/forms.js';
import { useLoad } from '../../common/use-api.js';
import { Empty, Pager, Show, Table, type Column } from '../../common/ui.js';
import { allGroups, byId, type Group } from '../groups.js';
import { href } from '../session.js';
import { statsQuery } from '../../common/range.js';
import { stateWord } from '../language.js';
import { t } from './words.js';

type Row = Answer<'/v1/stats/partners'>['data'][number];

const SORTS = [
  ['revenue', () => t('partners.revenue')],
  ['commissions', () => t('partners.commissions')],
  ['clicks', () => t('partners.clicks')],
  ['referrals', () => t('partners.referrals')],
  ['conversion_rate', () => t('partners.perClick')],
  ['owed', () => t('partners.owed')],
] as const;

/** A partner's partnership in the program: its state and group, or null without one. */
type Ship = { state: string; group_id: string | null } | null;
type States = Readonly<Record<string, Ship>>;

/**
 * The state and group of each partner's partnership (one per partner in a program), which the
 * leaderboard does not carry: one GET /v1/partnerships?partner_id_eq= per partner shown.
 */
async function statesOf(ids: readonly string[], signal: AbortSignal): Promise<States> {
  const one = async (id: string) => {
    const found = await api.GET('/v1/partnerships', { params: { query: { partner_id_eq: id } }, signal });
    const a = found.data[0]?.attributes;
    return [id, a ? { state: a.state, group_id: a.group_id } : null] as const;
  };
  return Object.fromEntries(await Promise.all(ids.map(one)));
}

/** What the state column says: an application waiting for the owner stands out from the partners already in. */
const stateText = (state: string | null | undefined): string =>
  state === undefined
    ? ''
    : state === null
      ? t('partners.noPartnership')
      : state === 'pending'
        ? t('partners.applicationPending')
        : stateWord(`partnershipState.${state}`, state);

const columns = (states: States, groups: Readonly<Record<string, Group>>): Column<Row>[] => [
  {
    label: t('partners.partner'),
    cell: (r) => <a href={href(`/partners/${r.id}`)}>{r.attributes.name}</a>,
    text: (r) => r.attributes.name,
  },
  {
    label: t('partners.state'),
    cell: (r) => {
      const ship = states[r.id];
      return <span class={`state ${ship?.state ?? 'none'}`}>{stateText(ship === undefined ? undefined : (ship?.state ?? null))}</span>;
    },
    text: (r) => states[r.id]?.state ?? '',
  },
  {
    label: t('partners.group'),
    cell: (r) => {
      const group = groups[states[r.id]?.group_id ?? ''];
      return group ? <a href={href(`/groups/${group.id}`)}>{group.attributes.name}</a> : '';
    },
    text: (r) => groups[states[r.id]?.group_id ?? '']?.attributes.name ?? '',
  },
  { label: t('partners.key'), cell: (r) => r.attributes.key ?? '—', text: (r) => r.attributes.key ?? '' },
  { label: t('partners.clicks'), numeric: true, cell: (r) => int(r.attributes.clicks), text: (r) => String(r.attributes.clicks) },
  {
    label: t('partners.referrals'),
    numeric: true,
    cell: (r) => int(r.attributes.referrals),
    text: (r) => String(r.attributes.referrals),
  },
  {
    label: t('partners.perClick'),
    numeric: true,
    cell: (r) => perClick(r.attributes.conversion_rate),
    text: (r) => String(r.attributes.conversion_rate),
  },
  {
    label: t('partners.revenue'),
    numeric: true,
    cell: (r) => moneyMap(r.attributes.revenue),
    text: (r) => moneyMap(r.attributes.revenue),
  },
  {
    label: t('partners.commissions'),
    numeric: true,
    cell: (r) => moneyMap(r.attributes.commissions),
    text: (r) => moneyMap(r.attributes.commissions),
  },
  { label: t('partners.owed'), numeric: true, cell: (r) => moneyMap(r.attributes.owed), text: (r) => moneyMap(r.attributes.owed) },
];

/** The table and the states of its partners, asked for once the page of partners is known. */
function PartnerTable({ rows }: { rows: Row[] }) {
  const ids = rows.map((r) => r.id);
  const states = useLoad((signal) => statesOf(ids, signal), ids.join(','));
  const groups = useLoad(allGroups, 'groups');
  return <Table caption={t('partners.title')} columns={columns(states.data ?? {}, byId(groups.data ?? []))} rows={rows} csv="partners" />;
}

function NewPartner({ onClose }: { onClose: () => void }) {
  const { route } = useLocation();
  return (
    <Confirm
      title={t('partners.addTitle')}
      confirm={t('partners.add')}
      onClose={onClose}
      onConfirm={async (form) => {
        const get = (n: string) => String(form.get(n) ?? '').trim();
        const partner = await api.POST('/v1/partners', {
          body: {
            name: get('name'),
            email: get('email'),
            ...(get('paypal_email') ? { paypal_email: get('paypal_email') } : {}),
          },
        });
        await api.POST('/v1/partnerships', { body: { partner_id: partner.data.id, state: 'accepted' } });
        route(href(`/partners/${partner.data.id}`));
      }}
    >
      <label>
        {t('partners.name')}
        {/* biome-ignore lint/a11y/noAutofocus: the page (or dialog) is this one form: typing starts in its first field */}
        <input name="name" required maxLength={200} autoFocus />
      </label>
      <label>
        {t('partners.email')}
        <input name="email" type="email" required />
      </label>
      <label>
        {t('partners.paypal')} <span class="hint">{t('partners.paypalHint')}</span>
        <input name="paypal_email" type="email" />
      </label>
    </Confirm>
  );
}

export function Partners() {
  const { query, page, set } = useListAddress();
  const [adding, setAdding] = useState(query.new === '1');
  const sort = SORTS.find(([k]) => k === query.sort)?.[0] ?? 'revenue';
  const q = query.q ?? '';
  const range = { from: addDays(today(), -29), to: today() };
  const loaded = useLoad(
    (signal) =>
      api.GET('/v1/stats/partners', { params: { query: statsQuery(range, { sort, page, per_page: 25, ...(q ? { q } : {}) }) }, signal }),
    `${sort}/${page}/${q}`,
  );
  // No call of its own: it only changes the address, and the list follows.
  const search = useSubmit(async (form) => set({ q: text(form, 'q') }));
  return (
    <section>
      <div class="page-head">
        <h1>{t('partners.title')}</h1>
        <button type="button" onClick={() => setAdding(true)}>
          {t('partners.add')}
        </button>
      </div>
      <div class="filters">
        {/* biome-ignore lint/a11y/useSemanticElements: <search> is too new for the browsers we serve; role="search" says the same */}
        <form role="search" onSubmit={search.onSubmit}>
          <label>
            <span>{t('partners.searchByName')}</span>
            <input name="q" type="search" value={q} />
          </label>
          <button type="submit" class="secondary">
            {t('partners.search')}
          </button>
        </form>
        <label>
          <span>{t('partners.sortBy')}</span>
          <select value={sort} onChange={(e) => set({ sort: e.currentTarget.value })}>
            {SORTS.map(([k, label]) => (
              <option value={k}>{label()}</option>
            ))}
          </select>
        </label>
        <p class="hint">{t('partners.figures')}</p>
      </div>
      <Show loaded={loaded}>
        {(answer) =>
          answer.data.length === 0 ? (
            <Empty title={q ? t('partners.noMatch', { q }) : t('partners.none')}>
              <p>{q ? t('partners.noMatchText') : t('partners.noneText')}</p>
            </Empty>
          ) : (
            <>
              <PartnerTable rows={answer.data} />
              <Pager page={page} hasMore={answer.meta.pagination.has_more} go={(p) => set({ page: String(p) })} />
            </>
          )
        }
      </Show>
      {adding && <NewPartner onClose={() => setAdding(false)} />}
    </section>
  );
}
